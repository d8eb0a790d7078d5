import Logging
import NearbySupport
import UCI

// The reader: packets from the transport -> reassembly -> responses, notifications, range data.
// Range data is routed on the transport's thread by the ``ClientReader``; what the actor acts
// on (responses, notifications, the end of the stream) comes here through its bounded queue.
extension UCIClient {
    /// Starts reading `stream`: its packets are dispatched on the transport's thread from now
    /// on; a reader of an older stream stops.
    func startReader(_ stream: UCIPacketStream) {
        let (generation, control) = reader.start()
        let reader = self.reader
        readerTask?.cancel()
        readerTask = Task { await self.handleControl(control, generation: generation) }
        stream.deliver { delivery in reader.receive(delivery, generation: generation) }
    }

    /// Ignores the current stream from now on.
    func stopReading() {
        reader.invalidate()
    }

    private func handleControl(_ control: Mailbox<ClientReader.ControlInput>, generation: Int) async {
        for await input in control {
            guard reader.isCurrent(generation) else { return }
            switch input {
            case .message(let raw, let interrupted, let receivedAt):
                handleMessage(raw, interrupted: interrupted, receivedAt: receivedAt)
            case .unknownSession(let token, let raw):
                let decoded = raw.flatMap { try? UCIMessage(decoding: $0, version: uciVersion) }
                logger.notice("range data for unknown session \(ClientText.hex32(token))")
                reportUnhandled(.unknownSession(token), message: raw, decoded: decoded)
            case .undecodable(let error):
                logger.warning("discarded a packet from the UWBS: \(error)")
                reportUnhandled(.undecodable(error), message: nil)
            case .ended(let error):
                readerEnded(generation: generation, error: error)
                return
            }
        }
    }

    /// A whole message from the UWBS (`receivedAt`: its transport's receive time, if given).
    private func handleMessage(_ raw: UCIRawMessage, interrupted: (message: UCIRawMessage, segments: Int)?, receivedAt: Double?) {
        if let (lost, segments) = interrupted {
            let error = UCIError(
                .segmentMismatch, context: lost.name,
                detail: "interrupted by CORE_DEVICE_STATUS_NTF(ERROR) after \(segments) segment(s) (\(lost.payload.count) bytes); discarded")
            logger.warning("\(error)")
            reportUnhandled(.undecodable(error), message: lost)
        }
        switch raw.messageType {
        case .response: handleResponse(raw)
        case .notification: handleNotification(raw, receivedAt: receivedAt)
        default:
            let decoded = try? UCIMessage(decoding: raw, version: uciVersion)
            logger.notice("ignored \(decoded?.description ?? raw.description): not used by this client")
            reportUnhandled(.notUsed, message: raw, decoded: decoded)
        }
    }

    /// The UWBS's UCI version for decoding (2.0 until CORE_GET_DEVICE_INFO told otherwise).
    var uciVersion: UCIVersion { deviceInfo?.uciVersion ?? .v2_0 }

    // MARK: Responses

    private func handleResponse(_ raw: UCIRawMessage) {
        let response: UCIResponse
        do {
            response = try UCIResponse(opcode: raw.opcode, payload: raw.payload)
        } catch {
            logger.warning("undecodable \(raw): \(error)")
            reportUnhandled(.undecodable(error), message: raw)
            if let pending, pending.opcode == raw.opcode {
                failPending(protocolError(pending.name, "the response does not decode: \(error)", codecError: error))
            }
            return
        }
        guard let pending, pending.opcode == raw.opcode else {
            logger.notice("response to no outstanding command: \(response)")
            reportUnhandled(.unmatchedResponse, message: raw, decoded: .response(response))
            return
        }
        logger.debug("< \(response)")
        self.pending = nil
        if let id = pending.initializingSession, case .sessionInit(let status, let handle) = response, status.isOK {
            mapSession(id, token: handle ?? id)
        }
        pending.promise.fulfill(.response(response))
    }

