#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NearbySupport
import Synchronization
import UCI

/// A file descriptor carrying a UCI byte stream (a tty or a TCP socket): a reader thread cuts
/// the bytes into typed packets with `UCIPacketFramer` and yields them (the client decodes
/// and routes them right there, on this thread); writes go out whole with a deadline. All the
/// raw `poll`/`read`/`write` code of the serial and TCP transports is here.
///
/// A socket is read with a blocking `recv` (one system call per burst; ``stop()`` shuts the
/// socket down to end it) and written with `MSG_DONTWAIT`; a tty, which cannot be shut down, is
/// read after `poll` on it and a wake-up pipe.
final class FileDescriptorLink: Sendable {
    /// How the other end going away reads in messages ("the tty was closed", ...).
    let hangupReason: String
    let device: String
    private let fd: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let isSocket: Bool
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)

    /// Takes ownership of `fd` (closed by ``stop()``), which must be non-blocking (a socket is
    /// made blocking for its reader; its writes do not block).
    init(fd: Int32, isSocket: Bool, device: String, hangupReason: String) throws(UWBDeviceError) {
        if isSocket {
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else {
            let error = UWBDeviceError.posix(errno, device: device, operation: "create a wake-up pipe")
            close(fd)
            throw error
        }
        for descriptor in pipeFDs { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        self.fd = fd
        self.wakeRead = pipeFDs[0]
        self.wakeWrite = pipeFDs[1]
        self.isSocket = isSocket
        self.device = device
        self.hangupReason = hangupReason
    }

    /// Starts the reader thread; packets go to `continuation`, which is finished with
    /// `disconnected` when the other end goes away, or normally after ``stop()``.
    func start(_ continuation: UCIPacketStream.Continuation) {
        started.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            readLoop(continuation)
            finished.signal()
        }
        thread.name = "nearby-uci-reader"
        thread.start()
    }

    private func readLoop(_ continuation: UCIPacketStream.Continuation) {
        if isSocket {
            socketReadLoop(continuation)
            return
        }
        var framer = UCIPacketFramer()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                continuation.finish(throwing: UWBDeviceError.posix(errno, device: device, operation: "wait for data"))
                return
            }
            if fds[1].revents != 0 || stopped.load(ordering: .acquiring) {
                continuation.finish()
                return
            }
            guard fds[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                // One wake-up of the consumers per burst read (``WakeBatch``).
                WakeBatch.run { while let packet = framer.nextPacket() { continuation.yield(packet) } }
                continue
            }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            hungUp(continuation, framer: framer, error: count == 0 ? nil : errno)
            return
        }
    }

    /// A socket: one blocking `recv` per burst; ``stop()`` shuts the socket down, which ends it.
    private func socketReadLoop(_ continuation: UCIPacketStream.Continuation) {
        var framer = UCIPacketFramer()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                // One wake-up of the consumers per burst read (``WakeBatch``).
                WakeBatch.run { while let packet = framer.nextPacket() { continuation.yield(packet) } }
                continue
            }
            let error = errno
            if stopped.load(ordering: .acquiring) {
                continuation.finish()
                return
            }
            if count < 0 && (error == EINTR || error == EAGAIN) { continue }
            hungUp(continuation, framer: framer, error: count == 0 ? nil : error)
            return
        }
    }

    private func hungUp(_ continuation: UCIPacketStream.Continuation, framer: UCIPacketFramer, error: Int32?) {
        let detail = error.map { " (\(String(cString: strerror($0))))" } ?? ""
        var reason = hangupReason + detail
        if framer.bufferedByteCount > 0 {
            reason += "; \(framer.bufferedByteCount) byte(s) of an incomplete packet were lost"
        }
        continuation.finish(throwing: UWBDeviceError(
            .disconnected, device: device, reason: reason,
            remedy: "Reconnect the device; nearby reopens it when it is back."))
    }

    /// Writes all of `bytes`, waiting at most `timeout` for the device to take them.
    /// - Throws: ``UWBDeviceError`` `timeout`, `disconnected` or `io`.
    func write(_ bytes: [UInt8], timeout: Duration) throws(UWBDeviceError) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                isSocket
                    ? send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                    : Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if count >= 0 {
                offset += count
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN:
                let remaining = clock.now.duration(to: deadline)
                guard remaining > .zero else {
                    throw UWBDeviceError(
                        .timeout, device: device,
                        reason: "the device took \(offset) of \(bytes.count) byte(s) and then nothing for \(TransportTime.text(timeout))",
                        remedy: "Check that the board runs UCI firmware and is not stalled by flow control; replug it.")
                }
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, Int32(max(1, TransportTime.milliseconds(remaining))))
            case EPIPE, ECONNRESET, EIO, ENODEV, ENXIO:
                throw UWBDeviceError(.disconnected, device: device, reason: hangupReason + " (\(String(cString: strerror(errno))))")
            default:
                throw UWBDeviceError.posix(errno, device: device, operation: "write")
            }
        }
    }

    /// Stops the reader (the stream finishes normally unless it already ended) and closes the
    /// descriptor. Idempotent.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if isSocket { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
        if started.load(ordering: .acquiring) { _ = finished.wait(timeout: .now() + 5) }
        close(fd)
        close(wakeRead)
        close(wakeWrite)
    }

    deinit { stop() }
}

extension UWBDeviceError {
    /// An error from a failed system call, with the usual remedies for permission and busy.
    static func posix(_ code: Int32, device: String, operation: String) -> UWBDeviceError {
        let text = String(cString: strerror(code))
        switch code {
        case EACCES, EPERM:
            return UWBDeviceError(.permissionDenied, device: device, reason: "cannot \(operation): \(text)", remedy: permissionRemedy)
        case EBUSY:
            return UWBDeviceError(.busy, device: device, reason: "cannot \(operation): the device is in use", remedy: busyRemedy)
        case ENOENT, ENODEV, ENXIO:
            return UWBDeviceError(.notFound, device: device, reason: "cannot \(operation): \(text)",
                                  remedy: "Check the path and that the board is plugged in; `nearby uwb list` shows what is attached.")
        case ETIMEDOUT:
            return UWBDeviceError(.timeout, device: device, reason: "cannot \(operation): \(text)")
        default:
            return UWBDeviceError(.io, device: device, reason: "cannot \(operation): \(text) (errno \(code))")
        }
    }
}
