#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NearbySupport
import Synchronization

/// Moves HCI packets over one file descriptor (socket, tty, pty): the I/O core of every
/// transport.
///
/// A dedicated reader thread blocks in `poll()` on the descriptor and on a wake-up pipe, so
/// reads never occupy Swift's cooperative threads and ``close()`` interrupts them at once. The
/// descriptor is non-blocking; a write that would block waits asynchronously and retries, and
/// writes are serialized so the bytes of two packets never interleave on a byte stream.
final class FileDescriptorChannel: Sendable {
    /// How packets are delimited on the descriptor.
    enum Framing: Sendable {
        /// A byte stream carrying H4 (TCP, UART, pty): packets are found by ``H4Framer``.
        case h4Stream
        /// One H4 packet per read/write (the kernel's HCI user channel socket).
        case datagram
    }

    private struct State {
        var fd: Int32
        var wakeWrite: Int32
        var closed = false
        var closeReason: String?
    }

    let name: String
    let packets: AsyncThrowingStream<HCIPacket, any Error>
    private let framing: Framing
    private let state: Mutex<State>
    private let writeLock = AsyncLock()
    /// Fulfilled by the reader thread once the descriptor is closed.
    private let finished = Promise<Void>()

    /// Takes ownership of `fd` (closed when the channel closes) and starts reading.
    /// - Throws: ``BluetoothError/transportOpenFailed(transport:operation:errno:)`` if the
    ///   wake-up pipe or the reader thread cannot be created (the descriptor is closed).
    init(fd: Int32, name: String, framing: Framing) throws(BluetoothError) {
        self.name = name
        self.framing = framing
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .transportOpenFailed(transport: name, operation: "pipe", errno: code)
        }
        for descriptor in pipeFDs + [fd] {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        state = Mutex(State(fd: fd, wakeWrite: pipeFDs[1]))
        let (stream, continuation) = AsyncThrowingStream<HCIPacket, any Error>.makeStream()
        packets = stream
        let wakeRead = pipeFDs[0]
        let reader = Reader(channel: self, fd: fd, wakeRead: wakeRead, continuation: continuation)
        let started = startThread { reader.run() }
        if !started {
            let code = errno
            Glibc.close(wakeRead)
            closeDescriptors()
            throw .transportOpenFailed(transport: name, operation: "start reader thread", errno: code)
        }
    }

    /// Writes one packet in full (H4 type byte included).
    /// - Throws: ``BluetoothError/transportClosed(transport:reason:)`` when closed or on a write
    ///   error.
    func send(_ packet: HCIPacket) async throws(BluetoothError) {
        let bytes = packet.h4Bytes
        // Not cancellable: abandoning a packet half-written would desynchronize the stream.
        await writeLock.lockIgnoringCancellation()
        defer { writeLock.unlock() }
        var offset = 0
        var waitedMilliseconds = 0
        while offset < bytes.count {
            enum Outcome { case wrote(Int), wouldBlock, closed(String), failed(Int32) }
            let outcome: Outcome = state.withLock { state in
                if state.closed { return .closed(state.closeReason ?? "closed") }
                let written = bytes.withUnsafeBytes { raw in
                    Glibc.write(state.fd, raw.baseAddress! + offset, raw.count - offset)
                }
                if written >= 0 { return .wrote(written) }
                let code = errno
                if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return .wouldBlock }
                return .failed(code)
            }
            switch outcome {
            case .wrote(let count):
                offset += count
                waitedMilliseconds = 0
            case .wouldBlock:
                // The kernel buffer is full (slow UART, flow control): wait without blocking a thread.
                if waitedMilliseconds >= 10_000 {
                    throw .transportClosed(
                        transport: name,
                        reason: "the controller has not accepted data for 10 s (flow control stuck? check the baud rate and RTS/CTS)")
                }
                try? await Task.sleep(for: .milliseconds(1))
                waitedMilliseconds += 1
            case .closed(let reason):
                throw .transportClosed(transport: name, reason: reason)
            case .failed(let code):
                throw .transportClosed(transport: name, reason: "write failed: \(BluetoothError.errorText(code))")
            }
        }
    }

    /// Stops the reader and closes the descriptor; ``packets`` finishes without error.
    /// Returns once the descriptor is closed (so the device can be opened again at once).
    func close() async {
        let wake: Int32? = state.withLock { state in
            if state.closed { return nil }
            return state.wakeWrite
        }
        guard let wake else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wake, &byte, 1)
        try? await finished.value(timeout: .seconds(2), operation: "closing \(name)")
    }

    /// Marks the channel closed and closes the descriptor and the pipe's write end (reader
    /// thread only, or on a failed init).
    fileprivate func closeDescriptors(reason: String? = nil) {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            state.closeReason = reason ?? "closed"
            Glibc.close(state.fd)
            Glibc.close(state.wakeWrite)
        }
    }

    /// The reader thread's loop.
    private final class Reader: @unchecked Sendable {
        let channel: FileDescriptorChannel
        let fd: Int32
        let wakeRead: Int32
        let continuation: AsyncThrowingStream<HCIPacket, any Error>.Continuation

        init(channel: FileDescriptorChannel, fd: Int32, wakeRead: Int32,
             continuation: AsyncThrowingStream<HCIPacket, any Error>.Continuation) {
            self.channel = channel
            self.fd = fd
            self.wakeRead = wakeRead
            self.continuation = continuation
        }

        func run() {
            let error = loop()
            channel.closeDescriptors(reason: error.map { "\($0)" })
            Glibc.close(wakeRead)
            channel.finished.fulfill(())
            if let error {
                continuation.finish(throwing: error)
            } else {
                continuation.finish()
            }
        }

        /// Reads until closed (returns nil) or broken (returns the error).
        private func loop() -> BluetoothError? {
            var framer = H4Framer()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var descriptors = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let name = channel.name
            while true {
                descriptors[0].revents = 0
                descriptors[1].revents = 0
                let ready = poll(&descriptors, 2, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return .transportClosed(transport: name, reason: "poll failed: \(BluetoothError.errorText(errno))")
                }
                if descriptors[1].revents != 0 { return nil }
                guard descriptors[0].revents != 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
                if count == 0 {
                    return .transportClosed(transport: name, reason: "the controller side closed the connection (end of stream)")
                }
                if count < 0 {
                    let code = errno
                    if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { continue }
                    let reason: String
                    switch code {
                    case EIO: reason = "I/O error: the device was unplugged or the other end of the pty closed"
                    case ENODEV, ENXIO: reason = "the device went away (unplugged or powered off)"
                    default: reason = "read failed: \(BluetoothError.errorText(code))"
                    }
                    return .transportClosed(transport: name, reason: reason)
                }
                switch channel.framing {
                case .h4Stream:
                    do {
                        for packet in try framer.append(buffer[0..<count]) {
                            continuation.yield(packet)
                        }
                    } catch {
                        return error
                    }
                case .datagram:
                    guard let type = HCIPacketType(rawValue: buffer[0]) else {
                        // One bad datagram does not desynchronize anything: drop it.
                        continue
                    }
                    continuation.yield(HCIPacket(type, Array(buffer[1..<count])))
                }
            }
        }
    }
}

/// Runs `body` on a new detached POSIX thread. Returns `false` if the thread cannot be created.
func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { raw in
        guard let raw else { return nil }
        let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
        box.body()
        return nil
    }, box)
    guard result == 0 else {
        Unmanaged<Box>.fromOpaque(box).release()
        errno = result
        return false
    }
    pthread_detach(thread)
    return true
}
