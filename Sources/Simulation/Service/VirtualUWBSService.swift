/// Virtual UWB subsystems served over TCP in a simulated world, with their event log: the world
/// (scenario, noise, clock), built-in peers, the server, and a task writing the
/// ``VirtualUWBSEventLog``. What `nearby sim uwbs` runs between its flags and its signals.
public final class VirtualUWBSService: Sendable {
    /// What to serve.
    public struct Settings: Sendable {
        /// Address to listen on (see ``VirtualUWBSServer/init(world:host:port:configuration:placement:logger:)``).
        public var host: String
        /// TCP port; 0 lets the system pick (see ``VirtualUWBSService/address``).
        public var port: UInt16
        /// The motion scenario.
        public var scenario: Scenario
        /// The noise model.
        public var noise: NoiseModel
        /// The seed of the noise and of random walks.
        public var seed: UInt64
        /// Simulated seconds per real second (0.01 ... 1000).
        public var speed: Double
        /// Give every ACTIVE session a mirrored peer for each DST address nobody holds.
        public var automaticPeers: Bool
        /// What each connected device is like (UCI version, sessions, channels, ...).
        public var device: VirtualUWBSConfiguration
        /// Built-in peers, ACTIVE from the start.
        public var peers: [VirtualPeer]
        /// Log every UCI packet.
        public var tracing: Bool
        /// Log every ranging round and device state change.
        public var verbose: Bool

        /// Settings; the defaults are those of `nearby sim uwbs`.
        public init(
            host: String = "127.0.0.1", port: UInt16 = 7000, scenario: Scenario = .stand, noise: NoiseModel = .default, seed: UInt64 = 1,
            speed: Double = 1, automaticPeers: Bool = false, device: VirtualUWBSConfiguration = .default, peers: [VirtualPeer] = [],
            tracing: Bool = false, verbose: Bool = false
        ) {
            self.host = host
            self.port = port
            self.scenario = scenario
            self.noise = noise
            self.seed = seed
            self.speed = speed
            self.automaticPeers = automaticPeers
            self.device = device
            self.peers = peers
            self.tracing = tracing
            self.verbose = verbose
        }
    }

    /// The simulated world.
    public let world: VirtualUWBSWorld
    /// The TCP server.
    public let server: VirtualUWBSServer
    private let logging: Task<Void, Never>

    private init(world: VirtualUWBSWorld, server: VirtualUWBSServer, logging: Task<Void, Never>) {
        self.world = world
        self.server = server
        self.logging = logging
    }

    /// Builds the world, starts logging its events to `log` (one line per call, no newline),
    /// adds the built-in peers (a line each: `peer-1: built-in peer, ...`) and starts listening.
    /// - Throws: ``VirtualUWBSError``: settings the world rejects, a peer that cannot be added,
    ///   an address that cannot be bound; nothing keeps running then.
    public static func start(_ settings: Settings, log: @escaping @Sendable (String) -> Void) async throws(VirtualUWBSError) -> VirtualUWBSService {
        let world = try VirtualUWBSWorld(
            scenario: settings.scenario, noise: settings.noise, seed: settings.seed, clock: .realTime(speed: settings.speed),
            automaticPeers: settings.automaticPeers)
        let events = world.events(bufferingNewest: 65_536)
        await world.setTracing(settings.tracing)
        let eventLog = VirtualUWBSEventLog(verbose: settings.verbose, write: log)
        let logging = Task {
            for await event in events { eventLog.log(event) }
        }
        do {
            for peer in settings.peers {
                let id = try await world.addPeer(peer)
                log("\(id): built-in peer, \(peer)")
            }
            let server = try VirtualUWBSServer(world: world, host: settings.host, port: settings.port, configuration: settings.device)
            return VirtualUWBSService(world: world, server: server, logging: logging)
        } catch {
            await world.shutdown()
            throw error
        }
    }

    /// Where the server listens: `127.0.0.1:7000`, `[::1]:7000` (the bound port when 0 was asked).
    public var address: String { server.address }

    /// Makes every connected device fail: CORE_DEVICE_STATUS_NTF(ERROR), as a dev kit in trouble.
    public func failConnectedDevices() async {
        for id in server.connectedDevices {
            try? await world.inject(.deviceError, into: id)
        }
    }

    /// Drops every connection (like an unplug); hosts may connect again.
    public func dropConnections() async {
        await server.dropConnections()
    }

    /// Stops the server and the world and waits until every event is logged.
    public func stop() async {
        await server.stop()
        await world.shutdown()
        await logging.value
    }
}

extension VirtualUWBSServer {
    /// `HOST:PORT` or `[IPv6]:PORT` (`127.0.0.1:7000`, `[::1]:7000`, `localhost:0`); `nil` for
    /// anything else (no port, an unbracketed IPv6 address, an empty host).
    public static func listenAddress(parsing text: String) -> (host: String, port: UInt16)? {
        let host: String
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            guard !host.contains(":") else { return nil }
        }
        guard !host.isEmpty, let port = UInt16(portText) else { return nil }
        return (host, port)
    }
}

extension NoiseModel {
    /// The noise model named `default`, `line-of-sight` (or `los`) or `ideal`, any case; `nil`
    /// for another name.
    public init?(named name: String) {
        switch name.lowercased() {
        case "default": self = .default
        case "line-of-sight", "los": self = .lineOfSight
        case "ideal": self = .ideal
        default: return nil
        }
    }
}
