public import Logging
import LowEnergy
import NearbyBase
import Synchronization
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
///
/// The accessory's kit has one radio (specs/virtual-uwbs.md §3): each phone is a controller on
/// its own timetable, and a phone's round that comes while another phone's round holds the
/// radio is lost. The phones start at random moments (seeded), as people do; ``roundShares()``
/// says what share of each phone's rounds failed and how many the busy radio cost. With
/// `hopping` the accessory asks for FiRa ranging round hopping (UWB config data 2.0) and the
/// phones hop, so collisions spread over every phone instead of starving one.
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
    private let tally: RoundTally
    private let tallyTask: Task<Void, Never>
    private let startDelays: [Double]
    private let speed: Double

    /// The scenario's length with these phones, seconds of scenario time.
    public var duration: Double { world.scenario.duration(accessories: phones.count) }

    private init(world: VirtualUWBSWorld, kit: UCIClient, kitDevice: VirtualUWBSDeviceID, manager: AccessoryRoleManager,
                 phones: [AccessoryIdentity], phoneKits: [UCIClient], phoneManagers: [NearbySessionManager],
                 links: [(phone: InMemoryDataChannel, accessory: InMemoryDataChannel)], startDelays: [Double], speed: Double) {
        self.world = world
        self.kit = kit
        self.manager = manager
        self.phones = phones
        self.phoneKits = phoneKits
        self.phoneManagers = phoneManagers
        self.links = links
        self.startDelays = startDelays
        self.speed = speed
        let tally = RoundTally(device: kitDevice)
        self.tally = tally
        let events = world.events(bufferingNewest: 65536)
        tallyTask = Task { for await event in events { tally.count(event) } }
        // The phones' own events are not shown; they are read so their queues stay empty.
        drains = phoneManagers.map { manager in Task { for await _ in manager.events {} } }
    }

    /// Builds the world, opens every kit.
    /// - Parameters:
    ///   - scenario: the motion scenario (the phones are its accessories).
    ///   - count: how many phones (1-8).
    ///   - seed: the noise and random-walk seed.
    ///   - speed: simulated seconds per real second (the settings' time scale should match).
    ///   - settings: the pipeline, zones, hooks; the phones' NI dialect and key order.
    ///   - hopping: the accessory asks the phones for ranging round hopping (UWB config data 2.0).
    ///   - logger: where the accessory and the phones log.
    /// - Throws: ``DemoRangingError`` when the simulator does not start.
    public static func start(
        scenario: Scenario, phones count: Int, seed: UInt64, speed: Double, settings: RunSettings, hopping: Bool = false,
        logger: Logger = Logger(label: "nearby")
    ) async throws(DemoRangingError) -> AccessoryRoleDemo {
        guard (1...8).contains(count) else { throw DemoRangingError(description: "the demo runs 1 to 8 phones, not \(count)") }
        let world: VirtualUWBSWorld
        do {
            world = try VirtualUWBSWorld(scenario: scenario, seed: seed, clock: .realTime(speed: speed), logger: logger)
        } catch {
            throw DemoRangingError(description: "the simulator did not start: \(error)")
        }
        let kitTransport = world.makeTransport(placement: .host, name: "sim accessory kit")
        let kit = UCIClient(transport: kitTransport, logger: logger)
        var phoneKits: [UCIClient] = []
        do {
            let info = try await kit.open()
            var profile = AccessoryRoleProfile(deviceInfo: info, address: 0x0A0A, keyByteOrder: settings.session.planning.keyByteOrder)
            if hopping {
                // UWB config data 2.0 asks for hopping with the timing an iPhone picks itself.
                profile.layout = .v2_0
                profile.requestedParameters = .init(
                    hoppingMode: 1, slotsPerRound: 6, slotDurationRSTU: 3600, rangingIntervalMS: SessionPlanner.automaticIntervalMS)
            }
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
            // Each phone starts at a random moment within a ranging interval of the one before.
            var random = SeededRandom(seed: seed)
            let delays = (0..<count).map { _ in Double(random.next() % 1000) / 1000 * Double(SessionPlanner.automaticIntervalMS) / 1000 }
            return AccessoryRoleDemo(world: world, kit: kit, kitDevice: kitTransport.deviceID, manager: manager, phones: phones,
                                     phoneKits: phoneKits, phoneManagers: managers, links: links, startDelays: delays, speed: speed)
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
            try? await Task.sleep(for: .seconds(startDelays[index] / speed))
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

    /// What share of each phone's rounds failed, as the accessory's kit reported them (every
    /// round of every session the phone started), and how many of those the busy radio cost.
    public func roundShares() async -> [RoundShare] {
        var shares: [RoundShare] = []
        for phone in phones {
            let sessions = await manager.session(for: phone.id)?.startedSessionIDs ?? []
            let counts = tally.counts(sessions: Set(sessions))
            shares.append(RoundShare(phone: phone, rounds: counts.rounds, failed: counts.failed, radioBusy: counts.busy))
        }
        return shares
    }

    /// Stops the phones (0x0C to the accessory), the accessory role, every kit and the world.
    /// The manager's events end.
    public func close() async {
        for manager in phoneManagers { await manager.stop() }
        for drain in drains { drain.cancel() }
        tallyTask.cancel()
        await manager.stop()
        for phoneKit in phoneKits { await phoneKit.close() }
        await kit.close()
        await world.shutdown()
    }
}

/// One phone's rounds in ``AccessoryRoleDemo``: how many the accessory's kit reported, how many
/// failed, how many of those because the radio was busy with another phone's round.
public struct RoundShare: Sendable, Hashable, CustomStringConvertible {
    /// The phone.
    public var phone: AccessoryIdentity
    /// Rounds the accessory's kit reported for the phone.
    public var rounds: Int
    /// Rounds that failed (no valid measurement: radio busy, or a dropout of the scene).
    public var failed: Int
    /// Rounds the phone lost because the radio held another phone's round.
    public var radioBusy: Int

    /// The failed share, 0-1 (0 without rounds).
    public var failedShare: Double { rounds == 0 ? 0 : Double(failed) / Double(rounds) }

    /// `phone-2: 312 rounds, 41 failed (13.1 %), 38 to the busy radio`.
    public var description: String {
        "\(phone.id): \(rounds) rounds, \(failed) failed (\(DecimalText.fixed(failedShare * 100, 1)) %), \(radioBusy) to the busy radio"
    }
}

/// Counts the rounds of one device's sessions from the world's events (thread-safe).
final class RoundTally: Sendable {
    private let device: VirtualUWBSDeviceID
    private let state = Mutex<[UInt32: (rounds: Int, failed: Int, busy: Int)]>([:])

    init(device: VirtualUWBSDeviceID) { self.device = device }

    func count(_ event: VirtualUWBSEvent) {
        switch event {
        case .round(let round) where round.device == device:
            let failed = !(round.measurement?.isValid ?? false)
            state.withLock { counts in
                var entry = counts[round.sessionID] ?? (0, 0, 0)
                entry.rounds += 1
                if failed { entry.failed += 1 }
                counts[round.sessionID] = entry
            }
        case .radioBusy(let id, let sessionID, _, false) where id == device:
            state.withLock { counts in
                var entry = counts[sessionID] ?? (0, 0, 0)
                entry.busy += 1
                counts[sessionID] = entry
            }
        default:
            break
        }
    }

    func counts(sessions: Set<UInt32>) -> (rounds: Int, failed: Int, busy: Int) {
        state.withLock { counts in
            sessions.reduce((0, 0, 0)) { total, id in
                let entry = counts[id] ?? (0, 0, 0)
                return (total.0 + entry.rounds, total.1 + entry.failed, total.2 + entry.busy)
            }
        }
    }
}

/// A small seeded generator (SplitMix64) for the phones' start moments.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
