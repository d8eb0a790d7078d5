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
    /// (returns `nil`). Everything else is handled on the way: samples and ticks while
    /// ranging, link and UWB events, stop. A message `match` does not want is logged and dropped.
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
            }
        case .sample(let sample, let generation):
            guard generation == uwbGeneration, state == .ranging else { return }
            process(sample)
        case .uwb(let event, let generation):
            guard generation == uwbGeneration else { return }
            try handle(event)
        case .tick(let now):
            guard state == .ranging else { return }
            let zones = configuration.zones
            pipeline.tick(now: scaled(now)) { event in emitRanging(event, zones: zones) }
            let silence = ContinuousClock.now - lastValidRange
            if !uwbInterrupted, silence > configuration.retry.rangingTimeout {
                throw .restart(.noRange(seconds: silence.inSeconds))
            }
        case .message, .deadline:
            return
        }
    }

    /// A local UWB session event.
    private func handle(_ event: UWBSessionEvent) throws(SessionInterrupt) {
        switch event {
        case .stateChanged(.deinitialized, let reason):
            emit(.uwb(event))
            uwbSession = nil
            uwbGeneration += 1
            throw .startOver(.uwbFailed("the dev kit ended the session (\(reason))"))
        case .stateChanged(.idle, let reason) where reason != .stateChangeWithSessionManagementCommands:
            emit(.uwb(event))
            if state == .ranging { throw .restart(.uwbStopped(reason)) }
        case .stateChanged:
            return
        case .interrupted:
            emit(.uwb(event))
            uwbInterrupted = true
        case .restored:
            emit(.uwb(event))
            uwbInterrupted = false
            lastValidRange = .now
        case .restoreFailed(let error):
            emit(.uwb(event))
            uwbSession = nil
            uwbGeneration += 1
            throw .startOver(.uwbFailed(error.reason))
        }
    }

    /// One range sample through the pipeline: an update, and the pipeline's events.
    private func process(_ peerSample: UCIPeerRangeSample) {
        var sample = peerSample.sample
        sample.timestamp = scaled(sample.timestamp)
        let zones = configuration.zones
        let update = pipeline.process(sample) { event in emitRanging(event, zones: zones) }
        if sample.isValid, sample.distance?.isFinite == true {
            lastValidRange = .now
            if attempts != 0 {
                logger.info("ranging again after \(attempts) tr\(attempts == 1 ? "y" : "ies")")
                attempts = 0
            }
        }
        emit(.update(update), at: update.timestamp)
    }

    private func emitRanging(_ event: RangingEvent, zones: ZoneMap) {
        let zoneName: String?
        switch event {
        case .entered(let zone, _), .exited(let zone, _):
            zoneName = zones.zones.indices.contains(zone) ? zones.zones[zone].name : nil
        case .lost, .found:
            zoneName = nil
        }
        logger.info("\(event.description(in: zones))")
        emit(.ranging(event, zoneName: zoneName), at: event.timestamp)
    }
}
