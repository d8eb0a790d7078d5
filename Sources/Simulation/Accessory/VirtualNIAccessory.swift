public import Logging
public import LowEnergy
public import NearbyInteraction
public import NIProtocol
public import UCI
public import UWBDevice

/// A virtual Nearby Interaction accessory: the accessory role of `NearbyInteraction`
/// (`AccessoryRoleSession`, the code `nearby accessory` runs) configured like Qorvo's firmware,
/// speaking over a `DataChannel` and ranging through its own `UCIClient`, typically on a
/// device of a ``VirtualUWBSWorld`` placed as a scenario accessory; plus firmware faults.
///
/// | Receives | Does |
/// |---|---|
/// | initialize 0x0A (0xA5) | stops and closes a running session, re-initializes (Qorvo's `niq_reinit()`); answers 0x01 with its ACD (UwbDeviceConfigData) |
/// | configureAndStart 0x0B | closes a running session; derives its FiRa parameters (`NIFiRaDerivation`: Qorvo's rules; NXP's table for the Android config ID), opens and starts the session; answers 0x02 (0x03 if the dev kit refuses) |
/// | stop 0x0C | stops and closes the session; answers 0x03 |
/// | link loss | stops and closes the session (as Qorvo, nrfuwb and Truesense do) |
///
/// Like Qorvo's firmware (`ble_niq.c`, `niq.h`: `niq_reinit()` "must be called every time UWB
/// TWR session is stopped", and only initialize calls it), once a session stopped it needs a
/// fresh initialize: a configureAndStart without one is still answered 0x02 at once (Qorvo
/// answers any accepted 0x0B before UWB confirms anything) but no session starts
/// (``VirtualNIAccessoryConfiguration/requiresInitializeAfterStop``). In the Android dialect it
/// acts like NXP's demo: a config ID outside its table gets no answer at all.
///
/// Faults (``VirtualNIAccessoryFault``) make it slow, malformed or silent; ``stopRanging()``
/// stops mid-session and sends 0x03; ``loseLink(reason:)`` drops the BLE link.
public actor VirtualNIAccessory: AccessoryRoleInterceptor {
    /// What it announces.
    public nonisolated let configuration: VirtualNIAccessoryConfiguration
    /// Its end of the data channel.
    public nonisolated let channel: any DataChannel
    /// Its UWB dev kit.
    public nonisolated let client: UCIClient
    let logger: Logger

    /// The faults in effect.
    public private(set) var faults: Set<VirtualNIAccessoryFault> = []
    /// How many messages were ignored because of the ``VirtualNIAccessoryFault/silent`` fault.
    public private(set) var ignoredCount = 0

    private var session: AccessoryRoleSession?
    private var invalidAnswers = 0
    /// The waits of ``VirtualNIAccessoryFault/slowConfiguration(_:)`` under way, by key:
    /// ``shutdown()`` ends them, so a stop does not wait out a delay meant to outlast a timeout.
    private var delays: [Int: Task<Void, Never>] = [:]
    private var nextDelay = 0
    private var isShuttingDown = false

    /// Creates an accessory.
    /// - Parameters:
    ///   - configuration: what it announces, how it answers, its faults.
    ///   - channel: its end of the data channel (e.g. of `InMemoryDataChannel.makePair(maximumMessageLength:)`).
    ///   - transport: its UWB dev kit, e.g. `world.makeTransport(placement: .accessory(0))`.
    ///   - logger: where it logs what it receives and does.
    public init(
        configuration: VirtualNIAccessoryConfiguration = VirtualNIAccessoryConfiguration(), channel: any DataChannel,
        transport: any UCITransport, logger: Logger = Logger(label: "nearby.sim.accessory")
    ) {
        self.configuration = configuration
        self.channel = channel
        var logger = logger
        logger[metadataKey: "accessory"] = "\(UCIMACAddress.short(configuration.address))"
        self.logger = logger
        self.client = UCIClient(transport: transport, logger: logger)
    }

    /// Every message ID received and answered, in order (for tests).
    public var received: [NIMessageID] {
        get async { await session?.received ?? [] }
    }
    /// The session ID of the running session, `nil` when not ranging.
    public var runningSessionID: UInt32? {
        get async { await session?.runningSessionID }
    }
    /// Every session ID it started, in order.
    public var startedSessionIDs: [UInt32] {
        get async { await session?.startedSessionIDs ?? [] }
    }
    /// configureAndStart messages answered 0x02 without starting a session, because no
    /// initialize came after the last stop (Qorvo's missing `niq_reinit()`).
    public var staleStarts: Int {
        get async { await session?.staleStarts ?? 0 }
    }
    /// The FiRa parameters of the last session it configured.
    public var lastParameters: FiRaSessionParameters? {
        get async { await session?.lastParameters }
    }

    /// Opens its dev kit and starts answering messages.
    /// - Throws: the client's error if the dev kit does not open.
    public func start() async throws(UCIClientError) {
        guard session == nil else { return }
        try await client.open()
        let role = AccessoryRoleConfiguration(
            profile: configuration.profile, requiresInitializeAfterStop: configuration.requiresInitializeAfterStop,
            endsOnDisconnection: false)
        let session = AccessoryRoleSession(
            phone: AccessoryIdentity(id: "host"), channel: channel, client: client, configuration: role, output: nil,
            interceptor: self, logger: logger)
        self.session = session
        await session.start()
    }

    /// Stops answering, closes the session and the dev kit.
    /// A message still held by the slow-configuration fault is dropped, unanswered.
    public func shutdown() async {
        isShuttingDown = true
        for delay in delays.values { delay.cancel() }
        await session?.stop()
        await client.close()
    }

    /// Turns a fault on or off.
    public func setFault(_ fault: VirtualNIAccessoryFault, _ on: Bool = true) async {
        if on {
            faults.insert(fault)
            if fault == .silent { await session?.stopRanging(notify: false) }
            if fault == .invalidConfigurationOnce { invalidAnswers = 0 }
        } else {
            faults.remove(fault)
        }
    }

    /// Stops ranging mid-session (as if the firmware ended it) and sends accessoryUwbDidStop
    /// (0x03).
    public func stopRanging() async {
        await session?.stopRanging(notify: true)
    }

    /// Drops the BLE link (both ends see a disconnection with `reason`); needs an
    /// `InMemoryDataChannel`.
    public func loseLink(reason: HCIStatus = .connectionTimeout) {
        (channel as? InMemoryDataChannel)?.simulateLinkLoss(reason: reason)
    }

    /// Waits `delay` (the slow-configuration fault); `false` if ``shutdown()`` ended the wait.
    private func hold(for delay: Duration) async -> Bool {
        guard !isShuttingDown else { return false }
        let key = nextDelay
        nextDelay += 1
        let wait = Task { _ = try? await Task.sleep(for: delay) }
        delays[key] = wait
        await wait.value
        delays[key] = nil
        return !isShuttingDown
    }

    /// The faults, applied before the session handles a message.
    public func intercept(_ id: NIMessageID) async -> AccessoryRoleIntercept {
        if faults.contains(.silent) {
            ignoredCount += 1
            return .ignore
        }
        guard id == .initialize || id == .androidInitialize else { return .handle }
        for fault in faults {
            if case .slowConfiguration(let delay) = fault, !(await hold(for: delay)) { return .ignore }
        }
        guard faults.contains(.invalidConfiguration) || (faults.contains(.invalidConfigurationOnce) && invalidAnswers == 0) else {
            return .handle
        }
        // uwbConfigDataLength 12: too short to hold the accessory's MAC address.
        if !faults.contains(.invalidConfiguration) { invalidAnswers += 1 }
        var bytes = Array(configuration.accessoryConfigurationData().encoded().prefix(AccessoryConfigurationData.headerByteCount))
        bytes[AccessoryConfigurationData.headerByteCount - 1] = 12
        return .answer([NIMessageID.accessoryConfigurationData.rawValue] + bytes + Array(repeating: 0, count: 12))
    }
}
