public import Logging
import LowEnergy
import NearbySupport
public import NIProtocol
public import NearbyInteraction
public import Simulation
public import UWBDevice

/// The accessory role on the built-in simulator (`nearby demo --role accessory`): this host's
/// accessory role on a virtual kit standing at the scenario's host position, and `N` phones
/// (our own phone role, each on its own virtual kit moving as scenario accessory `i`) talking
/// to it over in-memory data channels. Feed ``manager``'s events (the accessory's view: one
/// "accessory" per phone) to a ``RangingRun``.
public final class AccessoryRoleDemo: Sendable {
    /// The simulated world.
    public let world: VirtualUWBSWorld
    /// The accessory's kit (open).
    public let kit: UCIClient
    /// The accessory role: the run's events.
    public let manager: AccessoryRoleManager
    /// The phones: their identities as the accessory names them, in order.
    public let phones: [AccessoryIdentity]
    private let phoneKits: [UCIClient]
    private let phoneManagers: [NearbySessionManager]
    private let links: [(phone: InMemoryDataChannel, accessory: InMemoryDataChannel)]
    private let drains: [Task<Void, Never>]

    /// The scenario's length with these phones, seconds of scenario time.
    public var duration: Double { world.scenario.duration(accessories: phones.count) }

    private init(world: VirtualUWBSWorld, kit: UCIClient, manager: AccessoryRoleManager, phones: [AccessoryIdentity], phoneKits: [UCIClient],
                 phoneManagers: [NearbySessionManager], links: [(phone: InMemoryDataChannel, accessory: InMemoryDataChannel)]) {
        self.world = world
        self.kit = kit
        self.manager = manager
        self.phones = phones
        self.phoneKits = phoneKits
        self.phoneManagers = phoneManagers
        self.links = links
        // The phones' own events are not shown; they are read so their queues stay empty.
        drains = phoneManagers.map { manager in Task { for await _ in manager.events {} } }
    }

    /// Builds the world, opens every kit.
    /// - Parameters:
    ///   - phones: how many phones (1-8).
    ///   - speed: simulated seconds per real second (the settings' time scale should match).
    ///   - settings: the pipeline, zones, hooks; the phones' NI dialect and key order.
    /// - Throws: ``DemoRangingError`` when the simulator does not start.
    public static func start(
        scenario: Scenario, phones count: Int, seed: UInt64, speed: Double, settings: RunSettings,
        logger: Logger = Logger(label: "nearby")
    ) async throws(DemoRangingError) -> AccessoryRoleDemo {
        guard (1...8).contains(count) else { throw DemoRangingError(description: "the demo runs 1 to 8 phones, not \(count)") }
        let world: VirtualUWBSWorld
        do {
            world = try VirtualUWBSWorld(scenario: scenario, seed: seed, clock: .realTime(speed: speed), logger: logger)
        } catch {
            throw DemoRangingError(description: "the simulator did not start: \(error)")
        }
        let kit = UCIClient(transport: world.makeTransport(placement: .host, name: "sim accessory kit"), logger: logger)
        var phoneKits: [UCIClient] = []
        do {
            let info = try await kit.open()
            let profile = AccessoryRoleProfile(deviceInfo: info, address: 0x0A0A, keyByteOrder: settings.session.planning.keyByteOrder)
            let manager = AccessoryRoleManager(
                client: kit, configuration: AccessoryRoleConfiguration(profile: profile, ranging: settings.session), logger: logger)
            var managers: [NearbySessionManager] = []
            var links: [(phone: InMemoryDataChannel, accessory: InMemoryDataChannel)] = []
            for index in 0..<count {
                let phoneKit = UCIClient(transport: world.makeTransport(placement: .accessory(index), name: "sim phone \(index + 1)"), logger: logger)
                phoneKits.append(phoneKit)
                try await phoneKit.open()
                managers.append(NearbySessionManager(client: phoneKit, configuration: settings.session, logger: logger))
                links.append(InMemoryDataChannel.makePair())
            }
            let phones = (0..<count).map { AccessoryIdentity(id: "phone-\($0 + 1)") }
            return AccessoryRoleDemo(world: world, kit: kit, manager: manager, phones: phones, phoneKits: phoneKits,
                                     phoneManagers: managers, links: links)
        } catch {
            for phoneKit in phoneKits { await phoneKit.close() }
            await kit.close()
            await world.shutdown()
            throw DemoRangingError(description: "the simulator did not start: \(error)")
        }
    }

    /// Connects every phone: the accessory gets a session per phone, each phone starts its NI
    /// session with the accessory (initialize, configuration, ranging). A failure is reported
    /// through `report`.
    public func startSessions(report: (String) -> Void) async {
        for (index, link) in links.enumerated() {
            do {
                try await manager.add(phones[index], channel: link.accessory)
                try await phoneManagers[index].add(AccessoryIdentity(id: "accessory"), channel: link.phone)
            } catch {
                report("error: \(error)")
            }
        }
    }

    /// `true` once the scenario reached `length` seconds (its clock starts at the first ranging
    /// round) or every phone's session ended.
    public func isOver(after length: Double) async -> Bool {
        var allFinal = true
        for session in await manager.allSessions where await !session.state.isFinal { allFinal = false }
        if allFinal, !(await manager.allSessions.isEmpty) { return true }
        let now = await world.now
        return await world.scenarioTime(at: now).map { $0 >= length } ?? false
    }

    /// Stops the phones (0x0C to the accessory), the accessory role, every kit and the world.
    /// The manager's events end.
    public func close() async {
        for manager in phoneManagers { await manager.stop() }
        for drain in drains { drain.cancel() }
        await manager.stop()
        for phoneKit in phoneKits { await phoneKit.close() }
        await kit.close()
        await world.shutdown()
    }
}
