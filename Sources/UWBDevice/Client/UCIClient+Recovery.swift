import Logging
import NearbySupport
import UCI

// Automatic recovery: DEVICE_STATUS_NTF(ERROR) -> reset + restore; transport lost -> wait, reopen,
// reset + restore.
extension UCIClient {
    /// Starts (or extends) a recovery: interrupts the sessions and the outstanding command, and
    /// runs ``recover()`` once.
    func requestRecovery(_ cause: RecoveryCause) {
        switch cause {
        case .deviceError:
            logger.notice("the UWBS reported DEVICE_STATE_ERROR: resetting it and restoring \(sessionOrder.count) session(s)")
            eventBroadcaster.yield(.deviceErrorReported(sessions: sessionOrder))
            if pendingRecovery == nil { pendingRecovery = cause }
        case .transportLost(let error):
            eventBroadcaster.yield(.transportLost(error))
            pendingRecovery = cause
        }
        let interruption: UWBSessionInterruption
        switch cause {
        case .deviceError: interruption = .deviceError
        case .transportLost(let error): interruption = .transportLost(error.reason)
        }
        let failure = interruptedError(pending?.name ?? "the operation", session: nil)
        for id in sessionOrder {
            guard var record = sessions[id] else { continue }
            if !record.interrupted {
                record.interrupted = true
                record.events.yield(.interrupted(interruption))
            }
            if let waiter = record.stateWaiter {
                record.stateWaiter = nil
                waiter.promise.fail(failure)
            }
            sessions[id] = record
        }
        if let pending { failPending(interruptedError(pending.name, session: nil)) }
        if recoveryTask == nil {
            recoveryTask = Task { await self.recover() }
        }
    }

    /// The recovery loop: one pass per requested cause until none is left, the client is closed,
    /// or too many resets failed in a row.
    private func recover() async {
        var failures = 0
        while let cause = pendingRecovery {
            if case .closed = phase { break }
            if cause.needsReconnect {
                phase = .waitingForDevice
                failGateWaiters()
                guard await reconnect() else { break }
                eventBroadcaster.yield(.transportRestored)
                phase = .open
            }
            // Operations between two commands keep failing until the recovery holds the gate.
            await acquireGateForRecovery()
            if case .closed = phase {
                releaseGate()
                break
            }
            pendingRecovery = nil
            recoveryHoldsGate = true
            var failure: UCIClientError?
            do {
                try await resetAndRestore()
            } catch {
                failure = error
            }
            recoveryHoldsGate = false
            releaseGate()
            guard let failure else {
                failures = 0
                continue
            }
            if case .closed = phase { break }
            failures += 1
            logger.warning("recovery attempt \(failures) failed: \(failure)")
            if failures >= configuration.maximumConsecutiveRecoveries {
                giveUp(UCIClientError(
                    .deviceError, device: device,
                    reason: "the dev kit could not be brought back after \(failures) attempt(s): \(failure.reason)",
                    remedy: "Replug the dev kit (or restart its UCI server) and start again.", transportError: failure.transportError))
                break
            }
            if pendingRecovery == nil { pendingRecovery = cause.needsReconnect ? cause : .deviceError }
            try? await Task.sleep(for: backoff(attempt: failures - 1))
        }
        recoveryTask = nil
        pumpGate()
    }

