import Foundation
public import Logging
import LowEnergy
import NearbyBase
public import NIProtocol
public import NearbyInteraction
public import Positioning
public import Simulation
public import UWBDevice

/// Every host of a house in one simulated scene (`nearby demo --house FILE`; specs/house.md,
/// "Simulated houses"): each host its own virtual kit at its place and heading
/// (`HouseHost`) and its own sessions; each accessory a person walking through the rooms
/// (``HouseWalk``) with, for every host, a virtual NI accessory on a kit of its own carried
/// along (a real tag ranges with one host per session). Feed each ``Host/manager``'s events to
/// that host's run; the accessories are named `sim-1`, `sim-2`, ... on every host.
public final class HouseDemo: Sendable {
    /// One host of the house.
    public struct Host: Sendable {
        /// Its name (as in the plan).
        public let name: String
        /// Its place.
        public let host: HouseHost
        /// Its UCI client (open).
        public let client: UCIClient
        /// Its sessions.
        public let manager: NearbySessionManager
        /// The host's end of each accessory's data channel, in accessory order.
        let channels: [InMemoryDataChannel]
    }

    /// The house.
    public let plan: HousePlan
    /// The simulated world.
    public let world: VirtualUWBSWorld
    /// The hosts, in plan order.
    public let hosts: [Host]
    /// Each accessory's walk.
    public let walks: [HouseWalk]
    /// The accessories, as every host names them.
    public let accessories: [AccessoryIdentity]
    /// Simulated seconds per real second.
    public let speed: Double
    private let devices: [VirtualNIAccessory]

    private init(
        plan: HousePlan, world: VirtualUWBSWorld, hosts: [Host], walks: [HouseWalk], accessories: [AccessoryIdentity], speed: Double,
        devices: [VirtualNIAccessory]
    ) {
        self.plan = plan
        self.world = world
        self.hosts = hosts
        self.walks = walks
        self.accessories = accessories
        self.speed = speed
        self.devices = devices
    }

    /// The scene device of host `name`.
    public static func sceneDevice(host name: String) -> SceneDeviceID { SceneDeviceID("host-\(name)") }
    /// The scene device of accessory `index` (0-based).
    public static func sceneDevice(accessory index: Int) -> SceneDeviceID { SceneDeviceID("walker-\(index + 1)") }

    /// Builds the world, opens every host's kit and every accessory's.
    /// - Parameters:
    ///   - plan: the house (at least one host and one room).
    ///   - count: how many people walk (1-8).
    ///   - seed: noise and walks.
    ///   - speed: simulated seconds per real second.
    ///   - walkDuration: seconds each walk lasts before the accessory leaves.
    ///   - settings: the runs' settings; set `AccessorySessionConfiguration.timeEpoch`
    ///     to the runs' start so every host's times agree at any speed.
    ///   - options: the accessories' ranging interval.
    ///   - tagHeight: the height the accessories are carried at, metres.
    ///   - logger: where the simulated hosts log.
    /// - Throws: ``DemoRangingError`` when the simulator does not start or the house cannot be walked.
    public static func start(
        plan: HousePlan, accessories count: Int, seed: UInt64, speed: Double, walkDuration: Double = 90, settings: RunSettings,
        options: DemoOptions = DemoOptions(), tagHeight: Double = 1.0, logger: Logger = Logger(label: "nearby")
    ) async throws(DemoRangingError) -> HouseDemo {
        guard (1...8).contains(count) else { throw DemoRangingError(description: "the house demo walks 1 to 8 accessories, not \(count)") }
        guard !plan.hosts.isEmpty else { throw DemoRangingError(description: "the house has no [[house.host]]") }
        let walks: [HouseWalk]
        do {
            walks = try (0..<count).map { index throws(HousePlanError) in
                try HouseWalk(plan: plan, index: index, seed: seed, duration: walkDuration, height: tagHeight)
            }
        } catch {
            throw DemoRangingError(description: "cannot walk the house: \(error)")
        }
        let world: VirtualUWBSWorld
        do {
            world = try VirtualUWBSWorld(
                scenario: .stand, seed: seed, clock: .realTime(speed: speed),
                scenarioStart: .pairedSessions(plan.hosts.count * count, maximumWait: 15), logger: logger)
        } catch {
            throw DemoRangingError(description: "the simulator did not start: \(error)")
        }
        let order = settings.session.planning.keyByteOrder
        var kit = VirtualUWBSConfiguration.default
        kit.maximumSessions = max(kit.maximumSessions, count)
        var hosts: [Host] = []
        var devices: [VirtualNIAccessory] = []
        let identities = (0..<count).map { AccessoryIdentity(id: "sim-\($0 + 1)", displayName: "sim-\($0 + 1)") }
        for (hostIndex, house) in plan.hosts.enumerated() {
            let placement = VirtualUWBSPlacement.custom(
                sceneDevice(host: house.name),
                .stationary(at: SceneVector(x: house.position.x, y: house.position.y, z: house.height), yaw: house.heading ?? 0))
            let transport = world.makeTransport(configuration: kit, placement: placement, name: "sim \(house.name)")
            var channels: [InMemoryDataChannel] = []
            for index in 0..<count {
                let (hostEnd, accessoryEnd) = InMemoryDataChannel.makePair()
                let accessoryKit = world.makeTransport(
                    placement: .custom(sceneDevice(accessory: index), walks[index].trajectory), name: "sim-\(index + 1) for \(house.name)")
                let address = 0x0A01 + UInt16(hostIndex) * 0x20 + UInt16(index)
                devices.append(
                    VirtualNIAccessory(
                        configuration: options.accessory(address: address, keyByteOrder: order), channel: accessoryEnd, transport: accessoryKit,
                        logger: logger))
                channels.append(hostEnd)
            }
            let client = UCIClient(transport: transport, logger: logger)
            hosts.append(
                Host(
                    name: house.name, host: house, client: client,
                    manager: NearbySessionManager(client: client, configuration: settings.session, logger: logger), channels: channels))
        }
        let demo = HouseDemo(plan: plan, world: world, hosts: hosts, walks: walks, accessories: identities, speed: speed, devices: devices)
        do {
            for device in devices { try await device.start() }
            for host in hosts { try await host.client.open() }
        } catch {
            await demo.close()
            throw DemoRangingError(description: "the simulator did not start: \(error)")
        }
        return demo
    }

