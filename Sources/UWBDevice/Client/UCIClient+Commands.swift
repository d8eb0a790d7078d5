import Logging
import NearbySupport
import UCI

// One command in flight, its deadline and retries; the operation gate; bring-up.
extension UCIClient {
    // MARK: The operation gate

    /// Waits for the operation gate (FIFO; a recovery goes first) and checks that the client is
    /// usable. The caller must call ``releaseGate()``.
    /// - Throws: ``UCIClientError`` `notOpen`, `unavailable` (dev kit gone: fails at once rather
    ///   than waiting for the dev kit), `deviceError` (recovery gave up) or `closed`.
    func acquireGate() async throws(UCIClientError) {
        try checkUsable()
        if !gateHeld && !recoveryBlocksOperations && gateWaiters.isEmpty {
            gateHeld = true
        } else {
            let granted = await withCheckedContinuation { gateWaiters.append($0) }
            guard granted else {
                try checkUsable()
                throw unavailableError()
            }
        }
        do {
            try checkUsable()
        } catch {
            releaseGate()
            throw error
        }
    }

    /// The gate for a recovery (or ``open()``): ahead of every waiting operation.
    func acquireGateForRecovery() async {
        if !gateHeld {
            gateHeld = true
            return
        }
        await withCheckedContinuation { recoveryGateWaiter = $0 }
    }

    /// Releases the gate and hands it to the next holder.
    func releaseGate() {
        gateHeld = false
        pumpGate()
    }

    /// Hands a free gate to the recovery, else (when no recovery is under way) to the first
    /// waiting operation.
    func pumpGate() {
        guard !gateHeld else { return }
        if let waiter = recoveryGateWaiter {
            recoveryGateWaiter = nil
            gateHeld = true
            waiter.resume()
            return
        }
        guard !recoveryBlocksOperations, !gateWaiters.isEmpty else { return }
        gateHeld = true
        gateWaiters.removeFirst().resume(returning: true)
    }

    /// Wakes every waiting operation without the gate (they then fail: dev kit gone, closed).
    /// After ``close(deinitializingSessions:)`` a waiting recovery is woken too (it then stops).
    func failGateWaiters() {
        let waiters = gateWaiters
        gateWaiters.removeAll()
        for waiter in waiters { waiter.resume(returning: false) }
        if case .closed = phase, let recovery = recoveryGateWaiter {
            recoveryGateWaiter = nil
            recovery.resume()
        }
    }

    /// A recovery will reset the UWBS: operations wait for it.
    var recoveryBlocksOperations: Bool {
        guard recoveryTask != nil else { return false }
        if case .waitingForDevice = phase { return false }
        return true
    }

    /// Throws unless operations can run now.
    func checkUsable() throws(UCIClientError) {
        switch phase {
        case .open: return
        case .idle, .opening:
            throw UCIClientError(.notOpen, device: device, reason: "the client is not open", remedy: "Call open() first.")
        case .waitingForDevice: throw unavailableError()
        case .failed(let error): throw error
        case .closed: throw closedError()
        }
    }

    // MARK: Executing one command

    /// Sends `command` and waits for its response: one command in flight, the response timeout,
    /// and up to ``UCIClientConfiguration/commandRetries`` resends on COMMAND_RETRY. The caller
    /// holds the gate. The response's status is not checked here.
    /// - Parameter initializingSession: for SESSION_INIT, the session ID (the reader maps the
    ///   token as soon as the response arrives).
    func execute(_ command: UCICommand, initializingSession: UInt32? = nil) async throws(UCIClientError) -> UCIResponse {
        let packets: [UCIPacket]
        do {
            packets = try command.packets()
        } catch {
            throw UCIClientError(
                .invalidCommand, device: device, reason: "\(command.name) cannot be encoded: \(error)", command: command.name,
                session: command.session, codecError: error)
        }
        var retries = 0
        while true {
            if pendingRecovery != nil && !recoveryHoldsGate {
                throw interruptedError(command.name, session: command.session)
            }
            let promise = Promise<CommandReply>()
            pending = PendingCommand(opcode: command.opcode, name: command.name, promise: promise, initializingSession: initializingSession)
            logger.debug("> \(command)")
            do {
                for packet in packets { try await transport.send(packet.bytes) }
            } catch {
                if pending?.promise === promise { pending = nil }
                throw transportError(error, doing: "send \(command.name)")
            }
            let reply: CommandReply
            do {
                reply = try await promise.value(timeout: configuration.responseTimeout, operation: command.name)
            } catch {
                if pending?.promise === promise { pending = nil }
                throw commandError(error, command: command)
            }
            switch reply {
            case .response(let response) where response.status != .commandRetry:
                return response
            case .response, .retryRequested:
                guard retries < configuration.commandRetries else {
                    throw UCIClientError(
                        .retriesExhausted, device: device,
                        reason: "\(command.name) was refused with COMMAND_RETRY (0x0A) \(retries + 1) times",
                        remedy: "The UWBS keeps asking for the command again; reset the dev kit (replug it) if this persists.",
                        command: command.name, status: .commandRetry, session: command.session)
                }
                retries += 1
                logger.notice("the UWBS asked to resend \(command.name) (retry \(retries) of \(configuration.commandRetries))")
            }
        }
    }

