import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A scripted UCI server over TCP for tests (raw UCI stream, pica's convention): answers each
/// received packet with what `responder` returns, written in the given chunks with a pause
/// between them (so clients see packets split and merged arbitrarily), and records every
/// packet it received. Each accepted connection is served in turn; one server per test.
public final class ScriptedUCIServer: Sendable {
    /// Returns the byte chunks to write back for one received packet (may be empty).
    public typealias Responder = @Sendable (_ packet: [UInt8]) -> [[UInt8]]

    /// The TCP port on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    private let responder: Responder
    private let greeting: [[UInt8]]
    private let chunkDelay: Duration
    private struct State {
        var received: [[UInt8]] = []
        var connections: [Int32] = []
        var connectionCount = 0
        var stopped = false
    }
    private let state = Mutex(State())

    /// Listens on 127.0.0.1:`port` (a port the kernel picks if `nil`, so parallel tests never
    /// race for one).
    /// - Parameters:
    ///   - greeting: chunks sent on every new connection (e.g. DEVICE_STATUS_NTF(READY)).
    ///   - chunkDelay: pause between two written chunks.
    public init(port: Int? = nil, greeting: [[UInt8]] = [], chunkDelay: Duration = .milliseconds(5),
                responder: @escaping Responder) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ChildProcessError("socket() failed: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port ?? 0).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else {
            close(fd)
            throw ChildProcessError("cannot listen on 127.0.0.1:\(port ?? 0): errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = fd
        self.responder = responder
        self.greeting = greeting
        self.chunkDelay = chunkDelay
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Every packet received so far, in order, over all connections.
    public var received: [[UInt8]] { state.withLock { $0.received } }
    /// Number of connections accepted so far.
    public var connectionCount: Int { state.withLock { $0.connectionCount } }

    /// Waits until at least `count` packets were received and returns them.
    public func waitForPackets(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [[UInt8]] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let packets = received
            if packets.count >= count { return packets }
            if clock.now >= deadline {
                throw ChildProcessError("the scripted UCI server received \(packets.count) of \(count) packet(s) within \(timeout): \(packets)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until at least `count` connections were accepted.
    public func waitForConnections(_ count: Int, timeout: Duration = .seconds(20)) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while connectionCount < count {
            if clock.now >= deadline {
                throw ChildProcessError("the scripted UCI server saw \(connectionCount) of \(count) connection(s) within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Writes chunks to the newest connection (e.g. a notification nobody asked for).
    public func send(_ chunks: [[UInt8]]) {
        guard let fd = state.withLock({ $0.connections.last }) else { return }
        write(chunks, to: fd)
    }

    /// Closes the newest connection (the client sees the server go away).
    public func dropConnection() {
        guard let fd = state.withLock({ $0.connections.popLast() }) else { return }
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Stops listening and closes every connection.
    public func stop() {
        let fds = state.withLock { state -> [Int32] in
            if state.stopped { return [] }
            state.stopped = true
            defer { state.connections.removeAll() }
            return state.connections + [listener]
        }
        for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func write(_ chunks: [[UInt8]], to fd: Int32) {
        for (index, chunk) in chunks.enumerated() {
            if index > 0 {
                let (seconds, attoseconds) = chunkDelay.components
                Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
            }
            _ = chunk.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.connections.append(fd)
                state.connectionCount += 1
                return true
            }
            guard accepted else {
                close(fd)
                continue
            }
            let thread = Thread { [self] in serve(fd) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        write(greeting, to: fd)
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            buffer.append(contentsOf: chunk[0..<count])
            while buffer.count >= 4 {
                let messageType = buffer[0] >> 5
                let length: Int
                if messageType == 0 {
                    length = Int(buffer[2]) | Int(buffer[3]) << 8
                } else if buffer[1] & 0x80 != 0 {
                    length = Int(buffer[3]) << 8 | Int(buffer[2])
                } else {
                    length = Int(buffer[3])
                }
                guard buffer.count >= 4 + length else { break }
                let packet = Array(buffer[0..<(4 + length)])
                buffer.removeFirst(4 + length)
                state.withLock { $0.received.append(packet) }
                write(responder(packet), to: fd)
            }
        }
        state.withLock { $0.connections.removeAll { $0 == fd } }
        close(fd)
    }
}
