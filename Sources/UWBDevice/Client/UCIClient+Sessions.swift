import Logging
import NearbySupport
import UCI

// The session state machine: INIT -> IDLE -> ACTIVE -> IDLE -> DEINIT. The caller holds the gate.
extension UCIClient {
    /// SESSION_INIT; maps the token (2.0 handle or 1.1 ID).
    func initializeSession(_ id: UInt32) async throws(UCIClientError) {
        guard let record = sessions[id] else { throw notOpenError(id) }
        let command = UCICommand.sessionInit(sessionID: id, type: record.type)
        let response = try await execute(command, initializingSession: id)
        guard case .sessionInit(let status, let handle) = response, status.isOK else {
            let status = response.status ?? .unknown
            if status == .maxSessionsExceeded { throw sessionLimitError(id) }
            throw UCIClientError.failed(command.name, status: status, device: device, session: id)
        }
        mapSession(id, token: handle ?? id)
    }

    /// SESSION_SET_APP_CONFIG with `configs`, then waits for SESSION_STATE_IDLE.
    func configureSession(_ id: UInt32, configs: [UCIAppConfig]) async throws(UCIClientError) {
        let token = try token(of: id)
        let command = UCICommand.setAppConfig(session: token, configs: configs)
        let response = try await execute(command)
        var refused: [UCIAppConfigStatus] = []
        if case .setAppConfig(_, let results) = response { refused = results.filter { !$0.status.isOK } }
        let status = response.status ?? .unknown
        guard status.isOK && refused.isEmpty else {
            throw parametersRejectedError(id, command: command.name, status: status, refused: refused, configs: configs)
        }
        try await waitForState(id, .idle, after: command.name)
    }

    /// SESSION_START, then waits for SESSION_STATE_ACTIVE. A SESSION_ACTIVE (0x13) answer means
    /// the UWBS already ranges: success (uwb_core does the same), the state is confirmed the
    /// usual way.
    func startRanging(_ id: UInt32) async throws(UCIClientError) {
        let command = UCICommand.sessionStart(session: try token(of: id))
        let response = try await execute(command)
        if response.status == .sessionActive {
            logger.notice("\(command.name): the UWBS says \(UCIClientError.sessionName(id)) is already active; taken as started")
        } else if !(response.status?.isOK ?? false) {
            let state = sessions[id]?.state
            throw UCIClientError.failed(command.name, status: response.status ?? .unknown, device: device, session: id, state: state)
        }
        sessions[id]?.wantsActive = true
        try await waitForState(id, .active, after: command.name)
    }

    /// SESSION_STOP, then waits for SESSION_STATE_IDLE.
    func stopRanging(_ id: UInt32) async throws(UCIClientError) {
        let command = UCICommand.sessionStop(session: try token(of: id))
        sessions[id]?.wantsActive = false
        try await executeExpectingOK(command, session: id)
        try await waitForState(id, .idle, after: command.name)
    }

    /// Stops (if ranging) and deinitializes a session, then forgets it.
    func deinitializeSession(_ id: UInt32) async throws(UCIClientError) {
        guard let record = sessions[id] else { throw notOpenError(id) }
        if record.state == .active {
            do {
                try await stopRanging(id)
            } catch let error where error.code == .commandFailed || error.code == .invalidState {
                logger.notice("stopping \(UCIClientError.sessionName(id)) before closing it failed: \(error.reason); deinitializing anyway")
            }
        }
        guard let token = sessions[id]?.token else { return }  // the UWBS deinitialized it meanwhile
        sessions[id]?.closing = true
        let command = UCICommand.sessionDeinit(session: token)
        let response: UCIResponse
        do {
            response = try await execute(command)
        } catch {
            sessions[id]?.closing = false
            throw error
        }
        let status = response.status ?? .unknown
        guard status.isOK || status == .sessionNotExist else {
            sessions[id]?.closing = false
            throw UCIClientError.failed(command.name, status: status, device: device, session: id, state: sessions[id]?.state)
        }
        if status == .sessionNotExist { logger.notice("the UWBS no longer had \(UCIClientError.sessionName(id))") }
        logger.info("closed \(UCIClientError.sessionName(id))")
        removeSession(id)
    }

    /// After a failed open: deinitializes the half-open session if the UWBS still works, and
    /// forgets it.
    func abandonSession(_ id: UInt32, after error: UCIClientError) async {
        let deviceLevel: Set<UCIClientError.Code> = [.timeout, .transport, .unavailable, .deviceError, .closed, .cancelled, .retriesExhausted]
        if let record = sessions[id], record.state != .deinitialized, !deviceLevel.contains(error.code) {
            do {
                _ = try await execute(.sessionDeinit(session: record.token))
            } catch {
                logger.notice("could not deinitialize the half-open \(UCIClientError.sessionName(id)): \(error.reason)")
            }
        }
        removeSession(id)
    }

    /// Forgets a session: routes, record, streams.
    func removeSession(_ id: UInt32) {
        guard let record = sessions.removeValue(forKey: id) else { return }
        sessionOrder.removeAll { $0 == id }
        reader.unmap(record.token, session: id)
        record.stateWaiter?.promise.fail(notOpenError(id))
        record.finishStreams()
    }

