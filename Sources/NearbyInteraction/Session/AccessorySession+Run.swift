import Logging
import LowEnergy
import NearbySupport
import Ranging
import UCI
import UWBDevice
import NIProtocol

/// Why the run loop left what it was doing.
enum SessionInterrupt: Error {
    /// ``AccessorySession/stop()`` (or cancellation): leave at once; stop() cleans up.
    case stop
    /// The data channel's link went down.
    case linkLost(HCIStatus)
    /// Ranging stopped but the session may live on: restart with the cached configuration.
    case restart(RetryEvent.Reason)
    /// The session ended: start over with a new configuration.
    case startOver(RetryEvent.Reason)
    /// Reconnecting failed or was skipped: reconnect again.
    case reconnect(RetryEvent.Reason)
    /// Give up now (the error says why).
    case fatal(AccessorySessionError)
}

extension AccessorySession {
    // MARK: The state machine

    /// Runs until stopped or given up. Each pass does one step (start over, restart with the
    /// cached configuration, or reconnect then start over) and ranges until interrupted; an
    /// interruption picks the next step and counts a try of the recovery.
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
                    action = plan != nil && uwbSession != nil ? .restartWithCachedConfiguration : .startOver
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

    /// Start over: stop (0x0C) if a configuration was sent before, close the local session,
    /// initialize, receive and validate the configuration data, plan, configure the dev kit,
    /// send configureAndStart, wait for accessoryUwbDidStart, start ranging.
    func startOver() async throws(SessionInterrupt) {
        guard linkUp else { throw .linkLost(lastLinkReason) }
        // As Apple's sample: stop (0x0C) before initialize whenever a configuration was sent,
        // whatever the accessory did since (it may still run it; stopping twice is harmless).
        if accessoryConfigured || plan != nil {
            try await send(.stop)
            accessoryConfigured = false
        }
        await closeUWBSession()

        setState(.initializing)
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
        guard let (accessoryConfiguration, arrival) = received else {
            throw .startOver(.accessoryDidNotAnswer(timeout: timeout))
        }

        // From here to configureAndStart leaving: the latency budget.
        setState(.configuring)
        let plan = try await makePlan(for: accessoryConfiguration)
        let uwbStart = ContinuousClock.now
        let session = try await openUWBSession(plan)
        let uwbTime = ContinuousClock.now - uwbStart
        attach(session)
        let bytes = plan.configureMessage.encoded()
        let sending = ContinuousClock.now
        try await send(bytes, id: .configureAndStart)
        let sent = ContinuousClock.now
        let latency = SessionLatency(total: sent - arrival, uwbConfiguration: uwbTime, send: sent - sending)
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

    /// Restart with the cached configuration: stop the local session if it ranges, send the
    /// same configureAndStart again, wait for accessoryUwbDidStart, start ranging.
    func restartWithCachedConfiguration() async throws(SessionInterrupt) {
        guard let plan, let session = uwbSession else { throw .startOver(.uwbFailed("no cached configuration")) }
        setState(.starting(cached: true))
        if await session.state == .active {
            do {
                try await session.stop()
            } catch {
                try handleUWBError(error, doing: "stop the local session")
            }
        }
        try await send(plan.configureMessage)
        accessoryConfigured = true
        try await awaitAccessoryStart(cached: true)
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
        guard let session = uwbSession else { throw .startOver(.uwbFailed("the local session was closed")) }
        if await session.state != .active {
            do {
                try await session.start()
            } catch {
                try handleUWBError(error, doing: "start the local session")
            }
        }
        // Silence counts from now: `lost` (and with it the next retry) comes if no usable sample
        // follows within lostAfter.
        pipeline.expectSamples(since: scaled(MonotonicTime.seconds()))
        uwbInterrupted = false
        setState(.ranging)
    }

    /// Ranges until something interrupts: samples and ticks are handled on the way.
    func rangeUntilInterrupted() async throws(SessionInterrupt) {
        while true {
            _ = try await waitForMessage(until: nil) { incoming throws(SessionInterrupt) -> Bool? in
                if case .success(.accessoryUWBDidStop) = incoming.decoded { throw .restart(.accessoryStopped) }
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
        do {
            try await channel.reconnect(timeout: configuration.reconnectTimeout)
        } catch {
            if Task.isCancelled { throw .stop }
            if case .notReady = error {
                throw .fatal(AccessorySessionError(
                    .dataChannel, accessory: identity.description, reason: "the data channel was closed: \(error)",
                    bluetoothError: error))
            }
            throw .reconnect(.reconnectFailed("\(error)"))
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
            throw .fatal(AccessorySessionError(
                .planningFailed, accessory: identity.description, reason: "cannot plan a session: \(error)", planningError: error))
        }
    }

    private func openUWBSession(_ plan: SessionPlan) async throws(SessionInterrupt) -> UWBSession {
        do {
            return try await client.openSession(id: plan.sessionID, parameters: plan.hostParameters, samples: sampleSink())
        } catch {
            switch error.code {
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