    /// Closes the transport and reopens it when the dev kit is back, with a bounded backoff.
    /// - Returns: `false` if the client was closed, or ``UCIClientConfiguration/reconnectTimeout``
    ///   passed (the client then gave up).
    private func reconnect() async -> Bool {
        let clock = ContinuousClock()
        let start = clock.now
        var attempt = 0
        var lastError: (any Error)?
        while !Task.isCancelled {
            if case .closed = phase { return false }
            if let limit = configuration.reconnectTimeout, start.duration(to: clock.now) >= limit {
                giveUp(UCIClientError(
                    .unavailable, device: device,
                    reason: "the dev kit did not come back within \(ClientText.duration(limit))"
                        + (lastError.map { " (last attempt: \($0))" } ?? ""),
                    remedy: "Plug the dev kit in (or start its UCI server) and start again."))
                return false
            }
            var wait = Duration.seconds(5)
            if let limit = configuration.reconnectTimeout { wait = min(wait, limit - start.duration(to: clock.now)) }
            stopReading()
            await transport.close()
            do {
                try await transport.waitUntilPresent(timeout: wait)
                let stream = try await transport.open()
                if case .closed = phase {
                    await transport.close()
                    return false
                }
                startReader(stream)
                logger.notice("dev kit back after \(ClientText.duration(start.duration(to: clock.now)))")
                return true
            } catch {
                lastError = error
                logger.debug("dev kit not back yet: \(error)")
            }
            try? await Task.sleep(for: backoff(attempt: attempt))
            attempt += 1
        }
        return false
    }

    /// The pause after the `attempt`-th failure (0-based): the configured delays, the last one repeating.
    private func backoff(attempt: Int) -> Duration {
        let delays = configuration.reconnectDelays
        return delays[min(attempt, delays.count - 1)]
    }

    /// Recovery gave up: every operation fails from now on, every session is closed.
    private func giveUp(_ error: UCIClientError) {
        logger.error("\(error)")
        phase = .failed(error)
        pendingRecovery = nil
        failPending(error)
        failGateWaiters()
        for id in sessionOrder {
            guard let record = sessions[id] else { continue }
            record.events.yield(.restoreFailed(error))
            eventBroadcaster.yield(.sessionRestoreFailed(session: id, error: error))
        }
        for id in sessionOrder { removeSession(id) }
        eventBroadcaster.yield(.recoveryFailed(error))
    }

    /// Resets the UWBS, reads its information again, and restores every session in the order
    /// they were opened. A session whose restore fails for a session-level reason (the UWBS
    /// refuses it now) is closed and reported; device-level failures end the pass (retried).
    private func resetAndRestore() async throws(UCIClientError) {
        try await bringUp()
        // The reset removed every session from the UWBS.
        for id in sessionOrder {
            guard let record = sessions[id] else { continue }
            reader.unmap(record.token, session: id)
            sessions[id]?.state = .deinitialized
            sessions[id]?.token = id
        }
        var restored: [UInt32] = []
        for id in sessionOrder {
            do {
                try await restoreSession(id)
                restored.append(id)
            } catch {
                let deviceLevel: Set<UCIClientError.Code> = [.timeout, .transport, .unavailable, .deviceError, .closed, .cancelled, .retriesExhausted]
                if deviceLevel.contains(error.code) { throw error }
                logger.warning("\(UCIClientError.sessionName(id)) could not be restored: \(error)")
                sessions[id]?.events.yield(.restoreFailed(error))
                eventBroadcaster.yield(.sessionRestoreFailed(session: id, error: error))
                if sessions[id]?.state != .deinitialized, let token = sessions[id]?.token {
                    _ = try? await execute(.sessionDeinit(session: token))
                }
                removeSession(id)
            }
        }
        logger.notice("recovered; sessions restored: \(restored.map(ClientText.hex32))")
        eventBroadcaster.yield(.recovered(sessions: restored))
    }

    /// SESSION_INIT, SET_APP_CONFIG with the cached parameters, SESSION_START if it was ranging.
    private func restoreSession(_ id: UInt32) async throws(UCIClientError) {
        guard let record = sessions[id] else { return }
        try await initializeSession(id)
        try await configureSession(id, configs: record.configs)
        if record.wantsActive { try await startRanging(id) }
        sessions[id]?.interrupted = false
        let state = sessions[id]?.state ?? .idle
        sessions[id]?.events.yield(.restored(state))
        logger.info("\(UCIClientError.sessionName(id)) restored (\(state))")
    }
}
