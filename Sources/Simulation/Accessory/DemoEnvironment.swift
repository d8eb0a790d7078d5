public import Logging
public import LowEnergy
public import NIProtocol
public import UWBDevice

/// The whole NI flow in one process, with no radio: a ``VirtualUWBSWorld`` running a scenario,
/// a host dev kit placed as the scenario's host, and `N` ``VirtualNIAccessory`` each on its own
/// dev kit placed as scenario accessory `i`, talking to the host over an in-memory data channel.
/// Used by `nearby demo` and by the session tests.
///
/// ```swift
/// let demo = try DemoEnvironment(scenario: .demo, accessories: 2, clock: .realTime(speed: 4))
/// try await demo.start()                       // the accessories open their dev kits
/// let client = UCIClient(transport: demo.hostTransport)
/// try await client.open()
/// let manager = NearbySessionManager(client: client)
/// for accessory in demo.accessories { try await manager.add(accessory.identity, channel: accessory.hostChannel) }
/// ```
public final class DemoEnvironment: Sendable {
    /// One virtual accessory and the host's end of its data channel.
    public struct Accessory: Sendable {
        /// Its index in the scenario (0-based).
        public let index: Int
        /// How the host names it: `sim-1`, `sim-2`, ...
        public let identity: AccessoryIdentity
        /// The host's end of the data channel (pass it to the session).
        public let hostChannel: InMemoryDataChannel
        /// The accessory's end of the data channel.
        public let accessoryChannel: InMemoryDataChannel
        /// The accessory.
        public let accessory: VirtualNIAccessory
        /// Its dev kit in the world.
        public let transport: VirtualUWBSTransport
    }

    /// The simulated world.
    public let world: VirtualUWBSWorld
    /// The host's dev kit (placed as the scenario's host): give it to the host's `UCIClient`.
    public let hostTransport: VirtualUWBSTransport
    /// The accessories, in scenario order.
    public let accessories: [Accessory]

    /// Builds the world and the accessories (nothing runs until ``start()``).
    /// - Parameters:
    ///   - scenario: the motion scenario.
    ///   - count: how many virtual accessories (1-8).
    ///   - noise: the radio noise model.
    ///   - seed: the seed of the noise and random walks.
    ///   - clock: real time at a speed (the CLI) or manual.
    ///   - uwbs: the configuration of every virtual dev kit (UCI version, session limit, ...).
    ///   - hostUWBS: the host dev kit's configuration, `nil` for `uwbs`.
    ///   - accessory: the configuration of accessory `i`; by default address `0x0A01 + i`.
    ///   - logger: the accessories' logger.
    /// - Throws: ``VirtualUWBSError`` for an invalid world (noise, speed) or accessory count.
    public init(
        scenario: Scenario, accessories count: Int = 1, noise: NoiseModel = .default, seed: UInt64 = 1,
        clock: SimulationClock = .realTime, uwbs: VirtualUWBSConfiguration = .default, hostUWBS: VirtualUWBSConfiguration? = nil,
        accessory: @Sendable (Int) -> VirtualNIAccessoryConfiguration = { VirtualNIAccessoryConfiguration(address: 0x0A01 + UInt16($0)) },
        logger: Logger = Logger(label: "nearby.sim.accessory")
    ) throws(VirtualUWBSError) {
        guard (1...8).contains(count) else {
            throw VirtualUWBSError(.invalidParameter, "the demo runs 1 to 8 accessories, not \(count)")
        }
        // The scenario starts once every accessory ranges (or 10 s after the first did), so each
        // sees all of it however long its NI setup took.
        let world = try VirtualUWBSWorld(
            scenario: scenario, noise: noise, seed: seed, clock: clock, scenarioStart: .pairedSessions(count, maximumWait: 10),
            logger: logger)
        self.world = world
        hostTransport = world.makeTransport(configuration: hostUWBS ?? uwbs, placement: .host, name: "sim host")
        accessories = (0..<count).map { index in
            let (host, side) = InMemoryDataChannel.makePair()
            let transport = world.makeTransport(configuration: uwbs, placement: .accessory(index), name: "sim accessory \(index + 1)")
            return Accessory(
                index: index, identity: AccessoryIdentity(id: "sim-\(index + 1)", displayName: "sim-\(index + 1)"),
                hostChannel: host, accessoryChannel: side,
                accessory: VirtualNIAccessory(configuration: accessory(index), channel: side, transport: transport, logger: logger),
                transport: transport)
        }
    }

    /// The scenario.
    public var scenario: Scenario { world.scenario }

    /// How long the scenario lasts with these accessories, seconds of scenario time.
    public var duration: Double { world.scenario.duration(accessories: accessories.count) }

    /// Starts every accessory (each opens its dev kit).
    /// - Throws: the first accessory's dev-kit error.
    public func start() async throws(UCIClientError) {
        for accessory in accessories { try await accessory.accessory.start() }
    }

    /// The true distance, metres, from the host to accessory `index` at scenario time `time`,
    /// `nil` before both have a place.
    public func truthDistance(accessory index: Int, at time: Double) async -> Double? {
        guard accessories.indices.contains(index) else { return nil }
        return try? await world.truth(from: hostTransport.deviceID, to: accessories[index].transport.deviceID, at: time).distance
    }

    /// Stops the accessories and the world.
    public func shutdown() async {
        for accessory in accessories { await accessory.accessory.shutdown() }
        await world.shutdown()
    }
}