    /// Throws `invalidState` unless the session is in `expected`.
    func requireState(_ id: UInt32, _ expected: UCISessionState, operation: String) throws(UCIClientError) {
        guard let record = sessions[id] else { throw notOpenError(id) }
        guard record.state != expected else { return }
        let remedy: String
        switch record.state {
        case .active: remedy = "It is ranging; stop it first."
        case .idle: remedy = "It is configured and not ranging; start it first."
        case .initialized: remedy = "Its configuration was not accepted; close it and open it again with valid parameters."
        default: remedy = "Close it and open a new session."
        }
        throw UCIClientError(
            .invalidState, device: device,
            reason: "cannot \(operation) \(UCIClientError.sessionName(id)): it is \(record.state), and \(operation) needs \(expected)",
            remedy: remedy, session: id, state: record.state)
    }

    /// Waits for the UWBS to report `target` for session `id`; if no SESSION_STATUS_NTF says so
    /// within ``UCIClientConfiguration/stateChangeTimeout``, asks with SESSION_GET_STATE.
    func waitForState(_ id: UInt32, _ target: UCISessionState, after command: String) async throws(UCIClientError) {
        guard let record = sessions[id] else { throw notOpenError(id) }
        if record.state == target { return }
        let promise = Promise<Void>()
        sessions[id]?.stateWaiter = StateWaiter(target: target, command: command, promise: promise)
        do {
            try await promise.value(timeout: configuration.stateChangeTimeout, operation: "SESSION_STATUS_NTF(\(target))")
            return
        } catch let error as UCIClientError {
            throw error
        } catch is TimeoutError {
            if sessions[id]?.stateWaiter?.promise === promise { sessions[id]?.stateWaiter = nil }
        } catch {
            if sessions[id]?.stateWaiter?.promise === promise { sessions[id]?.stateWaiter = nil }
            throw UCIClientError(.cancelled, device: device, reason: "waiting for \(UCIClientError.sessionName(id)) to become \(target) was cancelled",
                                 command: command, session: id)
        }
        // No notification: ask.
        let query = UCICommand.getSessionState(session: try token(of: id))
        let response = try await executeExpectingOK(query, session: id)
        guard case .getSessionState(_, let state) = response else {
            throw protocolError(query.name, "the response is \(response.name), not the session state")
        }
        if sessions[id]?.state != state {
            sessions[id]?.state = state
            sessions[id]?.events.yield(.stateChanged(state, reason: .stateChangeWithSessionManagementCommands))
        }
        guard state == target else {
            throw UCIClientError(
                .invalidState, device: device,
                reason: "after \(command) \(UCIClientError.sessionName(id)) is \(state), expected \(target) (no SESSION_STATUS_NTF came within \(ClientText.duration(configuration.stateChangeTimeout)))",
                remedy: "The UWBS did not apply the command; check its log or replug it.", command: command, session: id, state: state)
        }
        logger.notice("no SESSION_STATUS_NTF after \(command); SESSION_GET_STATE says \(state)")
    }

    /// The token commands for session `id` carry.
    func token(of id: UInt32) throws(UCIClientError) -> UInt32 {
        guard let token = sessions[id]?.token else { throw notOpenError(id) }
        return token
    }

    // MARK: Errors

    func notOpenError(_ id: UInt32) -> UCIClientError {
        UCIClientError(
            .sessionNotOpen, device: device, reason: "\(UCIClientError.sessionName(id)) is not open",
            remedy: "Open it with openSession(id:parameters:) (it may have been closed, or deinitialized by the UWBS).",
            session: id, state: .deinitialized)
    }

    /// MAX_SESSIONS_EXCEEDED, naming the limit: the sessions open when the UWBS refused one more.
    func sessionLimitError(_ id: UInt32) -> UCIClientError {
        let others = sessionOrder.filter { $0 != id && sessions[$0]?.state != .deinitialized }
        let list = others.map(ClientText.hex32).joined(separator: ", ")
        let limit = others.count == 1 ? "1 session" : "\(others.count) sessions"
        return UCIClientError(
            .sessionLimit, device: device,
            reason: "the dev kit's session limit is reached: it refused \(UCIClientError.sessionName(id)) with MAX_SESSIONS_EXCEEDED (0x14) "
                + "while \(limit) \(others.count == 1 ? "was" : "were") open" + (list.isEmpty ? "" : " (\(list))")
                + ", so it runs at most \(limit) at once",
            remedy: "Close a session before opening another one, or use a dev kit with more sessions.",
            command: "SESSION_INIT_CMD", status: .maxSessionsExceeded, session: id)
    }

    /// SET_APP_CONFIG refused, naming each parameter with the value sent and the UWBS's status.
    func parametersRejectedError(_ id: UInt32, command: String, status: UCIStatus, refused: [UCIAppConfigStatus],
                                 configs: [UCIAppConfig]) -> UCIClientError {
        let details = refused.map { result -> String in
            let sent = configs.first { $0.id == result.id }.map { " = \($0.valueDescription)" } ?? ""
            return "\(result.id)\(sent): \(result.status)"
        }
        let reason: String
        if details.isEmpty {
            reason = "the UWBS refused the configuration of \(UCIClientError.sessionName(id)) with \(status) (no parameter named)"
        } else {
            reason = "the UWBS refused \(details.count) parameter\(details.count == 1 ? "" : "s") of \(UCIClientError.sessionName(id)): "
                + details.joined(separator: "; ")
        }
        return UCIClientError(
            .parametersRejected, device: device, reason: reason,
            remedy: "Change the named parameters to values the dev kit supports (`nearby uwb info` lists its capabilities).",
            command: command, status: status, session: id, state: sessions[id]?.state, rejectedParameters: refused)
    }
}
