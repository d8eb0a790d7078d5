#if canImport(Glibc)
import Glibc
#endif
import Foundation
public import Logging
import Synchronization
import UCI

/// Serves virtual UWB subsystems over TCP, raw UCI in both directions (google/pica's
/// convention, what `TCPTransport` and `--device tcp:HOST:PORT` speak): each
/// accepted connection is a fresh device of the ``VirtualUWBSWorld``, powered up on connect
/// (CORE_DEVICE_STATUS_NTF(READY)) and detached when the connection closes.
///
/// ```swift
/// let world = try VirtualUWBSWorld(scenario: .walkIn)
/// let server = try VirtualUWBSServer(world: world, host: "127.0.0.1", port: 0)  // port 0: the kernel picks
/// print(server.address)                                                         // "127.0.0.1:40123"
/// ```
public final class VirtualUWBSServer: Sendable {
    /// The world the devices live in.
    public let world: VirtualUWBSWorld
    /// The configuration of every device a connection creates.
    public let configuration: VirtualUWBSConfiguration
    /// Where each connection's device is placed in the scene.
    public let placement: VirtualUWBSPlacement
    /// The address listened on.
    public let host: String
    /// The port listened on (the kernel's choice when 0 was asked for).
    public let port: UInt16
    private let listener: Int32
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var connections: [VirtualUWBSDeviceID: TCPConnection] = [:]
        var stopped = false
        /// Only the accept thread closes the listener; shutting it down elsewhere happens under
        /// the lock and only while it is open (a closed descriptor number may be reused).
        var listenerOpen = true
    }

    /// Listens on `host:port` and starts accepting connections.
    /// - Parameters:
    ///   - world: the world the connections' devices join.
    ///   - host: an address or name, e.g. `127.0.0.1`, `::1`, `0.0.0.0` (every interface).
    ///   - port: the TCP port; 0 lets the kernel pick (read ``port``).
    ///   - placement: where each connection's device is in the scene (default: decided when it
    ///     first ranges; `.host` serves the scenario's host kit, e.g. to a UCI client over TCP).
    ///   - configuration: every served device's configuration (UCI version, limits).
    ///   - logger: where connections and errors are logged.
    /// - Throws: ``VirtualUWBSError``: `listenFailed` (address in use, unknown host, permission)
    ///   naming what to change; `invalidParameter` for a configuration that does not validate.
    public init(
        world: VirtualUWBSWorld, host: String = "127.0.0.1", port: UInt16 = 7000,
        configuration: VirtualUWBSConfiguration = .default, placement: VirtualUWBSPlacement = .automatic,
        logger: Logger = Logger(label: "nearby.sim.uwbs.tcp")
    ) throws(VirtualUWBSError) {
        try configuration.validate()
        let (fd, boundPort) = try Self.listen(host: host, port: port)
        self.world = world
        self.configuration = configuration
        self.placement = placement
        self.host = host
        self.port = boundPort
        self.listener = fd
        self.logger = logger
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "nearby-sim-accept"
        thread.start()
    }

    deinit {
        shutDownListener()
    }

    private func shutDownListener() {
        state.withLock { state in
            if state.listenerOpen { shutdown(listener, Int32(SHUT_RDWR)) }
        }
    }

    /// `"127.0.0.1:7000"` or `"[::1]:7000"`.
    public var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The devices of the open connections.
    public var connectedDevices: [VirtualUWBSDeviceID] { state.withLock { $0.connections.keys.sorted() } }

    /// Closes every open connection and detaches its device (the hosts see the server hang
    /// up, as after an unplug); new connections are still accepted.
    public func dropConnections() async {
        let connections = state.withLock { Array($0.connections.values) }
        for connection in connections {
            await world.detach(connection.id, reason: "the server dropped the connection (like an unplug)", hangUp: true)
        }
    }

    /// Stops listening, detaches every connection's device and closes the connection.
    /// Idempotent.
    public func stop() async {
        let connections = state.withLock { state -> [TCPConnection] in
            guard !state.stopped else { return [] }
            state.stopped = true
            return Array(state.connections.values)
        }
        shutDownListener()
        for connection in connections {
            await world.detach(connection.id, reason: "the server stopped", hangUp: true)
        }
    }

    private static func listen(host: String, port: UInt16) throws(VirtualUWBSError) -> (Int32, UInt16) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else {
            throw VirtualUWBSError(
                .listenFailed, "cannot listen on \(host):\(port): cannot resolve \"\(host)\" (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(result) }
        let info = first.pointee
        let fd = socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
        guard fd >= 0 else {
            throw VirtualUWBSError(.listenFailed, "cannot listen on \(host):\(port): socket: \(String(cString: strerror(errno)))")
        }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, info.ai_addr, info.ai_addrlen) == 0, Glibc.listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            let reason: String
            switch code {
            case EADDRINUSE:
                reason = "the address is in use (another nearby sim uwbs, or pica?); choose another port, or 0 to let the system pick"
            case EACCES: reason = "permission denied (ports below 1024 need privileges); choose a port above 1023"
            case EADDRNOTAVAIL: reason = "\(host) is not an address of this machine; use 127.0.0.1, ::1 or 0.0.0.0"
            default: reason = String(cString: strerror(code))
            }
            throw VirtualUWBSError(.listenFailed, "cannot listen on \(host):\(port): \(reason)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Self.port(of: storage) ?? port)
    }

    private static func port(of storage: sockaddr_storage) -> UInt16? {
        var copy = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) } }
        case AF_INET6:
            return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) } }
        default:
            return nil
        }
    }

    private static func describe(_ storage: sockaddr_storage) -> String {
        var copy = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let port = Self.port(of: storage) ?? 0
        switch Int32(storage.ss_family) {
        case AF_INET:
            withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var sinAddress = address.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &sinAddress, &buffer, socklen_t(buffer.count))
                }
            }
            return "\(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)):\(port)"
        case AF_INET6:
            withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var sinAddress = address.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &sinAddress, &buffer, socklen_t(buffer.count))
                }
            }
            return "[\(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))]:\(port)"
        default:
            return "unknown address"
        }
    }

    private func acceptLoop() {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                state.withLock { state in
                    state.listenerOpen = false
                    close(listener)
                }
                return
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let id = world.allocateID()
            let connection = TCPConnection(fd: fd, id: id, peer: Self.describe(storage), logger: logger)
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.connections[id] = connection
                return true
            }
            guard accepted else {
                connection.hangUp(reason: "the server stopped")
                connection.closeWhenIdle()
                continue
            }
            Task { await serve(connection) }
        }
    }

    private func serve(_ connection: TCPConnection) async {
        let inbox: VirtualUWBSInbox
        do {
            inbox = try await world.attach(
                connection.id, name: "tcp \(connection.peer)", configuration: configuration, placement: placement,
                output: connection.output)
        } catch {
            logger.error("cannot attach a virtual UWBS for \(connection.peer): \(error)")
            forget(connection)
            connection.hangUp(reason: "\(error)")
            connection.closeWhenIdle()
            return
        }
        let world = self.world
        connection.startReading(into: inbox) { [weak self] reason in
            Task {
                await world.detach(connection.id, reason: reason, hangUp: false)
                self?.forget(connection)
            }
        }
    }

    private func forget(_ connection: TCPConnection) {
        _ = state.withLock { $0.connections.removeValue(forKey: connection.id) }
    }
}

