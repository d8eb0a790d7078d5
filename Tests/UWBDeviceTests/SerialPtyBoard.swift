import Foundation
import NearbyTestSupport
import Synchronization
import UCI

/// The board side of a pseudo-terminal pair: the transport opens the slave (`path`) like a
/// `/dev/ttyACM0`; this reads the master, cuts UCI packets (after removing the NXP host-interface
/// header when `nxpFraming`), records the raw bytes and packets, and answers with `responder`.
final class SerialPtyBoard: Sendable {
    let path: String
    private let master: Int32
    private let nxpFraming: Bool
    private let responder: ScriptedUCIServer.Responder
    private struct State {
        var raw: [UInt8] = []
        var packets: [[UInt8]] = []
        var closed = false
    }
    private final class Box: Sendable { let state = Mutex(State()) }
    private let box = Box()
    private let readerDone = DispatchSemaphore(value: 0)

    init(nxpFraming: Bool = false, responder: @escaping ScriptedUCIServer.Responder) throws {
        // posix_openpt/unlockpt/ptsname, spelled with the Linux ioctls Swift can call.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0,
              ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0 else {
            throw ChildProcessError("cannot create a pseudo-terminal: errno \(errno)")
        }
        let name = "/dev/pts/\(number)"
        // The master side stays raw too, so the board sees exactly what the host wrote.
        var options = termios()
        tcgetattr(master, &options)
        cfmakeraw(&options)
        tcsetattr(master, TCSANOW, &options)
        self.master = master
        self.path = name
        self.nxpFraming = nxpFraming
        self.responder = responder
        let thread = Thread { [self] in
            readLoop()
            readerDone.signal()
        }
        thread.start()
    }

    deinit { hangUp() }

    /// Bytes the host wrote, exactly.
    var raw: [UInt8] { box.state.withLock { $0.raw } }
    /// UCI packets the host sent.
    var packets: [[UInt8]] { box.state.withLock { $0.packets } }

    func waitForPackets(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [[UInt8]] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while packets.count < count {
            if clock.now >= deadline { throw ChildProcessError("the board got \(packets.count) of \(count) packet(s): \(raw)") }
            try await Task.sleep(for: .milliseconds(5))
        }
        return packets
    }

    /// Writes chunks to the host with 5 ms between them.
    func write(_ chunks: [[UInt8]]) {
        for (index, chunk) in chunks.enumerated() {
            if index > 0 { usleep(5_000) }
            _ = chunk.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
        }
    }

    /// Closes the master: the host's tty hangs up, as when a USB serial device is unplugged.
    func hangUp() {
        let wasOpen = box.state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard wasOpen else { return }
        // A read blocked on the master would keep it open: let the reader leave first.
        _ = readerDone.wait(timeout: .now() + 5)
        close(master)
    }

    private func readLoop() {
        var pending: [UInt8] = []
        var framer = UCIPacketFramer()
        var chunk = [UInt8](repeating: 0, count: 1024)
        while !box.state.withLock({ $0.closed }) {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 20) > 0, descriptor.revents & Int16(POLLIN) != 0 else {
                if descriptor.revents & Int16(POLLHUP) != 0 { usleep(5_000) }  // no slave open (yet)
                continue
            }
            let count = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                if count < 0 && errno == EIO && !box.state.withLock({ $0.closed }) {
                    usleep(5_000)  // no slave open yet (or between opens)
                    continue
                }
                return
            }
            let bytes = Array(chunk[0..<count])
            box.state.withLock { $0.raw.append(contentsOf: bytes) }
            if nxpFraming {
                // NXP host-interface framing: [0x01][len_hi][len_lo] + one UCI packet.
                pending.append(contentsOf: bytes)
                while pending.count >= 3, pending.count >= 3 + (Int(pending[1]) << 8 | Int(pending[2])) {
                    let length = Int(pending[1]) << 8 | Int(pending[2])
                    framer.append(pending[3..<(3 + length)])
                    pending.removeFirst(3 + length)
                }
            } else {
                framer.append(bytes)
            }
            while let packet = framer.nextPacket()?.bytes {
                box.state.withLock { $0.packets.append(packet) }
                write(responder(packet))
            }
        }
    }
}
