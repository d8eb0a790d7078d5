import Logging
import LowEnergy
import NearbySupport
import Ranging
import UCI
import UWBDevice
import NearbyBase
import NIProtocol

/// A message from the accessory as a wait sees it.
struct IncomingMessage {
    /// The decoded message, or why it did not decode.
    var decoded: Result<NIMessage, NIProtocolError>
    /// When the data channel delivered it.
    var arrival: ContinuousClock.Instant
}

extension AccessorySession {
    /// Handles inputs until `match` accepts a message (returns its value) or `deadline` passes
    /// (returns `nil`). Everything else is handled on the way: the lane's signals, link and UWB
    /// events, stop. A message `match` does not want is logged and dropped.
    /// - Throws: ``SessionInterrupt`` from `match` or from what happened on the way.
    func waitForMessage<T>(
        until deadline: ContinuousClock.Instant?,
        _ match: (IncomingMessage) throws(SessionInterrupt) -> T?
    ) async throws(SessionInterrupt) -> T? {
        var timer: Task<Void, Never>?
        deadlineToken += 1
        let token = deadlineToken
        if let deadline {
            let mailbox = mailbox
            timer = Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                if !Task.isCancelled { mailbox.post(.deadline(token)) }
            }
        }
        defer { timer?.cancel() }
        while true {
            guard let input = await mailbox.receive() else { throw .stop }
            switch input {
            case .message(let bytes, let arrival):
                let decoded: Result<NIMessage, NIProtocolError>
                do {
                    decoded = .success(try NIMessage(decoding: bytes, dialect: configuration.dialect))
                } catch {
                    decoded = .failure(error)
                }
                let incoming = IncomingMessage(decoded: decoded, arrival: arrival)
                if let value = try match(incoming) { return value }
                unexpected(incoming)
            case .deadline(let fired):
                if fired == token { return nil }
            default:
                try handle(input)
            }
        }
    }

    /// Waits `duration` (a backoff) while handling inputs.
    func sleep(for duration: Duration) async throws(SessionInterrupt) {
        _ = try await waitForMessage(until: .now.advanced(by: duration)) { _ throws(SessionInterrupt) -> Bool? in nil }
    }

    /// A message nobody waited for: logged (an undecodable one is also reported as an error).
    private func unexpected(_ incoming: IncomingMessage) {
        switch incoming.decoded {
        case .success(let message):
            switch message {
            case .iOSNotify(let notification): logger.debug("< iOSNotify: \(notification)")
            case .deviceStruct(let parameters): logger.info("< Qorvo device parameters: \(parameters)")
            case .setDeviceStructAck(let status): logger.info("< Qorvo setDeviceStructAck: \(status)")
            default: logger.debug("< \(message.id) ignored in state \(state)")
            }
        case .failure(let error):
            logger.warning("undecodable message from the accessory: \(error)")
            emit(.error(AccessorySessionError(
                .protocolViolation, accessory: identity.description, reason: "undecodable message: \(error)",
                protocolError: error)))
        }
    }

    /// Everything but messages and deadlines.
    private func handle(_ input: SessionInput) throws(SessionInterrupt) {
        switch input {
        case .stop:
            throw .stop
        case .messagesEnded:
            throw .fatal(AccessorySessionError(
                .dataChannel, accessory: identity.description, reason: "the data channel was closed",
                remedy: "Keep the data channel open while the session runs; stop the session first."))
        case .link(let event):
            emit(.link(event))
            switch event {
            case .disconnected(let reason):
                logger.notice("data channel lost (\(reason))")
                linkUp = false
                lastLinkReason = reason
                throw .linkLost(reason)
            case .reconnected:
                linkUp = true
            case .security(let error):
                // Reported (above); the session goes on as far as the link allows.
                logger.notice("BLE security: \(error)")
            }
        case .uwb(let event, let generation):
            guard generation == uwbGeneration else { return }
            try handle(event)
        case .lane(.lost(let epoch)):
            // The one silence detector: `lost` on the samples' clock (found by the lane's timer,
            // or by a sample after the silence, e.g. an error-status one) starts the recovery, a
            // start over (the accessory may have ended its session; Apple's sample app does
            // 0x0C + 0x0A on its timeout). The lane does not report it while the dev kit itself
            // is away (the UCI client restores the session by itself).
            guard epoch == laneEpoch, state == .ranging else { return }
            throw .startOver(.noRange(seconds: configuration.lostAfter))
        case .lane(.rangingAgain(let epoch)):
            guard epoch == laneEpoch, attempts != 0 else { return }
            logger.info("ranging again after \(attempts) tr\(attempts == 1 ? "y" : "ies")")
            attempts = 0
        case .message, .deadline:
            return
        }
    }

    /// A local UWB session event.
    private func handle(_ event: UWBSessionEvent) throws(SessionInterrupt) {
        switch event {
        case .stateChanged(.deinitialized, let reason):
            // Our kit dropped the session; the accessory still runs its own: re-create ours with
            // the cached configuration.
            emit(.uwb(event))
            uwbSession = nil
            uwbGeneration += 1
            lane.pause()
            throw .restart(.uwbFailed("the dev kit ended the session (\(reason))"))
        case .stateChanged(.idle, let reason) where reason != .stateChangeWithSessionManagementCommands:
            // The kit stopped ranging (e.g. max ranging-round retries): the accessory may have
            // stopped too; start over, as after a ranging loss.
            emit(.uwb(event))
            if state == .ranging, !uwbInterrupted { throw .startOver(.uwbStopped(reason)) }
        case .stateChanged:
            return
        case .interrupted:
            emit(.uwb(event))
            uwbInterrupted = true
            lane.setInterrupted(true, at: MonotonicTime.seconds())
        case .restored:
            emit(.uwb(event))
            uwbInterrupted = false
            lane.setInterrupted(false, at: MonotonicTime.seconds())
        case .measurements:
            return
        case .restoreFailed(let error):
            emit(.uwb(event))
            uwbSession = nil
            uwbGeneration += 1
            lane.pause()
            throw .restart(.uwbFailed(error.reason))
        }
    }

    /// Reports the samples the lane discarded since the last report (at every state change and
    /// at the end).
    func reportLosses() {
        guard let report = lane.takeLossReport() else { return }
        logger.info("\(report)")
        emit(.dropped(report))
    }
}
