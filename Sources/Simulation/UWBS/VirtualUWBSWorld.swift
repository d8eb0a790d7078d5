public import Logging
import UCI
import NearbySupport
import Synchronization
import NearbyBase

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
    private nonisolated let idCounter = Atomic<Int>(0)

    struct Device {
        let id: VirtualUWBSDeviceID
        var name: String
        var uwbs: VirtualUWBS
        var output: VirtualUWBSOutput?
        var inbox: VirtualUWBSInbox?
        var pump: Task<Void, Never>?
        var generation: UInt64
        var placement: VirtualUWBSPlacement
        var peerScenario: Scenario?
        var sceneID: SceneDeviceID?
        /// The scenario accessory it was placed as, if any.
        var accessoryIndex: Int?
        var isPeer: Bool
        var isSilent = false
        var slowCommands: (delay: Duration, count: Int)?
        var spawnedBy: (device: VirtualUWBSDeviceID, sessionID: UInt32)?
    }

    var scene: Scene
    var devices: [VirtualUWBSDeviceID: Device] = [:]
    private var generation: UInt64 = 0
    private var manualTime = 0.0
    private let realStart = ContinuousClock.now
    var scenarioEpoch: Double?
    private var schedulerTask: Task<Void, Never>?
    private var sleeper: Task<Void, Never>?
    private var isShutDown = false
    private var unplugged: [VirtualUWBSDeviceID: ContinuousClock.Instant?] = [:]
    var reportedMismatches: Set<String> = []
    private var tracing = false

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
    }

    /// The world used by `--device sim` (``UWBDeviceSpec/makeTransport(world:configuration:logger:)``):
    /// the `demo` scenario, default noise, seed 1, real time, automatic peers.
    public static let shared: VirtualUWBSWorld = {
        // Constant arguments: speed 1 and the default noise model always validate (the scene
        // tests check NoiseModel.default), so this cannot throw.
        try! VirtualUWBSWorld(scenario: .demo, seed: 1, automaticPeers: true)
    }()

    // MARK: Time

    /// World time, seconds since the world was created (or as far as ``advance(by:)`` moved it).
    public var now: Double {
        switch clock {
        case .manual: manualTime
        case .realTime(let speed): realStart.duration(to: .now).inSeconds * speed
        }
    }

    /// Scenario time at world time `time`, `nil` before the scenario started.
    public func scenarioTime(at time: Double) -> Double? {
        switch scenarioStart {
        case .worldCreation: time
        case .firstRanging: scenarioEpoch.map { time - $0 }
        }
    }

    /// Restarts the scenario: its clock is 0 now (with ``ScenarioStart/firstRanging``, at the
    /// next paired round).
    public func restartScenario() {
        scenarioEpoch = scenarioStart == .firstRanging ? nil : now
    }

    /// Manual clock: moves time forward by `seconds`, running every round due on the way, in
    /// order, before returning.
    /// - Throws: ``VirtualUWBSError``: `notManualClock` with a real-time clock,
    ///   `invalidParameter` unless `0 ≤ seconds ≤ 86400`.
    public func advance(by seconds: Double) throws(VirtualUWBSError) {
        guard case .manual = clock else {
            throw VirtualUWBSError(.notManualClock, "advance(by:) needs a world with the manual clock; this one runs in \(clock)")
        }
        guard seconds >= 0, seconds <= 86400 else {
            throw VirtualUWBSError(.invalidParameter, "cannot advance by \(seconds) s, expected 0 ... 86400 s")
        }
        let target = manualTime + seconds
        runDueRounds(upTo: target)
        manualTime = target
    }

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
            sceneDevice: device.sceneID, isSilent: device.isSilent)
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

    // MARK: Devices

    /// A new device identifier (for a transport that attaches later).
    nonisolated func allocateID() -> VirtualUWBSDeviceID {
        VirtualUWBSDeviceID(rawValue: idCounter.add(1, ordering: .relaxed).newValue)
    }

    /// An in-process transport for a new device of this world. Nothing is attached until the
    /// transport is opened; each ``VirtualUWBSTransport/open()`` powers up a fresh UWBS.
    public nonisolated func makeTransport(
        configuration: VirtualUWBSConfiguration = .default, placement: VirtualUWBSPlacement = .automatic, name: String = "sim"
    ) -> VirtualUWBSTransport {
        VirtualUWBSTransport(world: self, id: allocateID(), configuration: configuration, placement: placement, name: name)
    }

    /// Attaches (powers up) a UCI-driven device: it sends CORE_DEVICE_STATUS_NTF(READY) to
    /// `output` and reads packets from the returned inbox.
    /// - Throws: ``VirtualUWBSError``: `shutDown`, `unplugged` while a disconnect fault holds,
    ///   `invalidParameter` for a configuration that does not validate.
    func attach(
        _ id: VirtualUWBSDeviceID, name: String, configuration: VirtualUWBSConfiguration, placement: VirtualUWBSPlacement,
        output: VirtualUWBSOutput
    ) throws(VirtualUWBSError) -> VirtualUWBSInbox {
        guard !isShutDown else { throw VirtualUWBSError(.shutDown, "the virtual UWBS world was shut down") }
        try configuration.validate()
        if !isPresent(id) {
            throw VirtualUWBSError(.unplugged, "\(id) (\(name)) is unplugged (an injected disconnect fault)")
        }
        if devices[id] != nil { detach(id, reason: "reopened", hangUp: true) }
        generation += 1
        let (stream, continuation) = AsyncStream<UCIPacket>.makeStream(bufferingPolicy: .unbounded)
        let inbox = VirtualUWBSInbox(continuation)
        let attachment = generation
        let pump = Task { [weak self] in
            for await packet in stream {
                guard let self else { return }
                await self.pump(packet, from: id, generation: attachment)
            }
        }
        var uwbs = VirtualUWBS(configuration: configuration)
        let power = uwbs.powerOn()
        devices[id] = Device(
            id: id, name: name, uwbs: uwbs, output: output, inbox: inbox, pump: pump, generation: attachment,
            placement: placement, isPeer: false)
        broadcaster.yield(.deviceAttached(id, name: name, isPeer: false))
        handle(power, from: id)
        ensureScheduler()
        return inbox
    }

    /// Detaches a device: its sessions vanish (peers ranging with it see RX timeouts), its
    /// place in the scene is freed, peers it spawned are removed. With `hangUp` its transport
    /// is told (the in-process stream ends with `disconnected`, a TCP connection is closed).
    func detach(_ id: VirtualUWBSDeviceID, reason: String, hangUp: Bool) {
        guard let device = devices.removeValue(forKey: id) else { return }
        device.pump?.cancel()
        device.inbox?.finish()
        if hangUp { device.output?.hangUp(reason) }
        for session in device.uwbs.sessionSnapshots {
            broadcaster.yield(
                .session(
                    id,
                    VirtualSessionChange(
                        sessionID: session.sessionID, token: session.token, state: .deinitialized,
                        reason: .stateChangeWithSessionManagementCommands)))
        }
        release(device)
        for spawned in devices.values.filter({ $0.spawnedBy?.device == id }).map(\.id) {
            detach(spawned, reason: "its host \(id) went away", hangUp: false)
        }
        reportedMismatches.removeAll()
        broadcaster.yield(.deviceDetached(id, reason: reason))
    }

    /// Removes a device (a built-in peer, or any device: its transport sees a hang-up).
    /// - Throws: ``VirtualUWBSError`` (`unknownDevice`).
    public func remove(_ id: VirtualUWBSDeviceID) throws(VirtualUWBSError) {
        guard devices[id] != nil else { throw unknownDevice(id) }
        detach(id, reason: "removed", hangUp: true)
    }

    /// Adds a built-in virtual peer whose session is ACTIVE at once.
    /// - Parameter placement: its place; `nil` takes the next free accessory of the scenario.
    /// - Returns: the peer's device identifier.
    /// - Throws: ``VirtualUWBSError``: `invalidParameter` from ``VirtualPeer/validate()``,
    ///   `shutDown`.
    @discardableResult
    public func addPeer(_ peer: VirtualPeer, placement: VirtualUWBSPlacement? = nil) throws(VirtualUWBSError)
        -> VirtualUWBSDeviceID
    {
        try addPeer(peer, placement: placement, spawnedBy: nil)
    }

    private func addPeer(
        _ peer: VirtualPeer, placement: VirtualUWBSPlacement?, spawnedBy: (VirtualUWBSDeviceID, UInt32)?
    ) throws(VirtualUWBSError) -> VirtualUWBSDeviceID {
        guard !isShutDown else { throw VirtualUWBSError(.shutDown, "the virtual UWBS world was shut down") }
        try peer.validate()
        let id = allocateID()
        var uwbs = VirtualUWBS(
            configuration: VirtualUWBSConfiguration(requiresReset: false, supportedChannels: VirtualUWBSConfiguration.firaChannels))
        _ = uwbs.powerOn()
        let place = placement ?? .accessory(nextFreeAccessory())
        let name = "peer \(peer.address)"
        devices[id] = Device(
            id: id, name: name, uwbs: uwbs, generation: 0, placement: place, peerScenario: peer.scenario, isPeer: true,
            spawnedBy: spawnedBy.map { (device: $0.0, sessionID: $0.1) })
        broadcaster.yield(.deviceAttached(id, name: name, isPeer: true))
        if let reaction = devices[id]?.uwbs.startPeerSession(id: peer.sessionID, configuration: peer.sessionConfiguration, at: now) {
            handle(reaction, from: id)
        }
        ensureScheduler()
        wakeScheduler()
        return id
    }

    /// Shuts the world down: every device is detached (transports see a hang-up), the
    /// scheduler stops, event streams end. Later attaches fail with `shutDown`.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        schedulerTask?.cancel()
        sleeper?.cancel()
        for id in devices.keys.sorted() {
            detach(id, reason: "the virtual UWBS world was shut down", hangUp: true)
        }
        broadcaster.finish()
    }

    // MARK: Packets

    /// Runs in each attached device's pump task: one packet at a time, in arrival order.
    private func pump(_ packet: UCIPacket, from id: VirtualUWBSDeviceID, generation attachment: UInt64) async {
        guard devices[id]?.generation == attachment else { return }
        if packet.header.messageType == .command, let delay = takeCommandDelay(id), delay > .zero {
            try? await Task.sleep(for: delay)
            guard devices[id]?.generation == attachment else { return }
        }
        if tracing { broadcaster.yield(.packet(id, .toDevice, packet)) }
        let time = now
        guard let reaction = devices[id]?.uwbs.receive(packet, at: time) else { return }
        handle(reaction, from: id)
        wakeScheduler()
    }

    private func takeCommandDelay(_ id: VirtualUWBSDeviceID) -> Duration? {
        guard let device = devices[id] else { return nil }
        if let slow = device.slowCommands, slow.count > 0 {
            devices[id]?.slowCommands = slow.count > 1 ? (slow.delay, slow.count - 1) : nil
            return slow.delay
        }
        let configured = device.uwbs.configuration.responseDelay
        return configured > .zero ? configured : nil
    }

    /// Delivers a reaction's packets and publishes what it changed.
    func handle(_ reaction: VirtualUWBSReaction, from id: VirtualUWBSDeviceID) {
        let output = devices[id]?.output
        for packet in reaction.packets {
            output?.deliver(packet)
            if tracing { broadcaster.yield(.packet(id, .toHost, packet)) }
        }
        for state in reaction.deviceStates { broadcaster.yield(.deviceState(id, state)) }
        for problem in reaction.problems {
            logger.debug("\(problem)", metadata: ["device": "\(id)"])
            broadcaster.yield(.problem(id, problem))
        }
        guard !reaction.sessionChanges.isEmpty else { return }
        reportedMismatches.removeAll()
        for change in reaction.sessionChanges {
            broadcaster.yield(.session(id, change))
            if change.state == .active, automaticPeers, devices[id]?.isPeer == false {
                spawnPeers(for: id, sessionID: change.sessionID)
            } else if change.state == .deinitialized {
                for spawned in devices.values.filter({ $0.spawnedBy?.device == id && $0.spawnedBy?.sessionID == change.sessionID }) {
                    detach(spawned.id, reason: "its host's session \(change.sessionID) ended", hangUp: false)
                }
            }
        }
    }

    /// Automatic peers: one mirrored peer per DST address of the session that no device holds.
    private func spawnPeers(for id: VirtualUWBSDeviceID, sessionID: UInt32) {
        guard let session = devices[id]?.uwbs.sessionSnapshots.first(where: { $0.sessionID == sessionID }) else { return }
        for address in session.configuration.destinationAddresses {
            let held = devices.values.contains { device in
                device.id != id
                    && device.uwbs.sessionSnapshots.contains {
                        $0.sessionID == sessionID && $0.configuration.deviceMACAddress == address
                    }
            }
            guard !held, let peer = VirtualPeer(mirroring: session.configuration, sessionID: sessionID, address: address) else {
                continue
            }
            do {
                _ = try addPeer(peer, placement: nil, spawnedBy: (id, sessionID))
            } catch {
                logger.notice("could not add an automatic peer for \(address): \(error)", metadata: ["device": "\(id)"])
            }
        }
    }

    // MARK: Faults

    /// Injects a fault into a device (see ``VirtualUWBSFault``).
    /// - Throws: ``VirtualUWBSError``: `unknownDevice`; `unknownSession` for
    ///   ``VirtualUWBSFault/stopSession(id:reason:)`` without such an ACTIVE session;
    ///   `invalidParameter` for a negative count or delay.
    public func inject(_ fault: VirtualUWBSFault, into id: VirtualUWBSDeviceID) throws(VirtualUWBSError) {
        guard var device = devices[id] else { throw unknownDevice(id) }
        broadcaster.yield(.fault(id, fault))
        switch fault {
        case .deviceError:
            let reaction = device.uwbs.fail()
            devices[id] = device
            handle(reaction, from: id)
        case .stopSession(let sessionID, let reason):
            let reaction = try device.uwbs.stopSession(id: sessionID, reason: reason)
            devices[id] = device
            handle(reaction, from: id)
        case .radioSilence(let on):
            devices[id]?.isSilent = on
        case .disconnect(let after):
            if !device.isPeer {
                unplugged.updateValue(after.map { ContinuousClock.now.advanced(by: $0) }, forKey: id)
            }
            detach(id, reason: "unplugged (injected disconnect)", hangUp: true)
        case .slowResponses(let delay, let count):
            guard delay >= .zero, count >= 0 else {
                throw VirtualUWBSError(.invalidParameter, "slow responses need a delay ≥ 0 and a count ≥ 0, got \(delay) and \(count)")
            }
            devices[id]?.slowCommands = count > 0 ? (delay, count) : nil
        case .commandRetry(let count, let generic):
            guard count >= 0 else {
                throw VirtualUWBSError(.invalidParameter, "the command-retry count must be ≥ 0, got \(count)")
            }
            devices[id]?.uwbs.refuseNextCommands(count, viaGenericError: generic)
        }
        wakeScheduler()
    }

    /// Ends a ``VirtualUWBSFault/disconnect(reconnectAfter:)`` fault: the device can be opened
    /// again.
    public func reconnect(_ id: VirtualUWBSDeviceID) {
        unplugged[id] = nil
    }

    /// `false` while a disconnect fault holds for `id`.
    func isPresent(_ id: VirtualUWBSDeviceID) -> Bool {
        guard let entry = unplugged[id] else { return true }
        if let until = entry, ContinuousClock.now >= until {
            unplugged[id] = nil
            return true
        }
        return false
    }

    // MARK: Scheduler

    private func ensureScheduler() {
        guard case .realTime = clock, schedulerTask == nil, !isShutDown else { return }
        schedulerTask = Task { [weak self] in
            while let sleeper = await self?.schedulerStep() {
                await sleeper.value
            }
        }
    }

    /// Runs what is due and returns a task that sleeps until the next round (or half a second).
    private func schedulerStep() -> Task<Void, Never>? {
        guard !isShutDown, case .realTime(let speed) = clock else { return nil }
        let time = now
        runDueRounds(upTo: time)
        let wait = nextDueTime().map { max(0, ($0 - now) / speed) } ?? 0.5
        let task = Task { _ = try? await Task.sleep(for: .seconds(min(wait, 0.5))) }
        sleeper = task
        return task
    }

    private func wakeScheduler() { sleeper?.cancel() }

    private func nextDueTime() -> Double? {
        devices.values.compactMap(\.uwbs.nextDueTime).min()
    }

    /// Runs every round due at or before `target`, earliest first; at equal times controllers
    /// before controlees (so a controlee's reception check sees the round of that instant).
    func runDueRounds(upTo target: Double) {
        var guardCount = 0
        while guardCount < 1_000_000 {
            guardCount += 1
            var best: (due: Double, rank: Int, id: VirtualUWBSDeviceID, token: UInt32)?
            for id in devices.keys.sorted() {
                guard let device = devices[id] else { continue }
                for round in device.uwbs.dueRounds(upTo: target) {
                    let rank = round.isController ? 0 : 1
                    if let current = best, (current.due, current.rank) <= (round.due, rank) { continue }
                    best = (round.due, rank, id, round.token)
                }
            }
            guard let best else { return }
            if case .manual = clock { manualTime = max(manualTime, best.due) }
            runRound(device: best.id, token: best.token, at: best.due)
        }
        logger.error("more than a million ranging rounds were due at once; the scheduler stopped early")
    }
}
