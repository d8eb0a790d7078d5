import Logging
import NearbySupport
import UCI

// The reader: packets from the transport -> reassembly -> responses, notifications, range data.
extension UCIClient {
    /// Starts reading `stream`; a reader of an older stream stops at its next packet.
    func startReader(_ stream: UCIPacketStream) {
        readerGeneration += 1
        let generation = readerGeneration
        reassembler.reset()
        readerTask = Task { await self.read(stream, generation: generation) }
    }

    private func read(_ stream: UCIPacketStream, generation: Int) async {
        do {
            for try await packet in stream {
                guard generation == readerGeneration else { return }
                handlePacket(packet)
            }
            readerEnded(generation: generation, error: nil)
        } catch {
            readerEnded(generation: generation, error: error)
        }
    }

    /// One packet from the UWBS, dispatched on its header (decoded once, by the transport):
    /// range data straight to its session, everything else through the reassembler.
    func handlePacket(_ packet: UCIPacket) {
        let inbound: UCIInbound
        do {
            guard let dispatched = try UCIInbound.dispatch(packet, reassembling: &reassembler) else { return }
            inbound = dispatched
        } catch {
            logger.warning("discarded a packet from the UWBS: \(error)")
            reportUnhandled(.undecodable(error), message: nil)
            return
        }
        switch inbound {
        case .rangeData(let view): deliver(view, packet: packet)
        case .message(let raw): handleMessage(raw)
        }
    }

    /// A whole message from the UWBS.
    private func handleMessage(_ raw: UCIRawMessage) {
        if let (lost, segments) = reassembler.interruptedByDeviceError {
            let error = UCIError(
                .segmentMismatch, context: lost.name,
                detail: "interrupted by CORE_DEVICE_STATUS_NTF(ERROR) after \(segments) segment(s) (\(lost.payload.count) bytes); discarded")
            logger.warning("\(error)")
            reportUnhandled(.undecodable(error), message: lost)
        }
        switch raw.messageType {
        case .response: handleResponse(raw)
        case .notification: handleNotification(raw)
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
        if record.token == token, routes[token]?.id == id { return }
        if record.token != token { routes[record.token] = nil }
        sessions[id]?.token = token
        if record.state == .deinitialized { sessions[id]?.state = .initialized }
        closedTokens.remove(token)
        routes[token] = SessionRoute(
            id: id, includeAzimuth: record.parameters.reportsAzimuth, includeElevation: record.parameters.reportsElevation,
            samples: record.samples)
        if token != id { logger.info("\(UCIClientError.sessionName(id)) has handle \(ClientText.hex32(token))") }
    }

    // MARK: Notifications

    private func handleNotification(_ raw: UCIRawMessage) {
        if raw.opcode == .sessionInfo, let view = try? UCISessionInfoView(payload: raw.payload) {
            // A segmented two-way SESSION_INFO_NTF.
            deliver(view, message: raw)
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
            deliver(info, raw: raw)
        case .sessionInfo, .multicastListUpdate, .dataCredit, .dataTransferStatus:
            logger.info("not used by this client: \(notification)")
            reportUnhandled(.notUsed, message: raw, decoded: .notification(notification))
        }
    }

    /// Delivers an OWR-AoA or DL-TDoA SESSION_INFO_NTF, typed, on its session's events, and the
    /// valid OWR-AoA measurements as angle-only samples.
    private func deliver(_ info: UCISessionInfo, raw: UCIRawMessage) {
        guard let route = routes[info.session], let record = sessions[route.id] else {
            if !closedTokens.contains(info.session) {
                logger.notice("range data for unknown session \(ClientText.hex32(info.session))")
                reportUnhandled(.unknownSession(info.session), message: raw, decoded: .notification(.sessionInfo(info)))
            }
            return
        }
        record.events.yield(.measurements(info))
        guard case .owrAoA(let list) = info.measurements else { return }
        let timestamp = MonotonicTime.seconds()
        var dropped = 0
        for measurement in list {
            if !route.samples.deliver(UCIPeerRangeSample(session: route.id, peer: measurement.macAddress, sample: measurement.rangeSample(timestamp: timestamp))) {
                dropped += 1
            }
        }
        if dropped > 0 { noteDropped(token: info.session, count: dropped) }
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
        guard let id = routes[token]?.id, var record = sessions[id] else {
            if closedTokens.contains(token) {
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

    // MARK: Range data

    /// Delivers every measurement of a two-way SESSION_INFO_NTF to its session's stream.
    private func deliver(_ view: UCISessionInfoView, packet: UCIPacket? = nil, message: UCIRawMessage? = nil) {
        let token = view.session
        guard let route = routes[token] else {
            unroutedMeasurementCount += view.measurementCount
            let raw = message ?? packet.map {
                UCIRawMessage(messageType: .notification, opcode: .sessionInfo, payload: Array($0.payload))
            }
            let decoded = raw.flatMap { try? UCIMessage(decoding: $0, version: uciVersion) }
            if closedTokens.contains(token) {
                logger.debug("range data of closed session \(ClientText.hex32(token))")
            } else {
                logger.notice("range data for unknown session \(ClientText.hex32(token))")
                reportUnhandled(.unknownSession(token), message: raw, decoded: decoded)
            }
            return
        }
        let timestamp = MonotonicTime.seconds()
        var dropped = 0
        view.forEachSample(
            timestamp: timestamp, includeAzimuth: route.includeAzimuth, includeElevation: route.includeElevation,
            dialect: configuration.measurementDialect
        ) { sample in
            if !route.samples.deliver(UCIPeerRangeSample(session: route.id, peer: sample.peer, sample: sample.sample)) {
                dropped += 1
            }
        }
        logger.trace("range data", metadata: ["session": "\(route.id)", "measurements": "\(view.measurementCount)"])
        if dropped > 0 { noteDropped(token: token, count: dropped) }
    }

    private func noteDropped(token: UInt32, count: Int) {
        guard var route = routes[token] else { return }
        let before = route.dropped
        route.dropped += count
        routes[token] = route
        // Log the first drop, then every 100th, so a stalled consumer does not flood the log.
        if before == 0 || before / 100 != route.dropped / 100 {
            logger.warning("\(UCIClientError.sessionName(route.id)): \(route.dropped) range sample(s) dropped so far: the consumer does not keep up")
        }
    }

    // MARK: Unhandled messages and the end of the stream

    func reportUnhandled(_ reason: UCIUnhandledMessage.Reason, message: UCIRawMessage?, decoded: UCIMessage? = nil) {
        unhandledBroadcaster.yield(UCIUnhandledMessage(reason: reason, message: message, decoded: decoded))
    }

    /// The transport's stream ended: by our own close (ignored), or because the dev kit went away.
    private func readerEnded(generation: Int, error: (any Error)?) {
        guard generation == readerGeneration else { return }
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
