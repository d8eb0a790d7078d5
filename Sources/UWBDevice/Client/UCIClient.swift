public import Logging
import NearbySupport
public import UCI

/// A FiRa UCI client: the one place that talks to a UWB subsystem (UWBS) over a
/// ``UCITransport``, as AOSP's uwb_core `UciManager` does.
///
/// - **One command in flight**, answered within ``UCIClientConfiguration/responseTimeout``
///   (2 s); resent up to ``UCIClientConfiguration/commandRetries`` (3) times when the UWBS
///   answers COMMAND_RETRY (0x0A) or sends CORE_GENERIC_ERROR_NTF(COMMAND_RETRY).
/// - **Sessions** (``UWBSession``) follow INIT → IDLE → ACTIVE → IDLE → DEINIT, enforced on the
///   host (starting a session that is not IDLE is an error naming its state) and reconciled with
///   the UWBS's SESSION_STATUS_NTFs. Each session has its own streams of range samples (peer MAC,
///   host timestamp on ``MonotonicTime``) and status events. UCI 1.1 session IDs and 2.0 session
///   handles are mapped both ways.
/// - **Device state** from CORE_DEVICE_STATUS_NTF. On DEVICE_STATE_ERROR the client resets the
///   UWBS and restores every session (init, app config, start if it was ranging). When the
///   transport goes away (unplug, server closed) the sessions are reported interrupted, the
///   client waits for the dev kit with a bounded backoff, reopens it, resets it and restores the
///   sessions. Both are reported on ``events()``.
/// - Messages it does not act on (vendor, unknown, unmatched) are logged with their readable
///   decode and delivered on ``unhandledMessages()``, never dropped silently.
///
/// ```swift
/// let client = UCIClient(transport: try UWBDeviceSpec(parsing: "usb:1915:520f").makeTransport())
/// let info = try await client.open()                       // reset, device info, capabilities
/// let session = try await client.openSession(id: 42, parameters: FiRaSessionParameters(
///     deviceMACAddress: .short(0x0001), destinationMACAddresses: [.short(0x0002)]))
/// try await session.start()
/// for await sample in session.samples { print(sample.peer, sample.sample.distance ?? .nan) }
/// await client.close()
/// ```
public actor UCIClient {
    /// The device as the user named it (the transport's name), used in every message.
    public nonisolated let device: String
    let transport: any UCITransport
    let configuration: UCIClientConfiguration
    let logger: Logger

    var phase: ClientPhase = .idle

    /// CORE_GET_DEVICE_INFO as read by ``open()`` (and after each reset).
    public internal(set) var deviceInfo: UCIDeviceInfo?
    /// CORE_GET_CAPS_INFO as read by ``open()``, interpreted for the UWBS's UCI version; `nil` if
    /// the UWBS did not answer it (see ``capabilitiesError``) or reading was turned off.
    public internal(set) var capabilities: UCICapabilities?
    /// Why CORE_GET_CAPS_INFO failed during ``open()``, if it did.
    public internal(set) var capabilitiesError: UCIClientError?
    /// The last state CORE_DEVICE_STATUS_NTF reported (`nil` before the first).
    public internal(set) var deviceState: UCIDeviceState?

    // Commands and packets.
    var pending: PendingCommand?
    /// Reads the transport on its own thread: routes range data, queues the rest for the actor.
    nonisolated let reader: ClientReader
    var readerTask: Task<Void, Never>?
    var readyWaiter: Promise<Void>?
    /// Notification types whose trailing bytes were logged (once each).
    var trailingBytesLogged: Set<UCIOpcode> = []
    var resetInFlight = false

    // The operation gate: one multi-command operation at a time, recovery first.
    var gateHeld = false
    var gateWaiters: [CheckedContinuation<Bool, Never>] = []
    var recoveryGateWaiter: CheckedContinuation<Void, Never>?

    // Sessions.
    var sessions: [UInt32: SessionRecord] = [:]
    var sessionOrder: [UInt32] = []

    /// Measurements received in SESSION_INFO_NTFs of a session that is no longer (or not) open
    /// here, e.g. sent by the UWBS just before a device error or a close took effect: the client
    /// routes range data by session itself and drops data for unknown sessions (logged), counted
    /// here so a load test accounts for every measurement.
    public var unroutedMeasurements: Int { reader.unrouted }

    // Recovery.
    var recoveryTask: Task<Void, Never>?
    var pendingRecovery: RecoveryCause?
    var recoveryHoldsGate = false

    let eventBroadcaster = Broadcaster<UCIClientEvent>()
    let unhandledBroadcaster = Broadcaster<UCIUnhandledMessage>()

    /// Creates a client over `transport`; nothing is opened until ``open()``.
    /// - Parameters:
    ///   - transport: the dev kit's transport (USB, serial, TCP, virtual); the client owns it.
    ///   - configuration: timeouts, retries and recovery settings.
    ///   - logger: commands and responses at debug, state changes at info, recovery at notice,
    ///     unhandled messages at notice, failures at warning / error; range data at trace.
    public init(transport: any UCITransport, configuration: UCIClientConfiguration = .init(),
                logger: Logger = Logger(label: "nearby.uwb.client")) {
        self.transport = transport
        self.device = transport.name
        self.configuration = configuration
        var logger = logger
        logger[metadataKey: "device"] = "\(transport.name)"
        self.logger = logger
        self.reader = ClientReader(logger: logger, dialect: configuration.measurementDialect)
    }

    // MARK: Streams

    /// Device-level events from now on: state changes, errors, the dev kit going away and coming
    /// back, recovery. Ends when the client is closed. Any number of subscribers.
    public nonisolated func events() -> AsyncStream<UCIClientEvent> { eventBroadcaster.subscribe() }

    /// Messages the client did not act on, from now on (diagnostics). Ends when the client is
    /// closed. Any number of subscribers.
    public nonisolated func unhandledMessages() -> AsyncStream<UCIUnhandledMessage> { unhandledBroadcaster.subscribe() }

    // MARK: Opening and closing

    /// Opens the transport and brings the UWBS up: CORE_DEVICE_RESET (then waits briefly for
    /// DEVICE_STATUS_NTF(READY)), CORE_GET_DEVICE_INFO, and CORE_GET_CAPS_INFO (a failure of the
    /// last is kept in ``capabilitiesError``, not thrown).
    /// - Returns: the device information (UCI / MAC / PHY / test versions, vendor bytes).
    /// - Throws: ``UCIClientError``: `transport` (cannot open; the transport's error says why),
    ///   `timeout`, `commandFailed`, `protocolViolation`; `closed` after ``close(deinitializingSessions:)``.
    ///   After a failure the client can be opened again.
    @discardableResult
    public func open() async throws(UCIClientError) -> UCIDeviceInfo {
        switch phase {
        case .idle: break
        case .closed: throw closedError()
        default:
            if let deviceInfo { return deviceInfo }
            throw UCIClientError(.notOpen, device: device, reason: "the client is already being opened",
                                 remedy: "Call open() once and wait for it.")
        }
        phase = .opening
        logger.info("opening")
        let stream: UCIPacketStream
        do {
            stream = try await transport.open()
        } catch {
            phase = .idle
            throw transportError(error, doing: "open the dev kit")
        }
        startReader(stream)
        await acquireGateForRecovery()
        do {
            try await bringUp()
        } catch {
            releaseGate()
            stopReading()
            pending = nil
            if case .closed = phase {} else { phase = .idle }
            await transport.close()
            logger.warning("open failed: \(error)")
            throw error
        }
        phase = .open
        releaseGate()
        guard let deviceInfo else { throw protocolError("CORE_GET_DEVICE_INFO_CMD", "no device information was read") }
        logger.info("open: UCI \(deviceInfo.uciVersion), MAC \(deviceInfo.macVersion), PHY \(deviceInfo.phyVersion)")
        return deviceInfo
    }

    /// Closes the client: stops ranging sessions and deinitializes every session (unless
    /// `deinitializingSessions` is `false` or the dev kit is gone), stops any recovery, closes
    /// the transport and ends every stream. Idempotent; later operations throw `closed`.
    /// - Parameter deinitializingSessions: send SESSION_STOP / SESSION_DEINIT first (each bounded
    ///   by the response timeout; failures are logged).
    public func close(deinitializingSessions: Bool = true) async {
        if case .closed = phase { return }
        let wasOpen: Bool
        if case .open = phase { wasOpen = recoveryTask == nil } else { wasOpen = false }
        if deinitializingSessions && wasOpen && !sessionOrder.isEmpty {
            for id in sessionOrder {
                do {
                    try await closeSession(id)
                } catch {
                    logger.warning("closing \(UCIClientError.sessionName(id)) failed: \(error)")
                }
            }
        }
        phase = .closed
        recoveryTask?.cancel()
        recoveryTask = nil
        failPending(closedError())
        failGateWaiters()
        for id in sessionOrder {
            if let record = sessions[id] {
                record.stateWaiter?.promise.fail(closedError())
                record.finishStreams()
            }
        }
        sessions.removeAll()
        sessionOrder.removeAll()
        reader.unmapAll()
        stopReading()
        await transport.close()
        readerTask?.cancel()
        readerTask = nil
        eventBroadcaster.finish()
        unhandledBroadcaster.finish()
        logger.info("closed")
    }

    // MARK: Commands

    /// Sends any command and returns its response, with the client's timeout and retries; the
    /// status is not interpreted. For diagnostics and vendor commands: a session command sent
    /// this way bypasses the host-side state machine (the UWBS's notifications still update it).
    /// - Throws: ``UCIClientError``: `timeout`, `retriesExhausted`, `transport`, `unavailable`,
    ///   `invalidCommand`, `protocolViolation`, `notOpen`, `closed`.
    public func send(_ command: UCICommand) async throws(UCIClientError) -> UCIResponse {
        try await acquireGate()
        defer { releaseGate() }
        return try await execute(command)
    }

    // MARK: Sessions

    /// Opens a session: validates `parameters` for the UWBS's UCI version, SESSION_INIT (maps the
    /// 2.0 handle), SESSION_SET_APP_CONFIG in pica's order, and waits for SESSION_STATE_IDLE.
    /// - Parameters:
    ///   - id: the session ID (for Apple's accessory protocol: the one in the shareable data).
    ///   - type: the session type, FiRa ranging by default.
    ///   - parameters: the FiRa parameters; kept and replayed when the session is restored.
    ///   - sink: where the range samples go; `nil` (the default): the session's
    ///     ``UWBSession/samples`` stream (which stays empty when a sink is given).
    /// - Returns: the session, IDLE: call ``UWBSession/start()``.
    /// - Throws: ``UCIClientError``: `invalidParameters` (nothing was sent), `duplicateSession`,
    ///   `sessionLimit` (the dev kit's limit, naming the open sessions), `parametersRejected`
    ///   (naming each refused parameter and the UWBS's status), `commandFailed`, `timeout`, ...
    ///   A session that failed half-way is deinitialized again.
    public func openSession(
        id: UInt32, type: UCISessionType = .ranging, parameters: FiRaSessionParameters, samples sink: UWBSampleSink? = nil
    ) async throws(UCIClientError) -> UWBSession
    {
        try await acquireGate()
        defer { releaseGate() }
        let version = deviceInfo?.uciVersion ?? .v2_0
        let configs: [UCIAppConfig]
        do {
            configs = try parameters.appConfigs(for: version)
        } catch {
            throw UCIClientError(
                .invalidParameters, device: device, reason: "cannot open \(UCIClientError.sessionName(id)): \(error)",
                remedy: "Fix the parameters named above; nothing was sent to the UWBS.", session: id, parameterError: error)
        }
        if sessions[id] != nil {
            throw UCIClientError(
                .duplicateSession, device: device, reason: "\(UCIClientError.sessionName(id)) is already open on this client",
                remedy: "Use the open session, close it first, or choose another session ID.", session: id)
        }
        let (samples, sampleContinuation) = AsyncStream.makeStream(
            of: UCIPeerRangeSample.self, bufferingPolicy: .bufferingNewest(configuration.sampleBufferSize))
        if sink != nil { sampleContinuation.finish() }
        let (events, eventContinuation) = AsyncStream.makeStream(of: UWBSessionEvent.self, bufferingPolicy: .bufferingNewest(256))
        sessions[id] = SessionRecord(
            id: id, type: type, parameters: parameters, configs: configs, token: id,
            samples: sink ?? .stream(sampleContinuation), events: eventContinuation)
        sessionOrder.append(id)
        logger.info("opening \(UCIClientError.sessionName(id))", metadata: ["parameters": "\(configs.map(\.description).joined(separator: ", "))"])
        do {
            try await initializeSession(id)
            try await configureSession(id, configs: configs)
        } catch {
            await abandonSession(id, after: error)
            throw error
        }
        return UWBSession(id: id, client: self, samples: samples, events: events)
    }

    /// Starts ranging: SESSION_START, then waits for SESSION_STATE_ACTIVE. Samples arrive on the
    /// session's ``UWBSession/samples``. Starting a session that is already ACTIVE succeeds,
    /// as in AOSP's uwb_core: nothing is sent when the host knows it is ACTIVE, and a
    /// SESSION_ACTIVE (0x13) answer to SESSION_START counts as success.
    /// - Throws: ``UCIClientError``: `invalidState` if the session is neither IDLE nor ACTIVE
    ///   (naming its state), `sessionNotOpen`, `commandFailed`, `timeout`, ...
    public func startSession(_ id: UInt32) async throws(UCIClientError) {
        try await acquireGate()
        defer { releaseGate() }
        if sessions[id]?.state == .active {
            sessions[id]?.wantsActive = true
            logger.debug("\(UCIClientError.sessionName(id)) is already active: start is a no-op")
            return
        }
        try requireState(id, .idle, operation: "start")
        try await startRanging(id)
    }

    /// Stops ranging: SESSION_STOP, then waits for SESSION_STATE_IDLE. The session stays
    /// configured: ``startSession(_:)`` starts it again with the same parameters.
    /// - Throws: ``UCIClientError``: `invalidState` if the session is not ACTIVE (naming its
    ///   state), `sessionNotOpen`, `commandFailed`, `timeout`, ...
    public func stopSession(_ id: UInt32) async throws(UCIClientError) {
        try await acquireGate()
        defer { releaseGate() }
        try requireState(id, .active, operation: "stop")
        try await stopRanging(id)
    }

    /// Reconfigures an IDLE session with new parameters (SESSION_SET_APP_CONFIG); they are kept
    /// for restores.
    /// - Throws: ``UCIClientError``: `invalidParameters`, `invalidState` (not IDLE),
    ///   `parametersRejected`, ...
    public func updateSession(_ id: UInt32, parameters: FiRaSessionParameters) async throws(UCIClientError) {
        try await acquireGate()
        defer { releaseGate() }
        try requireState(id, .idle, operation: "reconfigure")
        let configs: [UCIAppConfig]
        do {
            configs = try parameters.appConfigs(for: deviceInfo?.uciVersion ?? .v2_0)
        } catch {
            throw UCIClientError(
                .invalidParameters, device: device, reason: "cannot reconfigure \(UCIClientError.sessionName(id)): \(error)",
                remedy: "Fix the parameters named above; nothing was sent to the UWBS.", session: id, parameterError: error)
        }
        try await configureSession(id, configs: configs)
        sessions[id]?.parameters = parameters
        sessions[id]?.configs = configs
        if let token = sessions[id]?.token {
            reader.setAngles(token, azimuth: parameters.reportsAzimuth, elevation: parameters.reportsElevation)
        }
    }

    /// Closes a session in any state: SESSION_STOP if it ranges, then SESSION_DEINIT. Its streams
    /// end. A session the UWBS no longer has (SESSION_NOT_EXIST) counts as closed.
    /// - Throws: ``UCIClientError``: `sessionNotOpen`, `commandFailed`, `timeout`, ...
    public func closeSession(_ id: UInt32) async throws(UCIClientError) {
        try await acquireGate()
        defer { releaseGate() }
        try await deinitializeSession(id)
    }

    /// The host's view of a session's state, `nil` if it is not open.
    public func sessionState(_ id: UInt32) -> UCISessionState? { sessions[id]?.state }

    /// The parameters a session was opened (or last reconfigured) with, `nil` if it is not open.
    public func sessionParameters(_ id: UInt32) -> FiRaSessionParameters? { sessions[id]?.parameters }

    /// The IDs of the open sessions, in the order they were opened.
    public var openSessionIDs: [UInt32] { sessionOrder }
}