    /// What a failed wait for a response means for the caller.
    private func commandError(_ error: any Error, command: UCICommand) -> UCIClientError {
        if let error = error as? UCIClientError { return error }
        if error is TimeoutError {
            logger.warning("\(command.name): no response within \(ClientText.duration(configuration.responseTimeout))")
            return UCIClientError(
                .timeout, device: device,
                reason: "\(command.name) timed out: no response within \(ClientText.duration(configuration.responseTimeout))",
                remedy: "Check that the dev kit runs UCI firmware and is not stuck (replug it); `nearby uwb raw` shows what it answers.",
                command: command.name, session: command.session)
        }
        if error is CancellationError {
            return UCIClientError(.cancelled, device: device, reason: "waiting for the \(command.name) response was cancelled",
                                  command: command.name, session: command.session)
        }
        return UCIClientError(.transport, device: device, reason: "\(command.name) failed: \(error)", command: command.name,
                              session: command.session)
    }

    /// Fails the outstanding command, if any.
    func failPending(_ error: UCIClientError) {
        guard let pending else { return }
        self.pending = nil
        pending.promise.fail(error)
    }

    /// Sends `command` and checks that the UWBS answered OK.
    /// - Throws: ``UCIClientError`` `commandFailed` (and the more specific codes) naming the
    ///   command, the status and the session.
    @discardableResult
    func executeExpectingOK(_ command: UCICommand, session: UInt32? = nil, initializingSession: UInt32? = nil)
        async throws(UCIClientError) -> UCIResponse
    {
        let response = try await execute(command, initializingSession: initializingSession)
        guard let status = response.status, status.isOK else {
            let state = session.flatMap { sessions[$0]?.state }
            throw UCIClientError.failed(command.name, status: response.status ?? .unknown, device: device, session: session, state: state)
        }
        return response
    }

    // MARK: Bring-up

    /// [NXP's board configuration when the UWBS is in state 0x00], CORE_DEVICE_RESET (and
    /// READY), CORE_GET_DEVICE_INFO, CORE_GET_CAPS_INFO. The caller holds
    /// the gate.
    func bringUp() async throws(UCIClientError) {
        if deviceState == .nxpHardwareInit { try await configureBoard() }
        do {
            try await resetDevice()
        } catch where error.code == .commandFailed && deviceState == .nxpHardwareInit {
            // An NXP SR1xx whose first DEVICE_STATUS_NTF (0x00) came after our reset: it refuses
            // everything until it has its board configuration.
            try await configureBoard()
            try await resetDevice()
        }
        let response = try await executeExpectingOK(.getDeviceInfo)
        guard case .getDeviceInfo(_, let info) = response else {
            throw protocolError("CORE_GET_DEVICE_INFO_CMD", "the response is \(response.name), not the device information")
        }
        deviceInfo = info
        guard configuration.readsCapabilities else { return }
        do {
            let caps = try await executeExpectingOK(.getCapabilities)
            if case .getCapabilities(_, let entries) = caps {
                capabilities = UCICapabilities(entries, version: info.uciVersion)
                capabilitiesError = nil
            }
        } catch {
            guard error.code == .commandFailed else { throw error }
            capabilities = nil
            capabilitiesError = error
            logger.notice("the UWBS does not report its capabilities: \(error.reason)")
        }
    }