    /// Records that session `id` is addressed by `token` from now on.
    func mapSession(_ id: UInt32, token: UInt32) {
        guard let record = sessions[id] else { return }
        if record.token == token, reader.routes(token, to: id) { return }
        sessions[id]?.token = token
        if record.state == .deinitialized { sessions[id]?.state = .initialized }
        reader.map(
            token,
            to: SessionRoute(
                id: id, includeAzimuth: record.parameters.reportsAzimuth, includeElevation: record.parameters.reportsElevation,
                samples: record.samples),
            replacing: record.token)
        if token != id { logger.info("\(UCIClientError.sessionName(id)) has handle \(ClientText.hex32(token))") }
    }

    // MARK: Notifications

    private func handleNotification(_ raw: UCIRawMessage, receivedAt: Double?) {
        if raw.opcode == .sessionInfo, let view = try? UCISessionInfoView(payload: raw.payload) {
            // A segmented two-way SESSION_INFO_NTF.
            if !reader.deliver(view, receivedAt: receivedAt) {
                logger.notice("range data for unknown session \(ClientText.hex32(view.session))")
                reportUnhandled(.unknownSession(view.session), message: raw, decoded: try? UCIMessage(decoding: raw, version: uciVersion))
            }
            return
        }
        let notification: UCINotification
        do {
            notification = try UCINotification(opcode: raw.opcode, payload: raw.payload, version: uciVersion)
        } catch {
            logger.warning("undecodable \(raw): \(error)")
            reportUnhandled(.undecodable(error), message: raw)
            return
        }
        if let fixed = UCINotification.fixedPayloadLength(of: raw.opcode), raw.payload.count > fixed,
            trailingBytesLogged.insert(raw.opcode).inserted
        {
            logger.notice(
                "\(raw.opcode.messageName(for: .notification)) carries \(raw.payload.count - fixed) byte(s) beyond its \(fixed); ignored (logged once)")
        }
        switch notification {
        case .deviceStatus(let state): handleDeviceStatus(state)
        case .genericError(let status): handleGenericError(status)
        case .sessionStatus(let token, let state, let reason): handleSessionStatus(token: token, state: state, reason: reason, raw: raw)
        case .vendor:
            logger.notice("vendor notification: \(notification)")
            reportUnhandled(.vendor, message: raw, decoded: .notification(notification))
        case .unknown:
            logger.notice("unknown notification: \(notification)")
            reportUnhandled(.unknown, message: raw, decoded: .notification(notification))
        case .sessionInfo(let info) where info.measurementType == .owrAoA || info.measurementType == .dlTDoA:
            deliver(info, raw: raw, receivedAt: receivedAt)
        case .sessionInfo, .multicastListUpdate, .dataCredit, .dataTransferStatus:
            logger.info("not used by this client: \(notification)")
            reportUnhandled(.notUsed, message: raw, decoded: .notification(notification))
        }
    }

    /// Delivers an OWR-AoA or DL-TDoA SESSION_INFO_NTF, typed, on its session's events, and the
    /// valid OWR-AoA measurements as angle-only samples, stamped `receivedAt` (the transport's
    /// receive time) or now.
    private func deliver(_ info: UCISessionInfo, raw: UCIRawMessage, receivedAt: Double?) {
        guard let route = reader.route(for: info.session), let record = sessions[route.id] else {
            if !reader.wasClosed(info.session) {
                logger.notice("range data for unknown session \(ClientText.hex32(info.session))")
                reportUnhandled(.unknownSession(info.session), message: raw, decoded: .notification(.sessionInfo(info)))
            }
            return
        }
        record.events.yield(.measurements(info))
        guard case .owrAoA(let list) = info.measurements else { return }
        let timestamp = receivedAt ?? MonotonicTime.seconds()
        var dropped = 0
        for measurement in list {
            if !route.samples.deliver(UCIPeerRangeSample(session: route.id, peer: measurement.macAddress, sample: measurement.rangeSample(timestamp: timestamp))) {
                dropped += 1
            }
        }
        route.samples.endOfBatch()
        if dropped > 0 {
            logger.warning("\(UCIClientError.sessionName(route.id)): \(dropped) range sample(s) dropped: the consumer does not keep up")
        }
    }

