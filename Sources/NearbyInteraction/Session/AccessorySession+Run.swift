import Logging
import LowEnergy
import NearbySupport
import Ranging
import UCI
import UWBDevice
import NIProtocol
import NearbyBase

/// Why the run loop left what it was doing.
enum SessionInterrupt: Error {
    /// ``AccessorySession/stop()`` (or cancellation): leave at once; stop() cleans up.
    case stop
    /// The data channel's link went down.
    case linkLost(HCIStatus)
    /// The local UWB session is gone but the accessory still runs its session: re-create the
    /// local session with the cached configuration (nothing is sent to the accessory).
    case restart(RetryEvent.Reason)
    /// Ranging stopped or the session ended: start over (0x0C, 0x0A, a fresh configuration).
    case startOver(RetryEvent.Reason)
    /// Reconnecting failed or was skipped: reconnect again.
    case reconnect(RetryEvent.Reason)
    /// Give up now (the error says why).
    case fatal(AccessorySessionError)
}

extension AccessorySession {
    // MARK: The state machine

    /// Runs until stopped or given up. Each pass does one step (start over, restart the local
    /// session with the cached configuration, or reconnect then start over) and ranges until
    /// interrupted; an interruption picks the next step and counts a try of the recovery.
    func run() async {
        var action: RetryEvent.Action = .startOver
        var delay: Duration = .zero
        while true {
            do throws(SessionInterrupt) {
                if delay > .zero { try await sleep(for: delay) }
                switch action {
                case .startOver:
                    try await startOver()
                case .restartWithCachedConfiguration:
                    try await restartWithCachedConfiguration()
                case .reconnect:
                    try await reconnectChannel()
                    try await startOver()
                }
                try await rangeUntilInterrupted()
            } catch {
                let reason: RetryEvent.Reason
                switch error {
                case .stop:
                    return
                case .fatal(let failure):
                    await fail(failure)
                    return
                case .linkLost(let status):
                    // Accessories stop ranging when the link drops (Qorvo, nrfuwb, Truesense):
                    // the local session goes too; after reconnecting, start over.
                    accessoryConfigured = false
                    await closeUWBSession()
                    reason = .linkLost(status)
                    action = .reconnect
                case .reconnect(let why):
                    reason = why
                    action = .reconnect
                case .restart(let why):
                    reason = why
                    action = plan != nil && accessoryConfigured && linkUp ? .restartWithCachedConfiguration : .startOver
                case .startOver(let why):
                    reason = why
                    action = linkUp ? .startOver : .reconnect
                }
                attempts += 1
                let policy = configuration.retry
                guard policy.allows(attempt: attempts) else {
                    await fail(giveUpError(after: reason))
                    return
                }
                delay = policy.backoff(beforeAttempt: attempts)
                let retry = RetryEvent(reason: reason, action: action, attempt: attempts, maxAttempts: policy.maxAttempts, delay: delay)
                logger.notice("\(retry)")
                emit(.retry(retry))
                setState(.waitingToRetry(attempt: attempts, delay: delay))
            }
        }
    }

    /// Gives up: the error, then the cleanup, then the final state.
    private func fail(_ error: AccessorySessionError) async {
        logger.error("\(error)")
        emit(.error(error))
        await cleanUp()
        finish(.failed(error.reason))
    }

    private func giveUpError(after reason: RetryEvent.Reason) -> AccessorySessionError {
        let tries = configuration.retry.maxAttempts
        let remedy: String
        switch reason {
        case .linkLost, .reconnectFailed, .notNearby:
            remedy = "Bring the accessory closer (or power it on) and start again."
        case .accessoryDidNotAnswer, .accessoryDidNotStart, .configurationRejected, .accessoryStopped:
            remedy = "Check that the accessory runs NI accessory firmware and is not ranging with another phone; power-cycle it and start again."
        case .uwbStopped, .uwbFailed:
            remedy = "Check the dev kit (nearby uwb info) and start again."
        case .noRange, .dataChannelFailed:
            remedy = "Bring the accessory within UWB range (line of sight helps) and start again."
        }
        return AccessorySessionError(
            .gaveUp, accessory: identity.description,
            reason: "gave up after \(tries) tr\(tries == 1 ? "y" : "ies"): \(reason)", remedy: remedy)
    }

    // MARK: Steps