/// One TCP connection: a reader thread framing typed packets into the device's inbox, and a serial
/// queue writing the device's packets out.
final class TCPConnection: Sendable {
    let fd: Int32
    let id: VirtualUWBSDeviceID
    let peer: String
    private let logger: Logger
    private let writer: DispatchQueue
    private let closed = Atomic<Bool>(false)
    private let pendingWrites = Atomic<Int>(0)
    private struct Descriptor {
        var open = true
        /// Why this side closed the connection, if it did.
        var closeReason: String?
    }
    /// The descriptor is shut down and closed under this lock only, so a shutdown never hits a
    /// reused descriptor number.
    private let descriptor = Mutex(Descriptor())
    /// Packets queued for a host that does not read before the connection is dropped.
    static let maximumPendingWrites = 20_000

    init(fd: Int32, id: VirtualUWBSDeviceID, peer: String, logger: Logger) {
        self.fd = fd
        self.id = id
        self.peer = peer
        self.logger = logger
        self.writer = DispatchQueue(label: "nearby-sim-tcp-\(id.rawValue)")
    }

    var output: VirtualUWBSOutput {
        // Untimed: the host stamps what it reads from the socket with its read time.
        VirtualUWBSOutput(deliver: { [self] packet, _ in write(packet) }, timed: false, hangUp: { [self] reason in hangUp(reason: reason) })
    }

    private func write(_ packet: UCIPacket) {
        guard !closed.load(ordering: .acquiring) else { return }
        if pendingWrites.add(1, ordering: .relaxed).newValue > Self.maximumPendingWrites {
            logger.warning("\(peer) does not read its packets; closing the connection")
            hangUp(reason: "the host did not read \(Self.maximumPendingWrites) packets")
            return
        }
        let bytes = packet.bytes
        writer.async { [self] in
            defer { _ = pendingWrites.subtract(1, ordering: .relaxed) }
            guard !closed.load(ordering: .acquiring) else { return }
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes {
                    send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                }
                if count > 0 {
                    offset += count
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    hangUp(reason: "writing failed: \(String(cString: strerror(errno)))")
                    return
                }
            }
        }
    }

    /// Shuts the socket down: the reader sees the end and detaches the device with `reason`.
    func hangUp(reason: String) {
        descriptor.withLock { descriptor in
            guard descriptor.open else { return }
            if descriptor.closeReason == nil { descriptor.closeReason = reason }
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    /// Closes the descriptor once queued writes are done.
    func closeWhenIdle() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        writer.async { [self] in
            descriptor.withLock { descriptor in
                guard descriptor.open else { return }
                descriptor.open = false
                close(fd)
            }
        }
    }

    func startReading(into inbox: VirtualUWBSInbox, onEnd: @escaping @Sendable (String) -> Void) {
        let thread = Thread { [self] in
            let reason = readLoop(into: inbox)
            inbox.finish()
            closeWhenIdle()
            onEnd(reason)
        }
        thread.name = "nearby-sim-tcp-\(id.rawValue)"
        thread.start()
    }

    private func readLoop(into inbox: VirtualUWBSInbox) -> String {
        var framer = UCIPacketFramer()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                framer.append(buffer[0..<count])
                while let packet = framer.nextPacket() {
                    guard inbox.push(packet) else { return "the virtual UWBS was detached" }
                }
                continue
            }
            if count < 0, errno == EINTR { continue }
            if let reason = descriptor.withLock({ $0.closeReason }) { return reason }
            var reason = count == 0 ? "the host closed the connection" : "connection error: \(String(cString: strerror(errno)))"
            if framer.bufferedByteCount > 0 {
                reason += " (\(framer.bufferedByteCount) byte(s) of an incomplete packet were dropped)"
            }
            return reason
        }
    }
}
