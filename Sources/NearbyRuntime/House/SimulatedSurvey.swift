public import Logging
import LowEnergy
import NIProtocol
import NearbyInteraction
import NearbySupport
public import Positioning
import Ranging
import Simulation
import Synchronization
import UWBDevice

/// `nearby house survey --simulate`: the survey of `HostSurvey` on the simulator. The hosts
/// of a plan stand at their places (the truth) with their kits turned to their headings; one
/// host at a time plays the accessory (a virtual NI accessory per other host on a kit at its
/// place) and every other host ranges it through the real session for a while; each pair's
/// median range and azimuth (samples with a figure of merit of 40 or more: a kit cannot tell
/// front from back below that) become a `HostSurvey.Range`.
public enum SimulatedSurvey {
    /// Ranges every host from every other one.
    /// - Parameters:
    ///   - plan: the hosts (their positions are the truth the survey should find).
    ///   - seconds: scene seconds each host is ranged.
    ///   - seed: noise.
    ///   - speed: simulated seconds per real second.
    ///   - settings: the sessions' settings.
    ///   - logger: where the simulated runs log.
    ///   - progress: a line per host ranged.
    /// - Returns: one range per ordered pair that ranged.
    /// - Throws: ``DemoRangingError`` when the simulator does not start.
    public static func ranges(
        plan: HousePlan, seconds: Double = 8, seed: UInt64 = 1, speed: Double = 4, settings: RunSettings,
        logger: Logger = Logger(label: "nearby"), progress: (String) -> Void = { _ in }
    ) async throws(DemoRangingError) -> [HostSurvey.Range] {
        let world: VirtualUWBSWorld
        do {
            world = try VirtualUWBSWorld(scenario: .stand, seed: seed, clock: .realTime(speed: speed), scenarioStart: .worldCreation, logger: logger)
        } catch {
            throw DemoRangingError(description: "the simulator did not start: \(error)")
        }
        func place(_ host: HouseHost) -> VirtualUWBSPlacement {
            .custom(
                HouseDemo.sceneDevice(host: host.name),
                .stationary(at: SceneVector(x: host.position.x, y: host.position.y, z: host.height), yaw: host.heading ?? 0))
        }
        var kit = VirtualUWBSConfiguration.default
        kit.maximumSessions = max(kit.maximumSessions, plan.hosts.count)
        let samples = SharedSurveyCollector()
        var clients: [UCIClient] = []
        var managers: [NearbySessionManager] = []
        var readers: [Task<Void, Never>] = []
        for host in plan.hosts {
            let client = UCIClient(transport: world.makeTransport(configuration: kit, placement: place(host), name: "sim \(host.name)"), logger: logger)
            do {
                try await client.open()
            } catch {
                await world.shutdown()
                throw DemoRangingError(description: "the simulator did not start: \(error)")
            }
            let manager = NearbySessionManager(client: client, configuration: settings.session, logger: logger)
            clients.append(client)
            managers.append(manager)
            let observer = host.name
            readers.append(
                Task {
                    for await event in manager.events {
                        guard case .update(let update) = event.kind, let target = event.accessory?.id else { continue }
                        let sample = update.sample
                        samples.add(
                            observer: observer, target: target, distance: sample.usableDistance, azimuth: sample.usableAzimuth,
                            figureOfMerit: sample.figureOfMerit.map(Int.init))
                    }
                })
        }
        let order = settings.session.planning.keyByteOrder
        for (targetIndex, target) in plan.hosts.enumerated() {
            progress("survey: \(target.name) plays the accessory; \(plan.hosts.filter { $0.name != target.name }.map(\.name).joined(separator: ", ")) range it")
            var devices: [VirtualNIAccessory] = []
            for (observerIndex, _) in plan.hosts.enumerated() where observerIndex != targetIndex {
                let (hostEnd, accessoryEnd) = InMemoryDataChannel.makePair()
                let transport = world.makeTransport(placement: place(target), name: "sim \(target.name) as accessory")
                let device = VirtualNIAccessory(
                    configuration: DemoOptions().accessory(address: 0x0B01 + UInt16(targetIndex) * 0x20 + UInt16(observerIndex), keyByteOrder: order),
                    channel: accessoryEnd, transport: transport, logger: logger)
                do {
                    try await device.start()
                    try await managers[observerIndex].add(AccessoryIdentity(id: target.name, displayName: target.name), channel: hostEnd)
                } catch {
                    progress("survey: \(plan.hosts[observerIndex].name) could not range \(target.name): \(error)")
                }
                devices.append(device)
            }
            // Range for `seconds` of scene time once samples come.
            let start = await world.now
            while await world.now - start < seconds + 2 { try? await Task.sleep(for: .milliseconds(50)) }
            for (observerIndex, _) in plan.hosts.enumerated() where observerIndex != targetIndex {
                await managers[observerIndex].remove(target.name)
            }
            for device in devices { await device.shutdown() }
        }
        for manager in managers { await manager.stop() }
        for reader in readers { await reader.value }
        for client in clients { await client.close() }
        await world.shutdown()
        return samples.ranges
    }
}

/// A `SurveyCollector` that several tasks feed.
public final class SharedSurveyCollector: Sendable {
    private let collector = Mutex(SurveyCollector())

    /// An empty collection.
    public init() {}

    /// One sample (see `SurveyCollector.add(observer:target:distance:azimuth:figureOfMerit:)`).
    public func add(observer: String, target: String, distance: Double?, azimuth: Double?, figureOfMerit: Int?) {
        collector.withLock { $0.add(observer: observer, target: target, distance: distance, azimuth: azimuth, figureOfMerit: figureOfMerit) }
    }

    /// The ranges so far.
    public var ranges: [HostSurvey.Range] { collector.withLock { $0.ranges } }
}