    /// Start over, as Apple's sample app does after a timeout and as accessories need (Qorvo's
    /// `niq_reinit()` runs only on initialize): close the local session; if a configuration was
    /// sent before, stop (0x0C) and wait for the accessory's 0x03 (``AccessorySessionConfiguration/stopTimeout``;
    /// a 0x03 then answers the stop and is no rejection); initialize (0x0A / 0xA5), receive the
    /// *fresh* configuration data, plan from it, configure the dev kit, send configureAndStart
    /// (0x0B), wait for accessoryUwbDidStart, start ranging. Configuration data that cannot be
    /// used (it does not parse, or names a role NI cannot range with) gets one more initialize
    /// before the session fails, naming the field.
    func startOver() async throws(SessionInterrupt) {
        guard linkUp else { throw .linkLost(lastLinkReason) }
        await closeUWBSession()
        if accessoryConfigured || plan != nil {
            try await stopAccessory()
        }

        setState(.initializing)
        var refused: AccessorySessionError?
        var planned: (plan: SessionPlan, arrival: ContinuousClock.Instant, initialize: Duration)?
        while planned == nil {
            do throws(SessionInterrupt) {
                let asked = ContinuousClock.now
                let (accessoryConfiguration, arrival) = try await initialize()
                setState(.configuring)
                planned = (try await makePlan(for: accessoryConfiguration), arrival, arrival - asked)
            } catch .fatal(let error) where error.code == .invalidConfigurationData && refused == nil {
                refused = error
                logger.warning("\(error.reason); asking once more (initialize)")
                emit(.error(error))
                setState(.initializing)
            }
        }
        guard let (plan, arrival, initializeTime) = planned else { return }

        // From the 0x01's arrival to configureAndStart leaving: the latency budget.
        let uwbStart = ContinuousClock.now
        let session = try await openUWBSession(plan)
        let uwbTime = ContinuousClock.now - uwbStart
        attach(session)
        let bytes = plan.configureMessage.encoded()
        let sending = ContinuousClock.now
        try await send(bytes, id: .configureAndStart)
        let sent = ContinuousClock.now
        let latency = SessionLatency(total: sent - arrival, uwbConfiguration: uwbTime, send: sent - sending, initialize: initializeTime)
        self.plan = plan
        self.latency = latency
        accessoryConfigured = true
        configurationCount += 1
        if latency.isWithinBudget {
            logger.info("configured \(plan.summary); 0x01 -> 0x0B: \(latency)")
        } else {
            logger.warning("configured \(plan.summary); 0x01 -> 0x0B over budget: \(latency)")
        }
        emit(.configured(plan, latency))
        try await awaitAccessoryStart(cached: false)
    }

    /// Stop (0x0C), then wait up to ``AccessorySessionConfiguration/stopTimeout`` for the
    /// accessory's accessoryUwbDidStop (0x03) that answers it (Qorvo, NXP and Truesense always
    /// answer; silence is logged, not an error).
    private func stopAccessory() async throws(SessionInterrupt) {
        try await send(.stop)
        accessoryConfigured = false
        let timeout = configuration.stopTimeout
        let answered = try await waitForMessage(until: .now.advanced(by: timeout)) { incoming throws(SessionInterrupt) -> Bool? in
            if case .success(.accessoryUWBDidStop) = incoming.decoded { return true }
            return nil
        }
        if answered == nil {
            logger.notice("the accessory did not answer stop (0x0C) within \(timeout.secondsText); initializing anyway")
        } else {
            logger.debug("< accessoryUwbDidStop (0x03), answering stop")
        }
    }

    /// Sends initialize and waits for the configuration data (0x01): the data and its arrival.
    /// - Throws: `.startOver` when it does not come in time; `.fatal` (invalidConfigurationData,
    ///   naming the field) when it does not parse.
    private func initialize() async throws(SessionInterrupt) -> (SessionPlan.AccessoryConfiguration, ContinuousClock.Instant) {
        let initialize: NIMessage = configuration.dialect == .apple ? .initialize : .androidInitialize
        try await send(initialize)
        let timeout = configuration.configurationTimeout
        let received = try await waitForMessage(until: .now.advanced(by: timeout)) { incoming throws(SessionInterrupt) -> (SessionPlan.AccessoryConfiguration, ContinuousClock.Instant)? in
            switch incoming.decoded {
            case .success(.accessoryConfigurationData(let data)): return (.apple(data), incoming.arrival)
            case .success(.androidAccessoryConfigurationData(let data)): return (.android(data), incoming.arrival)
            case .failure(let error) where error.messageID == .accessoryConfigurationData:
                throw .fatal(AccessorySessionError(
                    .invalidConfigurationData, accessory: identity.description,
                    reason: "invalid accessory configuration data: \(error)",
                    remedy: "The accessory's firmware sends malformed configuration data (0x01); update it or report it to its maker.",
                    protocolError: error))
            default: return nil
            }
        }
        guard let received else { throw .startOver(.accessoryDidNotAnswer(timeout: timeout)) }
        logUnknownBytes(received.0)
        return received
    }