    private func handleDeviceStatus(_ state: UCIDeviceState) {
        let previous = deviceState
        deviceState = state
        if state != previous { logger.info("device state: \(state)") }
        eventBroadcaster.yield(.deviceStateChanged(state))
        if state == .ready { readyWaiter?.fulfill(()) }
        guard state == .error else { return }
        if resetInFlight {
            logger.notice("DEVICE_STATUS_NTF(ERROR) while CORE_DEVICE_RESET is outstanding: the reset answers it")
            return
        }
        if case .open = phase {
            requestRecovery(.deviceError)
        } else {
            logger.warning("the UWBS reported DEVICE_STATE_ERROR while the client was not open")
            if let pending {
                failPending(UCIClientError(
                    .deviceError, device: device, reason: "\(pending.name) failed: the UWBS reported DEVICE_STATE_ERROR",
                    remedy: "Replug the dev kit and try again.", command: pending.name))
            }
        }
    }

    private func handleGenericError(_ status: UCIStatus) {
        eventBroadcaster.yield(.genericError(status))
        if status == .commandRetry, let pending {
            logger.notice("CORE_GENERIC_ERROR_NTF(COMMAND_RETRY) while \(pending.name) is outstanding")
            self.pending = nil
            pending.promise.fulfill(.retryRequested)
        } else {
            logger.warning("CORE_GENERIC_ERROR_NTF: \(status)")
        }
    }

    private func handleSessionStatus(token: UInt32, state: UCISessionState, reason: UCIReasonCode, raw: UCIRawMessage) {
        guard let id = reader.session(for: token), var record = sessions[id] else {
            if reader.wasClosed(token) {
                logger.debug("status of closed session \(ClientText.hex32(token)): \(state), \(reason)")
            } else {
                logger.notice("SESSION_STATUS_NTF for unknown session \(ClientText.hex32(token)): \(state), \(reason)")
                reportUnhandled(.unknownSession(token), message: raw, decoded: .notification(.sessionStatus(session: token, state: state, reason: reason)))
            }
            return
        }
        logger.info("\(UCIClientError.sessionName(id)): \(state), reason \(reason)")
        record.state = state
        if state == .idle && reason != .stateChangeWithSessionManagementCommands { record.wantsActive = false }
        record.events.yield(.stateChanged(state, reason: reason))
        if let waiter = record.stateWaiter {
            if state == waiter.target {
                record.stateWaiter = nil
                waiter.promise.fulfill(())
            } else if state == .deinitialized || reason != .stateChangeWithSessionManagementCommands {
                record.stateWaiter = nil
                waiter.promise.fail(UCIClientError(
                    state == .deinitialized ? .sessionNotOpen : .commandFailed, device: device,
                    reason: "after \(waiter.command) the UWBS moved \(UCIClientError.sessionName(id)) to \(state), reason \(reason)",
                    remedy: reason.explanation, command: waiter.command, session: id, state: state))
            }
        }
        sessions[id] = record
        if state == .deinitialized && !record.closing {
            logger.notice("the UWBS deinitialized \(UCIClientError.sessionName(id)) (\(reason))")
            removeSession(id)
        }
    }

    // MARK: Unhandled messages and the end of the stream

    func reportUnhandled(_ reason: UCIUnhandledMessage.Reason, message: UCIRawMessage?, decoded: UCIMessage? = nil) {
        unhandledBroadcaster.yield(UCIUnhandledMessage(reason: reason, message: message, decoded: decoded))
    }

    /// The transport's stream ended: by our own close (ignored), or because the dev kit went away.
    private func readerEnded(generation: Int, error: (any Error)?) {
        guard reader.isCurrent(generation) else { return }
        let lost = (error as? UWBDeviceError) ?? UWBDeviceError(
            .disconnected, device: device,
            reason: error.map { "the link failed: \($0)" } ?? "the link closed unexpectedly")
        switch phase {
        case .open:
            logger.warning("dev kit lost: \(lost.reason)")
            requestRecovery(.transportLost(lost))
        case .opening:
            logger.warning("dev kit lost while opening: \(lost.reason)")
            failPending(transportError(lost, doing: "open the dev kit"))
        default:
            break
        }
    }
}
