import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A raw TCP client for tests of UCI servers (`nearby sim uwbs`, pica): sends bytes as given and
/// splits what arrives into whole UCI packets, without any code of the package under test.
public final class RawUCISocket: Sendable {
    private let fd: Int32
    private struct State {
        var packets: [[UInt8]] = []
        var read = 0
        var closed = false
        var descriptorOpen = true
    }
    private let state: Shared

    /// What the reader thread shares with the socket (not the socket itself, so dropping the
    /// last reference closes the connection).
    private final class Shared: Sendable {
        let mutex = Mutex(State())
        func withLock<T>(_ body: (inout State) -> T) -> T { mutex.withLock { body(&$0) } }
    }

    /// Connects to 127.0.0.1:`port` (or `host`).
    public init(port: Int, host: String = "127.0.0.1") throws {
        state = Shared()
        fd = try connectTCP(host: host, port: port)
        let thread = Thread { [fd, state] in Self.readLoop(fd: fd, state: state) }
        thread.start()
    }

    deinit { close() }

    /// Sends bytes as they are (one packet, several, or part of one).
    public func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next packet not read yet, waiting up to `timeout`.
    public func next(timeout: Duration = .seconds(20)) async throws -> [UInt8] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let (packet, closed) = state.withLock { state -> ([UInt8]?, Bool) in
                guard state.read < state.packets.count else { return (nil, state.closed) }
                state.read += 1
                return (state.packets[state.read - 1], false)
            }
            if let packet { return packet }
            if closed { throw ChildProcessError("the server closed the connection") }
            if clock.now >= deadline { throw ChildProcessError("no UCI packet within \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The next `count` packets.
    public func next(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [[UInt8]] {
        var packets: [[UInt8]] = []
        for _ in 0..<count { packets.append(try await next(timeout: timeout)) }
        return packets
    }

    /// Reads packets until one satisfies `match`, returning every packet read.
    public func read(until match: ([UInt8]) -> Bool, timeout: Duration = .seconds(20)) async throws -> [[UInt8]] {
        var packets: [[UInt8]] = []
        while true {
            let packet = try await next(timeout: timeout)
            packets.append(packet)
            if match(packet) { return packets }
        }
    }

    /// `true` once the server closed the connection and every packet was read.
    public var isClosed: Bool { state.withLock { $0.closed && $0.read == $0.packets.count } }

    /// Closes the connection.
    public func close() {
        state.withLock { state in
            if state.descriptorOpen { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private static func readLoop(fd: Int32, state: Shared) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                if count < 0, errno == EINTR { continue }
                break
            }
            buffer.append(contentsOf: chunk[0..<count])
            while buffer.count >= 4 {
                let length = buffer[0] >> 5 == 0 ? Int(buffer[2]) | Int(buffer[3]) << 8 : Int(buffer[3])
                guard buffer.count >= 4 + length else { break }
                let packet = Array(buffer[0..<(4 + length)])
                buffer.removeFirst(4 + length)
                state.withLock { $0.packets.append(packet) }
            }
        }
        state.withLock { state in
            state.closed = true
            state.descriptorOpen = false
            Glibc.close(fd)
        }
    }
}
