import Foundation
import LowEnergy
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One end of a `SOCK_SEQPACKET` socket pair from BlueZ (`AcquireNotify`, `AcquireWrite`): one
/// packet = one ATT value (src/gatt-client.c `sock_read` / `notify_io_cb` in BlueZ).
///
/// A reader thread blocks in `poll()` on the socket and a wake-up pipe, so reads never occupy
/// Swift's cooperative threads; ``close()`` interrupts it. ``packets`` finishes when BlueZ closes
/// its end (the device disconnected, or the acquisition was released) or on ``close()``. The
/// reader thread closes the descriptor when it ends.
final class PacketSocket: Sendable {
    /// Packets read (for a notify socket), in order; finishes at hang-up.
    let packets: AsyncStream<[UInt8]>
    /// What the socket is, for messages.
    let name: String
    private let shared: Shared

    private final class Shared: Sendable {
        /// The descriptor, -1 once closed by the reader thread.
        let fd: Mutex<Int32>
        let wakeRead: Int32
        let wakeWrite: Int32
        let ended = Mutex(false)

        init(fd: Int32) {
            self.fd = Mutex(fd)
            var pipeFDs: [Int32] = [-1, -1]
            if pipe(&pipeFDs) == 0 {
                for fd in pipeFDs {
                    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                }
            } else {
                pipeFDs = [-1, -1]
            }
            wakeRead = pipeFDs[0]
            wakeWrite = pipeFDs[1]
        }

        deinit {
            if wakeRead >= 0 { Glibc.close(wakeRead) }
            if wakeWrite >= 0 { Glibc.close(wakeWrite) }
        }
    }

    /// Takes ownership of `fd` and starts the reader thread.
    init(fd descriptor: Int32, name: String) {
        self.name = name
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        let shared = Shared(fd: descriptor)
        self.shared = shared
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .unbounded)
        packets = stream
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 1024)
            defer {
                shared.fd.withLock { fd in
                    if fd >= 0 { Glibc.close(fd) }
                    fd = -1
                }
                shared.ended.withLock { $0 = true }
                continuation.finish()
            }
            let wake = shared.wakeRead
            while true {
                var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, wake >= 0 ? 2 : 1, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if wake >= 0 && fds[1].revents != 0 { return }
                if fds[0].revents & Int16(POLLIN) != 0 {
                    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    if count > 0 {
                        continuation.yield(Array(buffer[0..<count]))
                        continue
                    }
                    if count == 0 { return }
                    if errno == EAGAIN || errno == EINTR { continue }
                    return
                }
                if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return }
            }
        }
        thread.name = "nearby.bluez.socket"
        thread.start()
    }

    deinit {
        close()
    }

    /// `true` once BlueZ closed its end (or the socket was closed).
    var isHungUp: Bool { shared.ended.withLock { $0 } }

    /// Sends one packet (one ATT Write Command for a write socket).
    /// - Throws: `BluetoothError.disconnected(reason:)` when BlueZ closed its end.
    func send(_ bytes: [UInt8]) async throws(BluetoothError) {
        for _ in 0..<2000 {
            let (result, code): (Int, Int32) = shared.fd.withLock { fd in
                guard fd >= 0 else { return (-1, EBADF) }
                let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                return (sent, sent < 0 ? errno : 0)
            }
            if result == bytes.count { return }
            switch code {
            case EAGAIN, EINTR:
                try? await Task.sleep(for: .milliseconds(1))
            default:
                throw .disconnected(reason: .unspecifiedError)
            }
        }
        throw .timeout(operation: "writing to \(name)", timeout: .seconds(2), hint: "BlueZ does not take the data")
    }

    /// Closes this end (BlueZ releases the acquisition): shuts the socket down and ends the
    /// reader thread, which closes the descriptor. Idempotent.
    func close() {
        shared.fd.withLock { fd in
            if fd >= 0 { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
        }
        if shared.wakeWrite >= 0 {
            var one: UInt8 = 1
            _ = Glibc.write(shared.wakeWrite, &one, 1)
        }
    }
}