    /// Logs bytes the accessory sent beyond the layout it announces (kept, not used).
    private func logUnknownBytes(_ data: SessionPlan.AccessoryConfiguration) {
        switch data {
        case .apple(let acd) where acd.hasUnknownBytes:
            logger.notice(
                "the accessory's configuration data carries bytes beyond its v\(acd.uwbConfiguration.version) layout (ignored): UWB config extra \(Hex.bytes(acd.uwbConfiguration.extraBytes)), trailing \(Hex.bytes(acd.trailingBytes))")
        case .android(let device) where !device.trailingBytes.isEmpty:
            logger.notice("the accessory's UwbDeviceConfigData carries \(device.trailingBytes.count) trailing bytes (ignored): \(Hex.bytes(device.trailingBytes))")
        default:
            break
        }
    }

    /// Restart with the cached configuration, for our own kit restarting a session the
    /// accessory still runs (the kit ended or could not restore our session, nothing stopped
    /// the accessory's): re-create and start the local session with the cached plan; nothing
    /// is sent to the accessory. If the accessory has stopped after all, `lost` follows and the
    /// next try starts over.
    func restartWithCachedConfiguration() async throws(SessionInterrupt) {
        guard let plan, accessoryConfigured, linkUp else { throw .startOver(.uwbFailed("no cached configuration")) }
        setState(.starting(cached: true))
        await closeUWBSession()
        let session = try await openUWBSession(plan)
        attach(session)
        try await startLocalSession()
    }

    /// Waits for accessoryUwbDidStart (0x02), then starts the local session.
    private func awaitAccessoryStart(cached: Bool) async throws(SessionInterrupt) {
        setState(.starting(cached: cached))
        let timeout = configuration.startTimeout
        let started = try await waitForMessage(until: .now.advanced(by: timeout)) { incoming throws(SessionInterrupt) -> Bool? in
            switch incoming.decoded {
            case .success(.accessoryUWBDidStart): true
            case .success(.accessoryUWBDidStop): false
            default: nil
            }
        }
        switch started {
        case nil: throw .startOver(.accessoryDidNotStart(timeout: timeout))
        case false?:
            accessoryConfigured = false
            throw .startOver(.configurationRejected)
        case true?: break
        }
        try await startLocalSession()
    }

    /// Starts the local session (if not active) and ranges: silence counts from now, so `lost`
    /// (and with it the next retry) comes if no usable sample follows within lostAfter.
    private func startLocalSession() async throws(SessionInterrupt) {
        guard let session = uwbSession else { throw .startOver(.uwbFailed("the local session was closed")) }
        if await session.state != .active {
            do {
                try await session.start()
            } catch {
                try handleUWBError(error, doing: "start the local session")
            }
        }
        uwbInterrupted = false
        laneEpoch = lane.begin(session: session.id, at: MonotonicTime.seconds())
        setState(.ranging)
    }

    /// Ranges until something interrupts: the lane's signals, link and UWB events are handled on
    /// the way (samples never come here: the lane takes them on the transport's reader).
    func rangeUntilInterrupted() async throws(SessionInterrupt) {
        while true {
            _ = try await waitForMessage(until: nil) { incoming throws(SessionInterrupt) -> Bool? in
                if case .success(.accessoryUWBDidStop) = incoming.decoded { throw .startOver(.accessoryStopped) }
                return nil
            }
        }
    }

    /// Reconnects the data channel (one try), unless the proximity check says the accessory is
    /// not advertising.
    func reconnectChannel() async throws(SessionInterrupt) {
        guard !linkUp else { return }
        if let nearby = configuration.advertisingSeenRecently, await !nearby() {
            throw .reconnect(.notNearby)
        }
        setState(.connecting(attempt: attempts))
        // The controller makes one connection attempt at a time: when every link drops at once,
        // every session reconnects at once and all but one find the host busy. Waiting for our
        // turn is not a failed try (it used to use up the tries of one session in eight);
        // only a host busy for longer than three reconnect timeouts counts as one.
        let clock = ContinuousClock()
        let waitingSince = clock.now
        while true {
            do {
                try await channel.reconnect(timeout: configuration.reconnectTimeout)
                break
            } catch {
                if Task.isCancelled { throw .stop }
                if case .notReady = error {
                    throw .fatal(AccessorySessionError(
                        .dataChannel, accessory: identity.description, reason: "the data channel was closed: \(error)",
                        bluetoothError: error))
                }
                if case .busy = error, clock.now - waitingSince < configuration.reconnectTimeout * 3 {
                    logger.debug("the controller is connecting to another accessory; waiting for our turn")
                    try await sleep(for: .milliseconds(Int.random(in: 50...150)))
                    continue
                }
                throw .reconnect(.reconnectFailed("\(error)"))
            }
        }
        linkUp = true
        logger.info("data channel reconnected")
    }

