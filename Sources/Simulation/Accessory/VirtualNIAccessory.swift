public import Logging
public import LowEnergy
public import NIProtocol
public import UCI
public import UWBDevice

/// A virtual Nearby Interaction accessory: the accessory side of the NI protocol (our own code,
/// modelled on Qorvo's firmware), speaking over a ``DataChannel`` and ranging through its own
/// ``UCIClient``, typically on a device of a ``VirtualUWBSWorld`` placed as a scenario accessory.
///
/// | Receives | Does |
/// |---|---|
/// | initialize 0x0A (0xA5) | stops and closes a running session; answers 0x01 with its ACD (UwbDeviceConfigData) |
/// | configureAndStart 0x0B | closes a running session; derives its FiRa parameters (``NIFiRaDerivation``, Qorvo's rules), opens and starts the session; answers 0x02 (0x03 if the dev kit refuses) |
/// | stop 0x0C | stops and closes the session; answers 0x03 |
/// | link loss | stops and closes the session (as Qorvo, nrfuwb and Truesense do) |
///
/// Faults (``VirtualNIAccessoryFault``) make it slow, malformed, silent or refuse restarts;
/// ``stopRanging()`` stops mid-session and sends 0x03; ``loseLink()`` drops the BLE link.
public actor VirtualNIAccessory {
    /// What it announces.
    public nonisolated let configuration: VirtualNIAccessoryConfiguration
    /// Its end of the data channel.
    public nonisolated let channel: any DataChannel
    /// Its UWB dev kit.
    public nonisolated let client: UCIClient
    let logger: Logger

    /// The faults in effect.
    public private(set) var faults: Set<VirtualNIAccessoryFault> = []
    /// Every message ID received and answered, in order (for tests).
    public private(set) var received: [NIMessageID] = []
    /// How many messages were ignored because of the ``VirtualNIAccessoryFault/silent`` fault.
    public private(set) var ignoredCount = 0
    /// The session ID of the running session, `nil` when not ranging.
    public private(set) var runningSessionID: UInt32?
    /// Every session ID it started, in order.
    public private(set) var startedSessionIDs: [UInt32] = []
    /// The FiRa parameters of the last session it configured.
    public private(set) var lastParameters: FiRaSessionParameters?

    private var session: UWBSession?
    private var dialect: NIDialect = .apple
    private var lastSessionID: UInt32?
    private var tasks: [Task<Void, Never>] = []
    private var started = false

    /// Creates an accessory.
    /// - Parameters:
    ///   - channel: its end of the data channel (e.g. of ``InMemoryDataChannel/makePair(maximumMessageLength:)``).
    ///   - transport: its UWB dev kit, e.g. `world.makeTransport(placement: .accessory(0))`.
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

    /// Opens its dev kit and starts answering messages.
    /// - Throws: the client's error if the dev kit does not open.
    public func start() async throws(UCIClientError) {
        guard !started else { return }
        started = true
        try await client.open()
        let channel = channel
        tasks = [
            Task { [weak self] in
                for await message in channel.messages {
                    guard let self else { return }
                    await self.handle(message)
                }
            },
            Task { [weak self] in
                for await event in channel.events {
                    guard let self else { return }
                    await self.handle(event)
                }
            },
        ]
    }

    /// Stops answering, closes the session and the dev kit.
    public func shutdown() async {
        for task in tasks { task.cancel() }
        tasks = []
        await closeSession()
        await client.close()
    }

    /// Turns a fault on or off.
    public func setFault(_ fault: VirtualNIAccessoryFault, _ on: Bool = true) async {
        if on {
            faults.insert(fault)
            if fault == .silent { await closeSession() }
        } else {
            faults.remove(fault)
        }
    }

    /// Stops ranging mid-session (as if the firmware ended it) and sends accessoryUwbDidStop
    /// (0x03).
    public func stopRanging() async {
        await closeSession()
        await send(.accessoryUWBDidStop)
    }

    /// Drops the BLE link (both ends see a disconnection with `reason`); needs an
    /// ``InMemoryDataChannel``.
    public func loseLink(reason: HCIStatus = .connectionTimeout) {
        (channel as? InMemoryDataChannel)?.simulateLinkLoss(reason: reason)
    }

    // MARK: Messages

    private func handle(_ bytes: [UInt8]) async {
        guard !faults.contains(.silent) else {
            ignoredCount += 1
            return
        }
        let message: NIMessage
        do {
            message = try NIMessage(decoding: bytes, dialect: nil)
        } catch {
            logger.notice("undecodable message: \(error)")
            return
        }
        received.append(message.id)
        logger.debug("< \(message.id)")
        switch message {
        case .initialize, .androidInitialize:
            dialect = message == .initialize ? .apple : .android
            await closeSession()
            await answerInitialize()
        case .configureAndStart(let shareable):
            let parameters = NIFiRaDerivation.accessoryParameters(
                shareable: shareable, accessory: configuration.accessoryConfigurationData().uwbConfiguration,
                keyByteOrder: configuration.keyByteOrder)
            await configure(sessionID: shareable.sessionID, parameters: parameters)
        case .androidConfigureAndStart(let phone):
            guard let device = try? configuration.androidConfigurationData() else { return }
            let parameters = NIFiRaDerivation.accessoryParameters(
                phone: phone, accessory: device, rangingIntervalMS: configuration.androidRangingIntervalMS)
            await configure(sessionID: phone.sessionID, parameters: parameters)
        case .stop:
            await closeSession()
            await send(.accessoryUWBDidStop)
        default:
            break
        }
    }

    private func answerInitialize() async {
        for fault in faults {
            if case .slowConfiguration(let delay) = fault { try? await Task.sleep(for: delay) }
        }
        if faults.contains(.invalidConfiguration) {
            // uwbConfigDataLength 20: no layout has it.
            var bytes = configuration.accessoryConfigurationData().encoded()
            bytes[AccessoryConfigurationData.headerByteCount - 1] = 20
            bytes = Array(bytes.prefix(AccessoryConfigurationData.headerByteCount)) + Array(repeating: 0, count: 20)
            await send(raw: [NIMessageID.accessoryConfigurationData.rawValue] + bytes)
            return
        }
        switch dialect {
        case .apple:
            await send(.accessoryConfigurationData(configuration.accessoryConfigurationData()))
        case .android:
            do {
                await send(.androidAccessoryConfigurationData(try configuration.androidConfigurationData()))
            } catch {
                logger.error("cannot build the Android configuration: \(error)")
            }
        }
    }

    private func configure(sessionID: UInt32, parameters: FiRaSessionParameters) async {
        if faults.contains(.refuseRestart), sessionID == lastSessionID {
            logger.info("refusing to restart session \(sessionID)")
            await closeSession()
            await send(.accessoryUWBDidStop)
            return
        }
        await closeSession()
        do {
            // The accessory's own range results are not used: discarded at once (a stream
            // nobody reads would fill up and warn about dropped samples every 100).
            let session = try await client.openSession(
                id: sessionID, parameters: parameters, samples: UWBSampleSink(deliver: { _ in true }))
            self.session = session
            lastParameters = parameters
            try await session.start()
            runningSessionID = sessionID
            lastSessionID = sessionID
            startedSessionIDs.append(sessionID)
            // Qorvo sends 0x02 as soon as its start call returns OK.
            await send(.accessoryUWBDidStart)
        } catch {
            logger.warning("cannot start session \(sessionID): \(error)")
            await closeSession()
            await send(.accessoryUWBDidStop)
        }
    }

    private func handle(_ event: DataChannelEvent) async {
        if case .disconnected = event {
            logger.info("link lost: stopping the session")
            await closeSession()
        }
    }

    private func closeSession() async {
        guard let session else { return }
        self.session = nil
        runningSessionID = nil
        do {
            try await session.close()
        } catch {
            logger.debug("closing session \(session.id): \(error.reason)")
        }
    }

    private func send(_ message: NIMessage) async {
        await send(raw: message.encoded())
    }

    private func send(raw bytes: [UInt8]) async {
        do {
            try await channel.send(bytes)
            logger.debug("> \(bytes.first.map { NIMessageID(rawValue: $0) }.map { "\($0)" } ?? "?")")
        } catch {
            logger.notice("cannot send: \(error)")
        }
    }
}
