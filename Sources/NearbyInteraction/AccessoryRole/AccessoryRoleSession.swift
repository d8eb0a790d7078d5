public import Logging
public import LowEnergy
public import NearbySupport
public import NIProtocol
import NearbyBase
import Ranging
public import UCI
public import UWBDevice

/// One phone's Nearby Interaction session with this host in the accessory role: the accessory
/// side of the NI protocol over the phone's data channel, the kit's FiRa session, and the
/// phone's range samples through the ranging pipeline (specs/accessory-role.md).
///
/// | Phone sends | The session |
/// |---|---|
/// | initialize 0x0A | checks the link carries the answer, then stops a running session (as Qorvo's `niq_reinit()`) and answers 0x01 + accessory configuration data (prebuilt: no work but the send); a link too small for it: stopped and 0x03, never silence |
/// | initialize 0xA5 (Android) | the same, answering 0x01 + UwbDeviceConfigData |
/// | configureAndStart 0x0B | parses the phone's configuration (in the dialect of its initialize), derives the controlee / responder session (`AccessoryRoleProfile`), SESSION_INIT + SET_APP_CONFIG + START on the kit, answers 0x02 once the session is ACTIVE; 0x03 if the kit refuses |
/// | stop 0x0C | SESSION_STOP + SESSION_DEINIT, answers 0x03 |
/// | Qorvo's 0x20 / 0x21 | 0x20 + ``deviceParameters``; 0x21 kept and answered 0x22 (ok, bad length, bad version), as Qorvo's `ble_niq.c` |
/// | anything else | logged and refused (undecodable bytes, unknown IDs, the accessory's own messages); nothing is sent |
///
/// Invalid configuration data gets no 0x02 and an error naming the field; the link stays up.
/// The kit stopping or losing the session sends 0x03. The phone disconnecting stops and
/// deinitializes the session; the session is then over (a phone that comes back is a new
/// session). Everything is reported as ``NearbySessionEvent``s with the phone as the
/// "accessory" (its identity), so the same outputs, zones and hooks apply.
public actor AccessoryRoleSession {
    /// The phone (carried by every event).
    public nonisolated let phone: AccessoryIdentity
    /// The phone's data channel (the caller owns it: ``stop()`` does not close it).
    public nonisolated let channel: any DataChannel
    /// The kit (shared by every phone).
    public nonisolated let client: UCIClient
    /// The settings.
    public nonisolated let configuration: AccessoryRoleConfiguration

    /// The current state: `idle` (connected, no session), `initializing` (0x01 sent),
    /// `configuring` (0x0B received), `starting` (kit session opening), `ranging` (0x02 sent),
    /// `stopped` (the phone left or ``stop()``), `failed`.
    public private(set) var state: AccessorySessionState = .idle
    /// Every decodable message ID received, in order (refused ones too; undecodable bytes are
    /// only counted in ``refusedCount``).
    public private(set) var received: [NIMessageID] = []
    /// Messages refused (undecodable, unknown, not for an accessory, invalid configuration).
    public private(set) var refusedCount = 0
    /// The FiRa session running on the kit, `nil` when none.
    public private(set) var runningSessionID: UInt32?
    /// The parameters of the last session configured on the kit.
    public private(set) var lastParameters: FiRaSessionParameters?
    /// Own work from the last initialize's arrival to its answer being sent.
    public private(set) var lastInitializeAnswer: Duration?
    /// Own work from the last configureAndStart's arrival to the kit's SESSION_INIT being
    /// issued (decode, derive, encode the app configuration).
    public private(set) var lastConfigureOwnWork: Duration?
    /// Range samples that went through the pipeline.
    public var samplesProcessed: Int { lane.processed }
    /// Every session ID started on the kit, in order.
    public private(set) var startedSessionIDs: [UInt32] = []
    /// configureAndStart messages answered 0x02 without a session, because no initialize came
    /// after the last stop (``AccessoryRoleConfiguration/requiresInitializeAfterStop``).
    public private(set) var staleStarts = 0
    /// Qorvo's device parameters, what `0x20` answers: Qorvo's defaults with this accessory's
    /// address, then what a `0x21` set, then the last session the kit ran (as Qorvo's firmware
    /// writes its session into the same structure).
    public private(set) var deviceParameters: QorvoDeviceParameters
    /// The per-sample middle, the phone role's too: the kit's samples through the pipeline into
    /// `output` on the transport's reader; samples of a stopped kit session, or that come while
    /// not ranging, are discarded and counted there.
    private let lane: RangingLane

    private let output: Mailbox<NearbySessionEvent>?
    private let interceptor: (any AccessoryRoleInterceptor)?
    /// `false` once a session stopped, until the next initialize (Qorvo's `niq_reinit()`).
    private var initialized = true
    private let logger: Logger
    private let mailbox: Mailbox<RoleInput>
    private let appleAnswer: [UInt8]
    private let androidAnswer: [UInt8]?
    private var dialect: NIDialect?
    private var session: UWBSession?
    private var generation = 0
    private var pumps: [Task<Void, Never>] = []
    private var uwbPump: Task<Void, Never>?
    private var runTask: Task<Void, Never>?

    private enum RoleInput: Sendable {
        case message([UInt8], at: ContinuousClock.Instant)
        case messagesEnded
        case link(DataChannelEvent)
        case uwb(UWBSessionEvent, generation: Int)
        case stop
    }

    /// Creates a session for a connected phone; nothing happens until ``start()``.
    /// - Parameters:
    ///   - phone: who the phone is (its BLE address), in every event.
    ///   - channel: the phone's data channel.
    ///   - client: the dev kit's UCI client (shared by every phone's session).
    ///   - configuration: what the accessory announces and how it ranges.
    ///   - output: where events go (an ``AccessoryRoleManager``'s queue); `nil`: nowhere (a
    ///     simulated accessory: its samples are not even filtered).
    ///   - interceptor: fault injection (simulations), `nil` for none.
    ///   - logger: where the session logs (with the phone as metadata).
    public init(phone: AccessoryIdentity, channel: any DataChannel, client: UCIClient, configuration: AccessoryRoleConfiguration,
                output: Mailbox<NearbySessionEvent>?, interceptor: (any AccessoryRoleInterceptor)? = nil,
                logger: Logger = Logger(label: "nearby.ni.accessory-role")) {
        self.phone = phone
        self.interceptor = interceptor
        self.channel = channel
        self.client = client
        self.configuration = configuration
        self.output = output
        var logger = logger
        logger[metadataKey: "phone"] = "\(phone.id)"
        self.logger = logger
        self.mailbox = Mailbox(capacity: configuration.ranging.queueCapacity)
        // The phone drives the session: a loss is reported (`lost`) and ranging goes on until
        // the phone stops it or leaves (no recovery of our own; the lane's signals are not needed).
        self.lane = RangingLane(identity: phone, configuration: configuration.ranging, output: output, recovers: false, logger: logger) { _ in }
        deviceParameters = QorvoDeviceParameters(sourceAddress: configuration.profile.address)
        // Built once: answering initialize is only a send.
        appleAnswer = NIMessage.accessoryConfigurationData(configuration.profile.accessoryConfigurationData()).encoded()
        androidAnswer = (try? configuration.profile.androidConfigurationData()).map { NIMessage.androidAccessoryConfigurationData($0).encoded() }
    }

    /// Starts answering the phone (no-op if started).
    public func start() {
        guard runTask == nil, !state.isFinal else { return }
        pumps = SessionPumps.start(
            channel: channel, into: mailbox, message: { .message($0, at: $1) }, ended: .messagesEnded, link: { .link($0) })
        emit(.state(.idle))
        runTask = Task { await self.run() }
    }

    /// Stops: the kit's session is stopped and deinitialized, accessoryUwbDidStop (0x03) goes
    /// to the phone if it was ranging and the link is up; state ``AccessorySessionState/stopped``.
    public func stop() async {
        guard !state.isFinal else { return }
        mailbox.post(.stop)
        await runTask?.value
    }

    /// Stops ranging now, as if the firmware ended the session: the kit's session is stopped and
    /// deinitialized and, if `notify`, accessoryUwbDidStop (0x03) goes to the phone.
    public func stopRanging(notify: Bool = true) async {
        let wasRunning = session != nil
        await stopSession()
        if notify, wasRunning { await send(.accessoryUWBDidStop) }
    }

    /// Waits until the session is over and returns its final state.
    public func waitUntilFinished() async -> AccessorySessionState {
        await runTask?.value
        return state
    }

    // MARK: The loop

    private func run() async {
        while let input = await mailbox.receive() {
            switch input {
            case .message(let bytes, let arrival):
                await handle(bytes, arrival: arrival)
            case .messagesEnded:
                await finish(.stopped, sendStop: false)
            case .link(.disconnected(let reason)):
                emit(.link(.disconnected(reason: reason)))
                logger.info("the phone disconnected (\(reason)): stopping its session")
                if configuration.endsOnDisconnection {
                    await finish(.stopped, sendStop: false)
                } else {
                    await stopSession()
                    setState(.idle)
                }
            case .link(.reconnected):
                emit(.link(.reconnected(maximumMessageLength: await channel.maximumMessageLength)))
            case .link(.security(let error)):
                emit(.link(.security(error)))
            case .uwb(let event, let generation):
                guard generation == self.generation else { continue }
                await handle(event)
            case .stop:
                await finish(.stopped, sendStop: true)
            }
            if state.isFinal { return }
        }
    }

    private func finish(_ final: AccessorySessionState, sendStop: Bool) async {
        let wasRunning = session != nil
        await closeSession()
        if sendStop, wasRunning { await send(.accessoryUWBDidStop) }
        for pump in pumps { pump.cancel() }
        pumps = []
        // Samples the kit delivered after ranging stopped were discarded by the lane: their
        // count is reported before the final state.
        lane.close()
        reportLosses()
        setState(final)
        mailbox.finish()
    }

    /// Reports the samples the lane discarded since the last report (at every state change and
    /// at the end).
    private func reportLosses() {
        guard let report = lane.takeLossReport() else { return }
        logger.info("\(report.count) range sample(s) of a stopped UWB session discarded (\(report.total) in all)")
        emit(.dropped(report))
    }

    // MARK: Messages

    private func handle(_ bytes: [UInt8], arrival: ContinuousClock.Instant) async {
        if let interceptor, let first = bytes.first {
            switch await interceptor.intercept(NIMessageID(rawValue: first)) {
            case .handle: break
            case .ignore: return
            case .answer(let raw):
                received.append(NIMessageID(rawValue: first))
                await send(raw: raw, id: NIMessageID(rawValue: raw.first ?? 0))
                return
            }
        }
        let message: NIMessage
        do {
            message = try NIMessage(decoding: bytes, dialect: bytes.first == NIMessageID.configureAndStart.rawValue ? dialect : nil)
        } catch {
            if error.messageID == .setDeviceStruct {
                // Qorvo's firmware answers a 0x21 of the wrong length with status 1.
                received.append(.setDeviceStruct)
                logger.notice("0x21 setDeviceStruct of \(bytes.count) bytes refused (\(QorvoDeviceParameters.byteCount + 1) expected): answered bad length")
                await send(.setDeviceStructAck(.badLength))
                return
            }
            refuse("undecodable message \(Hex.bytes(bytes.prefix(40))): \(error)", protocolError: error)
            return
        }
        received.append(message.id)
        logger.debug("< \(message.id)")
        switch message {
        case .initialize, .androidInitialize:
            let android = message == .androidInitialize
            guard let answer = android ? androidAnswer : appleAnswer else {
                refuse("initialize (Android) refused: the accessory's Android configuration is invalid")
                return
            }
            // The link must carry the answer before anything else happens (an initialize on a
            // live session replaces it: MTU check first, then stop).
            let maximum = await channel.maximumMessageLength
            guard answer.count <= maximum else {
                report(.dataChannel, "cannot answer \(message.id): accessoryConfigurationData is \(answer.count) bytes, "
                       + "the link carries \(maximum) per notification (ATT_MTU \(maximum + 3)); accessoryUwbDidStop sent instead",
                       remedy: "The phone must exchange an ATT_MTU of at least \(answer.count + 3) (every iPhone does).")
                // The phone asked to start over; it learns that nothing runs, never silence.
                await stopSession()
                await send(.accessoryUWBDidStop)
                setState(.idle)
                return
            }
            await stopSession()
            dialect = android ? .android : .apple
            initialized = true
            guard await send(raw: answer, id: .accessoryConfigurationData) else { return }
            lastInitializeAnswer = .now - arrival
            setState(.initializing)
            logger.info("0x01 sent \(Self.text(lastInitializeAnswer)) after \(message.id) arrived")
        case .configureAndStart(let shareable):
            setState(.configuring)
            await configure(sessionID: shareable.sessionID, arrival: arrival) { $0.parameters(for: shareable) }
        case .androidConfigureAndStart(let phoneData):
            setState(.configuring)
            await configure(sessionID: phoneData.sessionID, arrival: arrival) { profile throws(NIProtocolError) in try profile.parameters(for: phoneData) }
        case .stop:
            await stopSession()
            await send(.accessoryUWBDidStop)
            setState(.idle)
        case .getDeviceStruct, .deviceStruct:
            // Qorvo's firmware answers any 0x20 with its device parameters (`ble_niq.c`).
            await send(.deviceStruct(deviceParameters))
        case .setDeviceStruct(let parameters):
            guard parameters.version == QorvoDeviceParameters.currentVersion else {
                logger.notice("0x21 setDeviceStruct of version \(parameters.version) refused: answered bad version")
                await send(.setDeviceStructAck(.badVersion))
                return
            }
            deviceParameters = parameters
            logger.info("0x21 setDeviceStruct: \(parameters) (the phone's 0x0B still decides the NI session)")
            await send(.setDeviceStructAck(.ok))
        case .unknown(let id, let payload):
            refuse("unknown message ID \(Hex.prefixed(id)) (\(payload.count) payload bytes) refused")
        default:
            refuse("\(message.id) is a message an accessory sends, not a phone: refused")
        }
    }

    private func configure(sessionID: UInt32, arrival: ContinuousClock.Instant,
                           derive: (AccessoryRoleProfile) throws(NIProtocolError) -> FiRaSessionParameters) async {
        if configuration.requiresInitializeAfterStop, !initialized {
            // Qorvo: without niq_reinit() the next session does not start, yet 0x02 goes out.
            logger.notice("configureAndStart without initialize after a stop: answered 0x02, nothing started")
            staleStarts += 1
            await closeSession()
            await send(.accessoryUWBDidStart)
            setState(.idle)
            return
        }
        let parameters: FiRaSessionParameters
        do {
            parameters = try derive(configuration.profile)
        } catch {
            refuse("cannot derive a session: \(error)", protocolError: error)
            if session == nil { setState(.idle) } else { setState(.ranging) }
            return
        }
        await closeSession()
        lastConfigureOwnWork = .now - arrival
        setState(.starting(cached: false))
        do {
            let opened = try await client.openSession(id: sessionID, parameters: parameters, samples: lane.sink(for: sessionID))
            attach(opened)
            lastParameters = parameters
            deviceParameters.update(from: parameters, sessionID: sessionID)
            try await opened.start()
        } catch {
            report(.uwb, "the kit did not start session \(Hex.prefixed(sessionID)): \(error.reason)", remedy: error.remedy, uwbError: error)
            await closeSession()
            await send(.accessoryUWBDidStop)
            setState(.idle)
            return
        }
        runningSessionID = sessionID
        startedSessionIDs.append(sessionID)
        // The session is ACTIVE (UCIClient.startSession waits for SESSION_STATUS_NTF(ACTIVE)).
        guard await send(.accessoryUWBDidStart) else { return }
        lane.begin(session: sessionID, at: MonotonicTime.seconds())
        setState(.ranging)
        logger.info("session \(Hex.prefixed(sessionID)) ranging with the phone at \(parameters.destinationMACAddresses.first.map(\.description) ?? "?"); own work \(Self.text(lastConfigureOwnWork)), 0x02 \(Self.text(.now - arrival)) after 0x0B arrived")
    }

    // MARK: The kit's session

    private func attach(_ opened: UWBSession) {
        generation += 1
        let generation = generation
        let mailbox = mailbox
        session = opened
        uwbPump?.cancel()
        uwbPump = Task {
            for await event in opened.events { mailbox.post(.uwb(event, generation: generation)) }
        }
    }

    /// Stops the session (if any): from now on a fresh initialize is needed
    /// (``AccessoryRoleConfiguration/requiresInitializeAfterStop``).
    private func stopSession() async {
        if session != nil { initialized = false }
        await closeSession()
    }

    /// Closes the session (if any).
    private func closeSession() async {
        guard let open = session else { return }
        session = nil
        runningSessionID = nil
        lane.pause()
        generation += 1
        uwbPump?.cancel()
        uwbPump = nil
        do {
            try await open.close()
        } catch where error.code == .sessionNotOpen || error.code == .unavailable || error.code == .closed {
            // Already gone with the kit.
        } catch {
            logger.notice("closing session \(Hex.prefixed(open.id)): \(error.reason)")
        }
        if state == .ranging { setState(.idle) }
    }

    private func handle(_ event: UWBSessionEvent) async {
        switch event {
        case .stateChanged(let state, let reason)
            where state == .deinitialized || (state == .idle && reason != .stateChangeWithSessionManagementCommands):
            emit(.uwb(event))
            guard session != nil else { return }
            report(.uwb, "the kit stopped the session (\(reason)): accessoryUwbDidStop sent")
            await stopSession()
            await send(.accessoryUWBDidStop)
            setState(.idle)
        case .restoreFailed(let error):
            emit(.uwb(event))
            report(.uwb, "the kit lost the session: \(error.reason)", uwbError: error)
            await stopSession()
            await send(.accessoryUWBDidStop)
            setState(.idle)
        case .interrupted:
            emit(.uwb(event))
            lane.setInterrupted(true, at: MonotonicTime.seconds())
        case .restored:
            emit(.uwb(event))
            lane.setInterrupted(false, at: MonotonicTime.seconds())
        case .stateChanged, .measurements:
            return
        }
    }

    // MARK: Output

    /// `0.123 ms` (for logs).
    static func text(_ duration: Duration?) -> String {
        duration.map { DecimalText.trimmed($0.inSeconds * 1000, decimals: 3) + " ms" } ?? "?"
    }

    private func scaled(_ time: Double) -> Double { lane.scaled(time) }

    private func emit(_ kind: NearbySessionEvent.Kind, at time: Double? = nil, droppable: Bool = false) {
        output?.post(NearbySessionEvent(accessory: phone, time: time ?? scaled(MonotonicTime.seconds()), kind: kind), droppable: droppable)
    }

    private func setState(_ new: AccessorySessionState) {
        guard new != state else { return }
        reportLosses()
        state = new
        logger.info("state: \(new)")
        emit(.state(new))
    }

    /// A message refused: counted, logged, reported; nothing goes to the phone.
    private func refuse(_ reason: String, protocolError: NIProtocolError? = nil) {
        refusedCount += 1
        report(.protocolViolation, reason, protocolError: protocolError)
    }

    private func report(_ code: AccessorySessionError.Code, _ reason: String, remedy: String? = nil,
                        protocolError: NIProtocolError? = nil, uwbError: UCIClientError? = nil) {
        let error = AccessorySessionError(code, accessory: phone.description, reason: reason, remedy: remedy,
                                          protocolError: protocolError, uwbError: uwbError)
        logger.warning("\(error)")
        emit(.error(error))
    }

    @discardableResult
    private func send(_ message: NIMessage) async -> Bool {
        await send(raw: message.encoded(), id: message.id)
    }

    @discardableResult
    private func send(raw bytes: [UInt8], id: NIMessageID) async -> Bool {
        do {
            try await channel.send(bytes)
            logger.debug("> \(id)")
            return true
        } catch {
            logger.notice("cannot send \(id) to the phone: \(error)")
            return false
        }
    }
}