    // MARK: Planning and the dev kit

    private func makePlan(for accessory: SessionPlan.AccessoryConfiguration) async throws(SessionInterrupt) -> SessionPlan {
        if localDevice == nil, let info = await client.deviceInfo {
            localDevice = LocalUWBDevice(deviceInfo: info, capabilities: await client.capabilities)
        }
        let device = localDevice ?? LocalUWBDevice(uciVersion: .v2_0)
        let excluding = Set(await client.openSessionIDs)
        do {
            switch accessory {
            case .apple(let data): return try planner.plan(for: data, device: device, excluding: excluding)
            case .android(let data):
                var generator = SystemRandomNumberGenerator()
                return try planner.plan(for: data, device: device, excluding: excluding, using: &generator)
            }
        } catch {
            if case .unusableRole = error.reason {
                throw .fatal(AccessorySessionError(
                    .invalidConfigurationData, accessory: identity.description, reason: "unusable accessory configuration data: \(error)",
                    remedy: "The accessory announces a UWB role NI cannot range with; check its firmware's NI mode.",
                    planningError: error))
            }
            throw .fatal(AccessorySessionError(
                .planningFailed, accessory: identity.description, reason: "cannot plan a session: \(error)", planningError: error))
        }
    }

    private func openUWBSession(_ plan: SessionPlan) async throws(SessionInterrupt) -> UWBSession {
        do {
            return try await client.openSession(id: plan.sessionID, parameters: plan.hostParameters, samples: lane.sink(for: plan.sessionID))
        } catch {
            switch error.code {
            case .sessionLimit where attempts > 0:
                // A recovery: this accessory had a slot and gave it back. A full kit now means
                // sessions still closing (several links lost at once: the others' STOP + DEINIT
                // queue behind this SESSION_INIT), so try again after the backoff; the retry
                // policy bounds it.
                logger.notice("the dev kit is full while recovering (\(error.reason)); trying again")
                throw .startOver(.uwbFailed(error.reason))
            case .sessionLimit:
                throw .fatal(AccessorySessionError(
                    .sessionLimit, accessory: identity.description,
                    reason: "the dev kit cannot run another session: \(error.reason)",
                    remedy: "Range with fewer accessories at once, or use a dev kit that runs more sessions; the others keep ranging.",
                    uwbError: error))
            case .duplicateSession:
                throw .startOver(.uwbFailed(error.reason))
            default:
                try handleUWBError(error, doing: "open the local session")
                throw .startOver(.uwbFailed(error.reason))
            }
        }
    }

    /// Maps a UCI client error: configuration problems are fatal, cancellation stops, anything
    /// else (timeouts, the dev kit away or reset) starts over.
    func handleUWBError(_ error: UCIClientError, doing what: String) throws(SessionInterrupt) {
        switch error.code {
        case .cancelled:
            throw .stop
        case .invalidState:
            logger.debug("could not \(what): \(error.reason)")
            return
        case .invalidParameters, .parametersRejected, .closed, .notOpen:
            throw .fatal(AccessorySessionError(
                .uwb, accessory: identity.description, reason: "could not \(what): \(error.reason)", remedy: error.remedy,
                uwbError: error))
        default:
            throw .startOver(.uwbFailed(error.reason))
        }
    }

    // MARK: The data channel

    /// Sends one NI message.
    func send(_ message: NIMessage) async throws(SessionInterrupt) {
        try await send(message.encoded(), id: message.id)
    }

    /// Sends one encoded NI message.
    func send(_ bytes: [UInt8], id: NIMessageID) async throws(SessionInterrupt) {
        do {
            try await channel.send(bytes)
            logger.debug("> \(id)")
        } catch {
            switch error {
            case .disconnected(let reason):
                linkUp = false
                lastLinkReason = reason
                throw .linkLost(reason)
            case .cancelled, .connectionCancelled:
                throw .stop
            case .notReady, .messageTooLong:
                throw .fatal(AccessorySessionError(
                    .dataChannel, accessory: identity.description, reason: "cannot send \(id): \(error)",
                    remedy: "A v2.0 exchange needs ATT_MTU ≥ 52; check the data channel.", bluetoothError: error))
            default:
                if Task.isCancelled { throw .stop }
                throw .startOver(.dataChannelFailed("\(error)"))
            }
        }
    }
}