    /// Starts every host's session with every accessory; failures go to `report`.
    public func startSessions(report: (String) -> Void) async {
        for host in hosts {
            for (identity, channel) in zip(accessories, host.channels) {
                do {
                    try await host.manager.add(identity, channel: channel)
                } catch {
                    report("error: \(host.name): \(error)")
                }
            }
        }
    }

    /// Seconds of scene time the demo lasts: every walk, the leaving and `afterwards` more.
    public func duration(afterwards: Double) -> Double { (walks.map(\.leaveTime).max() ?? 0) + afterwards }

    /// The scene's time now, `nil` before it started (every session ranging, or 15 s after
    /// the first did).
    public func sceneTime() async -> Double? {
        let now = await world.now
        return await world.scenarioTime(at: now)
    }

    /// `true` once the scene reached `length` seconds.
    public func isOver(after length: Double) async -> Bool {
        await sceneTime().map { $0 >= length } ?? false
    }

    /// The truth at scene time `time`: per accessory its position and room (`nil` in no
    /// room, `not_home` once gone).
    public func truth(at time: Double) -> [(accessory: AccessoryIdentity, point: PlanePoint?, room: String?)] {
        zip(accessories, walks).map { identity, walk in
            let gone = time >= walk.leaveTime
            return (identity, gone ? nil : walk.point(at: time), walk.room(at: time, plan: plan))
        }
    }

    /// The CSV header of ``writeTruth(to:every:until:)``.
    public static let truthHeader = "t_s,time,accessory,x_m,y_m,room"

    /// Writes the truth every `interval` seconds of scene time to `path` (CSV:
    /// ``truthHeader``; `time` the wall-clock time at which the scene was at `t_s`, on the same
    /// clock as the hosts' `time`; `x_m`, `y_m` empty and room `not_home` once it left; room empty
    /// in no room) until `stop` says so or the scene reaches `length`. Rows are flushed as the scene goes.
    /// - Throws: when the file cannot be written.
    public func writeTruth(to path: String, every interval: Double = 0.1, until length: Double) async throws {
        guard FileManager.default.createFile(atPath: path, contents: Data((Self.truthHeader + "\n").utf8)),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw DemoRangingError(description: "cannot write \(path)") }
        defer { try? handle.close() }
        try handle.seekToEnd()
        var next = 0.0
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(max(20, Int(200 / speed))))
            guard let scene = await sceneTime() else { continue }
            let wall = WallClock.now()
            var text = ""
            while next <= min(scene, length) {
                let time = wall - (scene - next) / speed
                for row in truth(at: next) {
                    let x = row.point.map { DecimalText.fixed($0.x, 3) } ?? ""
                    let y = row.point.map { DecimalText.fixed($0.y, 3) } ?? ""
                    text += "\(DecimalText.fixed(next, 2)),\(DecimalText.fixed(time, 3)),\(row.accessory.id),\(x),\(y),\(row.room ?? "")\n"
                }
                next += interval
            }
            if !text.isEmpty { try handle.write(contentsOf: Data(text.utf8)) }
            if next > length { break }
        }
    }

    /// Stops every session, closes the kits, shuts the world down.
    public func close() async {
        for host in hosts { await host.manager.stop() }
        for host in hosts { await host.client.close() }
        for device in devices { await device.shutdown() }
        await world.shutdown()
    }
}