    /// NXP's board configuration (``NXPBoardConfiguration``): `2E 00 00 02 <variant> <version>`,
    /// then up to ``UCIClientConfiguration/readyTimeout`` for DEVICE_STATUS_NTF(READY).
    func configureBoard() async throws(UCIClientError) {
        let board = configuration.boardConfiguration
        logger.notice("the UWBS is in NXP's hardware-init state: sending its board configuration (\(board))")
        let ready = Promise<Void>()
        readyWaiter = ready
        defer { readyWaiter = nil }
        try await executeExpectingOK(.vendor(UCIOpcode(gid: UCIGroupID(rawValue: 0xE), oid: 0x00), payload: [board.variant, board.version]))
        do {
            try await ready.value(timeout: configuration.readyTimeout, operation: "DEVICE_STATUS_NTF(READY)")
        } catch {
            logger.notice("no DEVICE_STATUS_NTF(READY) within \(ClientText.duration(configuration.readyTimeout)) after the board configuration; going on")
        }
    }

    /// CORE_DEVICE_RESET, then up to ``UCIClientConfiguration/readyTimeout`` for
    /// DEVICE_STATUS_NTF(READY). Drops any partly reassembled message first.
    func resetDevice() async throws(UCIClientError) {
        reader.resetReassembler()
        let ready = Promise<Void>()
        readyWaiter = ready
        resetInFlight = true
        defer {
            resetInFlight = false
            readyWaiter = nil
        }
        try await executeExpectingOK(.deviceReset())
        do {
            try await ready.value(timeout: configuration.readyTimeout, operation: "DEVICE_STATUS_NTF(READY)")
        } catch {
            logger.notice("no DEVICE_STATUS_NTF(READY) within \(ClientText.duration(configuration.readyTimeout)) after the reset; going on")
        }
        deviceState = .ready
    }

    // MARK: Errors

    /// A transport failure as a client error (`transport`, or `unavailable` for a disconnect).
    func transportError(_ error: any Error, doing operation: String) -> UCIClientError {
        if let error = error as? UCIClientError { return error }
        if let deviceError = error as? UWBDeviceError {
            return UCIClientError(
                deviceError.code == .disconnected ? .unavailable : .transport, device: device,
                reason: "cannot \(operation): \(deviceError.reason)", remedy: deviceError.remedy, transportError: deviceError)
        }
        return UCIClientError(.transport, device: device, reason: "cannot \(operation): \(error)")
    }

    /// The dev kit is gone and the client waits for it.
    func unavailableError() -> UCIClientError {
        UCIClientError(
            .unavailable, device: device, reason: "the dev kit is not available (unplugged or its server closed); nearby is waiting for it",
            remedy: "Plug the dev kit back in (or restart its UCI server): nearby reopens it and restores the sessions.")
    }

    /// The client was closed.
    func closedError() -> UCIClientError {
        UCIClientError(.closed, device: device, reason: "the UCI client is closed", remedy: "Create and open a new client.")
    }

    /// A recovery interrupted the operation.
    func interruptedError(_ command: String, session: UInt32?) -> UCIClientError {
        switch pendingRecovery {
        case .transportLost(let error):
            return UCIClientError(
                .unavailable, device: device, reason: "\(command) was interrupted: \(error.reason)",
                remedy: "nearby waits for the dev kit, reopens it and restores the sessions.", command: command, session: session,
                transportError: error)
        default:
            return UCIClientError(
                .deviceError, device: device, reason: "\(command) was interrupted: the UWBS reported DEVICE_STATE_ERROR",
                remedy: "nearby resets the UWBS and restores the sessions; retry the operation afterwards.", command: command,
                session: session)
        }
    }

    /// Bytes that are not the expected response.
    func protocolError(_ command: String, _ detail: String, codecError: UCIError? = nil) -> UCIClientError {
        UCIClientError(
            .protocolViolation, device: device, reason: "\(command): \(detail)",
            remedy: "The firmware answered something nearby does not understand; `nearby uwb raw` shows the bytes.",
            command: command, codecError: codecError)
    }
}
