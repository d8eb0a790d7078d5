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

    /// The server of the host's kit (``DemoOptions/serve``), if any.
    public let server: VirtualUWBSServer?

    private init(environment: DemoEnvironment, client: UCIClient, manager: NearbySessionManager, server: VirtualUWBSServer?) {
        self.environment = environment
        self.client = client
        self.manager = manager
        self.server = server
    }

    /// Builds the world, opens the host's kit and starts a session per accessory.
    /// - Parameters:
    ///   - scenario: the motion scenario.
    ///   - accessories: how many (1-8).
    ///   - seed: the noise and random-walk seed.
    ///   - speed: simulated seconds per real second (the settings' time scale should match).
    ///   - settings: the run's settings (dialect, key order, filter, zones, retry).
    ///   - options: the ranging interval, how the host reaches its kit, the UCI capture.
    ///   - logger: where the host and the accessories log.
    /// - Throws: ``DemoRangingError`` when the simulator does not start.
    public static func start(
        scenario: Scenario, accessories: Int, seed: UInt64, speed: Double, settings: RunSettings,
        options: DemoOptions = DemoOptions(), logger: Logger = Logger(label: "nearby")
    ) async throws(DemoRangingError) -> DemoRanging {
        let order = settings.session.planning.keyByteOrder
        // The host's kit runs one session per accessory (the default virtual kit stops at 5).
        var hostKit = VirtualUWBSConfiguration.default
        hostKit.maximumSessions = max(hostKit.maximumSessions, accessories)
        let environment: DemoEnvironment
        do {
            environment = try DemoEnvironment(
                scenario: scenario, accessories: accessories, seed: seed, clock: .realTime(speed: speed), hostUWBS: hostKit,
                accessory: { options.accessory(address: 0x0A01 + UInt16($0), accessories: accessories, keyByteOrder: order) }, logger: logger)
        } catch {
            throw DemoRangingError(description: "the simulator did not start: \(error)")
        }
        var server: VirtualUWBSServer?
        if let (host, port) = options.serve {
            do {
                server = try VirtualUWBSServer(
                    world: environment.world, host: host, port: port, configuration: hostKit, placement: .host, logger: logger)
            } catch {
                await environment.shutdown()
                throw DemoRangingError(description: "cannot serve the host's kit: \(error)")
            }
        }
        let kit: any UCITransport = options.hostKit?.makeTransport(logger: logger) ?? environment.hostTransport
        let client = UCIClient(transport: options.uciCapture.map { kit.capturing(to: $0) } ?? kit, logger: logger)
        do {
            try await environment.start()
            try await client.open()
        } catch {
            await server?.stop()
            await environment.shutdown()
            throw DemoRangingError(description: "the simulator did not start: \(error)")
        }
        let manager = NearbySessionManager(client: client, configuration: settings.session, logger: logger)
        return DemoRanging(environment: environment, client: client, manager: manager, server: server)
    }

    /// Makes the served kit fail (CORE_DEVICE_STATUS_NTF(ERROR)): a fault for tests under load.
    public func failServedKit() async {
        for id in server?.connectedDevices ?? [] { try? await environment.world.inject(.deviceError, into: id) }
    }

    /// Closes the served kit's connection, as an unplug would.
    public func dropServedKit() async {
        await server?.dropConnections()
    }

    /// What the world's kits sent their hosts (the host's kit first counts for load tests).
    public func kitTraffic() async -> VirtualUWBSTraffic {
        let traffic = await environment.world.trafficByDevice
        let accessoryKits = Set(environment.accessories.map(\.transport.deviceID))
        return traffic.filter { !accessoryKits.contains($0.key) }.values.reduce(into: VirtualUWBSTraffic()) { total, device in
            total.packets += device.packets
            total.sessionInfoNotifications += device.sessionInfoNotifications
            total.measurements += device.measurements
        }
    }

    /// What the host's kit sent, as one JSON line (`nearby demo --kit-stats`): `kit_packets`,
    /// `kit_session_info_ntf`, `kit_measurements` (``kitTraffic()``) and
    /// `host_unrouted_measurements` (measurements for no open session, `UCIClient.unroutedMeasurements`).
    public func kitStatistics() async -> String {
        let traffic = await kitTraffic()
        let unrouted = await client.unroutedMeasurements
        return #"{"kit_packets":\#(traffic.packets),"kit_session_info_ntf":\#(traffic.sessionInfoNotifications),"kit_measurements":\#(traffic.measurements),"host_unrouted_measurements":\#(unrouted)}"#
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
        await server?.stop()
        await environment.shutdown()
    }
}

/// The simulator could not start.
public struct DemoRangingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public var description: String
}
