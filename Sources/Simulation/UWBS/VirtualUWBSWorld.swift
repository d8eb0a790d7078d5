public import Logging
import UCI
import NearbySupport
import Synchronization

/// A simulated space holding virtual UWB subsystems: the shared ``Scene`` (motion and radio
/// noise), the clock, every device, and the ranging scheduler that pairs their sessions.
///
/// Like google/pica, the scene is kept apart from the devices: a device (``VirtualUWBS``) is a
/// UCI state machine, transports (``VirtualUWBSTransport`` in process, ``VirtualUWBSServer`` over
/// TCP, one connection per device) only move packets, and the world runs the rounds.
///
/// **Ranging.** At each ranging interval of an ACTIVE controller session, for each of its DST
/// addresses, the world looks for a device with an ACTIVE session of the same session ID that
/// can range with it (``RangingCompatibility``). If there is one, both get a SESSION_INFO_NTF
/// built from ``Scene/measure(from:to:at:)`` (the controller's distance, each side's own
/// angles, the other side's as destination angles); if not, the controller reports RX_TIMEOUT
/// for that address. A controlee session that no controller reached during an interval reports
/// RX_TIMEOUT for its DST addresses. MAX_RR_RETRY failed rounds in a row stop a session with
/// SESSION_STATUS_NTF(IDLE, reason 0x01).
///
/// **Places.** See ``VirtualUWBSPlacement``: the first controller to range is the scenario's
/// host, other devices its accessories in order of appearance; built-in peers take accessory
/// places in the order they are added. The scenario's clock starts at the first paired round
/// (``ScenarioStart``).
///
/// **Files, one job each.** This file: the world's state and what can be inspected. The device
/// registry (attach, detach, peers): `VirtualUWBSWorld+Devices.swift`. The packet pump (host
/// packets in, reactions out): `VirtualUWBSWorld+Packets.swift`. Fault injection:
/// `VirtualUWBSWorld+Faults.swift` over `VirtualUWBSFaults`. Time and the scheduler:
/// `VirtualUWBSWorld+Scheduler.swift` over `VirtualUWBSTimeline` and `VirtualUWBSScheduler`.
/// Rounds and places: `VirtualUWBSWorld+Ranging.swift`.
///
/// ```swift
/// let world = try VirtualUWBSWorld(scenario: .walkIn, seed: 1)
/// try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0002), peerAddress: .short(0x0001)))
/// let transport = world.makeTransport()       // a UCITransport for a UCI client
/// ```
public actor VirtualUWBSWorld {
    /// The motion scenario.
    public nonisolated let scenario: Scenario
    /// The noise model of every link.
    public nonisolated let noise: NoiseModel
    /// The seed of the scene's random streams and random walks.
    public nonisolated let seed: UInt64
    /// How time passes.
    public nonisolated let clock: SimulationClock
    /// When the scenario's clock starts.
    public nonisolated let scenarioStart: ScenarioStart
    /// `true`: a session that goes ACTIVE with a DST address no device in the world holds gets
    /// a ``VirtualPeer`` mirroring it, so `--device sim` ranges out of the box.
    public nonisolated let automaticPeers: Bool
    nonisolated let logger: Logger
    nonisolated let broadcaster = Broadcaster<VirtualUWBSEvent>(bufferingNewest: 4096)

    // The device registry (VirtualUWBSWorld+Devices.swift).
    nonisolated let idCounter = Atomic<Int>(0)
    var devices: [VirtualUWBSDeviceID: Device] = [:]
    /// `devices`' values in identifier order, kept by attach and detach: the scheduler and the
    /// rounds visit devices in this order (sorting and looking up the keys at every round cost
    /// more than the round).
    var devicesInOrder: [Device] = []
    /// `false` while an attached device's output cannot carry its packets' time (a TCP
    /// connection): the scheduler then runs rounds at most ``untimedBatchWindow`` ahead.
    var outputsTimed = true
    /// ``batchWindow`` (tests set others: a sample's time must not depend on it).
    var timedBatchWindow = VirtualUWBSWorld.batchWindow
    /// Counts attachments, so a pump of an earlier attachment of the same device stops.
    var generation: UInt64 = 0
    var isShutDown = false
    // The scene and the rounds (VirtualUWBSWorld+Ranging.swift).
    var scene: Scene
    var reportedMismatches: Set<String> = []
    /// The exchanges of the round in progress, kept between rounds (see `runRound`).
    var roundExchanges: [RoundExchange] = []
    // Time and the scheduler (VirtualUWBSWorld+Scheduler.swift).
    var timeline: VirtualUWBSTimeline
    var scheduler = VirtualUWBSScheduler()
    // Faults (VirtualUWBSWorld+Faults.swift).
    var faults = VirtualUWBSFaults()
    // The packet pump (VirtualUWBSWorld+Packets.swift).
    var tracing = false
    var traffic: [VirtualUWBSDeviceID: VirtualUWBSTraffic] = [:]

    /// Creates a world.
    /// - Parameters:
    ///   - scenario: the motion scenario (host at the origin, accessories on its trajectories).
    ///   - noise: the noise model of every link.
    ///   - seed: the seed of every random stream (same seed, same devices, same commands: same
    ///     measurements).
    ///   - clock: real time (default) or manual.
    ///   - scenarioStart: when the scenario's clock starts.
    ///   - automaticPeers: mirror a peer for every DST address nobody holds (see
    ///     ``automaticPeers``).
    ///   - logger: where problems (malformed packets, unsupported requests) are logged.
    /// - Throws: ``VirtualUWBSError`` (`invalidParameter`) for a noise model that
    ///   ``NoiseModel/validate()`` rejects or a clock speed outside 0.01 ... 1000.
    public init(
        scenario: Scenario = .stand, noise: NoiseModel = .default, seed: UInt64 = 0, clock: SimulationClock = .realTime,
        scenarioStart: ScenarioStart = .firstRanging, automaticPeers: Bool = false,
        logger: Logger = Logger(label: "nearby.sim.uwbs")
    ) throws(VirtualUWBSError) {
        if case .realTime(let speed) = clock, !(0.01...1000).contains(speed) {
            throw VirtualUWBSError(.invalidParameter, "clock speed \(speed) is out of range, expected 0.01 ... 1000")
        }
        do {
            scene = try Scene(noise: noise, seed: seed)
        } catch {
            throw VirtualUWBSError(.invalidParameter, "noise model: \(error)")
        }
        self.scenario = scenario
        self.noise = noise
        self.seed = seed
        self.clock = clock
        self.scenarioStart = scenarioStart
        self.automaticPeers = automaticPeers
        self.logger = logger
        self.timeline = VirtualUWBSTimeline(clock: clock, scenarioStart: scenarioStart)
    }

    /// The world used by `--device sim` (``UWBDeviceTarget/makeTransport(world:virtualUWBS:configuration:logger:)``):
    /// the `demo` scenario, default noise, seed 1, real time, automatic peers.
    public static let shared: VirtualUWBSWorld = {
        // Constant arguments: speed 1 and the default noise model always validate (the scene
        // tests check NoiseModel.default), so this cannot throw.
        try! VirtualUWBSWorld(scenario: .demo, seed: 1, automaticPeers: true)
    }()

    // MARK: Events and inspection

    /// Every event from now on (buffering the newest `limit` for a slow reader).
    public nonisolated func events(bufferingNewest limit: Int = 4096) -> AsyncStream<VirtualUWBSEvent> {
        broadcaster.subscribe(bufferingNewest: limit)
    }

    /// Turns the ``VirtualUWBSEvent/packet(_:_:_:)`` events (every UCI packet) on or off.
    public func setTracing(_ on: Bool) { tracing = on }

    /// Snapshots of every device, by identifier.
    public var deviceSnapshots: [VirtualUWBSDeviceSnapshot] {
        devices.keys.sorted().compactMap(snapshot)
    }

    /// A snapshot of one device, `nil` if it is not attached.
    public func snapshot(_ id: VirtualUWBSDeviceID) -> VirtualUWBSDeviceSnapshot? {
        guard let device = devices[id] else { return nil }
        return VirtualUWBSDeviceSnapshot(
            id: id, name: device.name, isPeer: device.isPeer, deviceState: device.uwbs.deviceState,
            uciVersion: device.uwbs.version, sessions: device.uwbs.sessionSnapshots, placement: device.placement,
            sceneDevice: device.sceneID, isSilent: faults.isSilent(id))
    }

    /// The true geometry of device `target` seen from device `observer` at scenario time `time`
    /// (both must be placed, i.e. have ranged once or have an explicit placement).
    /// - Throws: ``VirtualUWBSError`` (`unknownDevice`) if either is not attached and placed.
    public func truth(from observer: VirtualUWBSDeviceID, to target: VirtualUWBSDeviceID, at time: Double) throws(VirtualUWBSError)
        -> RelativeGeometry
    {
        let from = try placedSceneID(observer)
        let to = try placedSceneID(target)
        do {
            return try scene.geometry(from: from, to: to, at: time)
        } catch {
            throw VirtualUWBSError(.unknownDevice, "\(error)")
        }
    }

    private func placedSceneID(_ id: VirtualUWBSDeviceID) throws(VirtualUWBSError) -> SceneDeviceID {
        guard devices[id] != nil else { throw unknownDevice(id) }
        if let sceneID = devices[id]?.sceneID { return sceneID }
        if devices[id]?.placement != .automatic { return sceneID(for: id, asController: false) }
        throw VirtualUWBSError(.unknownDevice, "\(id) has no place in the scene yet (it has not ranged)")
    }

    func unknownDevice(_ id: VirtualUWBSDeviceID) -> VirtualUWBSError {
        let known = devices.keys.sorted().map(\.description)
        return VirtualUWBSError(
            .unknownDevice, "no \(id) in the world; attached: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
    }
}
