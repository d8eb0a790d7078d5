public import Logging
public import NIProtocol
public import NearbyInteraction
public import Simulation
public import UWBDevice

/// The whole flow on the built-in simulator (`nearby demo`): virtual NI accessories on their own
/// virtual dev kits behind in-memory data channels, the host's virtual kit, the real sessions.
/// Feed ``manager``'s events to a ``RangingRun``.
public final class DemoRanging: Sendable {
    /// The simulated world and its accessories.
    public let environment: DemoEnvironment
    /// The host's UCI client (open).
    public let client: UCIClient
    /// The sessions (one per accessory, started).
    public let manager: NearbySessionManager

    /// The accessories, in order.
    public var accessories: [AccessoryIdentity] { environment.accessories.map(\.identity) }
    /// The scenario's length, seconds of scenario time.
    public var duration: Double { environment.duration }

    private init(environment: DemoEnvironment, client: UCIClient, manager: NearbySessionManager) {
        self.environment = environment
        self.client = client
        self.manager = manager
    }

    /// Builds the world, opens the host's kit and starts a session per accessory.
    /// - Parameters:
    ///   - scenario: the motion scenario.
    ///   - accessories: how many (1-8).
    ///   - seed: the noise and random-walk seed.
    ///   - speed: simulated seconds per real second (the settings' time scale should match).
    ///   - settings: the run's settings (dialect, key order, filter, zones, retry).
    /// - Throws: ``DemoRangingError`` when the simulator does not start.
    public static func start(
        scenario: Scenario, accessories: Int, seed: UInt64, speed: Double, settings: RunSettings,
        logger: Logger = Logger(label: "nearby")
    ) async throws(DemoRangingError) -> DemoRanging {
        let order = settings.session.planning.keyByteOrder
        let environment: DemoEnvironment
        do {
            environment = try DemoEnvironment(
                scenario: scenario, accessories: accessories, seed: seed, clock: .realTime(speed: speed),
                accessory: { VirtualNIAccessoryConfiguration(address: 0x0A01 + UInt16($0), keyByteOrder: order) }, logger: logger)
        } catch {
            throw DemoRangingError(description: "the simulator did not start: \(error)")
        }
        let client = UCIClient(transport: environment.hostTransport, logger: logger)
        do {
            try await environment.start()
            try await client.open()
        } catch {
            await environment.shutdown()
            throw DemoRangingError(description: "the simulator did not start: \(error)")
        }
        let manager = NearbySessionManager(client: client, configuration: settings.session, logger: logger)
        let demo = DemoRanging(environment: environment, client: client, manager: manager)
        return demo
    }

    /// Starts a session per accessory; a failure is reported through `report`.
    public func startSessions(report: (String) -> Void) async {
        for accessory in environment.accessories {
            do {
                try await manager.add(accessory.identity, channel: accessory.hostChannel)
            } catch {
                report("error: \(error)")
            }
        }
    }

    /// `true` once the scenario reached `length` seconds (its clock starts at the first ranging
    /// round) or every session ended by itself.
    public func isOver(after length: Double) async -> Bool {
        var allFinal = true
        for session in await manager.allSessions where await !session.state.isFinal { allFinal = false }
        if allFinal { return true }
        let now = await environment.world.now
        return await environment.world.scenarioTime(at: now).map { $0 >= length } ?? false
    }

    /// Stops the sessions, closes the host's kit, shuts the world down. The manager's events end.
    public func close() async {
        await manager.stop()
        await client.close()
        await environment.shutdown()
    }
}

/// The simulator could not start.
public struct DemoRangingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public var description: String
}
