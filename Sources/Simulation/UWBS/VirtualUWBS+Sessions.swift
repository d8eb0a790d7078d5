import NearbyBase
import UCI

extension VirtualUWBS {
    /// The session types the virtual UWBS runs (both as plain ranging sessions).
    static let supportedSessionTypes: Set<UCISessionType> = [.ranging, .rangingAndInBandData]

    mutating func sessionInit(id: UInt32, type: UCISessionType, into reaction: inout VirtualUWBSReaction) {
        if sessions.values.contains(where: { $0.id == id }) {
            emit(.sessionInit(.sessionDuplicate, sessionHandle: nil), into: &reaction)
            return
        }
        guard Self.supportedSessionTypes.contains(type) else {
            emit(.sessionInit(.invalidParameter, sessionHandle: nil), into: &reaction)
            return
        }
        guard sessions.count < configuration.maximumSessions else {
            emit(.sessionInit(.maxSessionsExceeded, sessionHandle: nil), into: &reaction)
            return
        }
        let session = allocateSession(id: id, type: type)
        sessions[session.token] = session
        emit(.sessionInit(.ok, sessionHandle: version.usesVersion2Layout ? session.token : nil), into: &reaction)
        emitChange(session, reason: .stateChangeWithSessionManagementCommands, into: &reaction)
    }

    mutating func sessionDeinit(_ token: UInt32, into reaction: inout VirtualUWBSReaction) {
        guard var session = sessions.remove(token) else {
            emit(.sessionDeinit(.sessionNotExist), into: &reaction)
            return
        }
        emit(.sessionDeinit(.ok), into: &reaction)
        session.state = .deinitialized
        session.nextRoundTime = nil
        emitChange(session, reason: .stateChangeWithSessionManagementCommands, into: &reaction)
        updateActivity(into: &reaction)
    }

    mutating func setAppConfig(_ payload: [UInt8], at time: Double, into reaction: inout VirtualUWBSReaction) {
        // Each parameter is judged on its own (a bad length is that parameter's INVALID_PARAM),
        // so the list is read raw, not decoded as UCIAppConfig values.
        let token: UInt32
        let entries: [UCITLV]
        do {
            var header = ByteReader(payload)
            guard let read = header.u32() else {
                throw UCIError(.truncated, context: "SESSION_SET_APP_CONFIG_CMD", field: "session token", detail: "needs 4 bytes")
            }
            var list = UCITLVReader(payload.dropFirst(4), context: "SESSION_SET_APP_CONFIG_CMD")
            token = read
            entries = try list.countedList(entry: "parameter", typeField: "identifier")
        } catch {
            reaction.problems.append(
                "malformed SESSION_SET_APP_CONFIG_CMD: \(payload.count)-byte payload is not a session token and a TLV list (\(error))")
            emit(.setAppConfig(.syntaxError, []), into: &reaction)
            return
        }
        guard var session = sessions[token] else {
            emit(.setAppConfig(.sessionNotExist, []), into: &reaction)
            return
        }
        let ids = entries.map { UCIAppConfigID(rawValue: $0.type) }
        if session.state == .active {
            let refused = ids.filter { !VirtualSessionConfiguration.changeableWhileActive.contains($0) }
            if !refused.isEmpty {
                emit(.setAppConfig(.sessionActive, refused.map { UCIAppConfigStatus(id: $0, status: .sessionActive) }), into: &reaction)
                return
            }
        }
        var candidate = session.configuration
        var failures: [UCIAppConfigStatus] = []
        for entry in entries {
            let id = UCIAppConfigID(rawValue: entry.type)
            let config: UCIAppConfig
            do {
                config = try UCIAppConfig(
                    id: id, value: entry.value, destinationAddressLength: candidate.macAddressMode.addressLength)
            } catch {
                reaction.problems.append("SESSION_SET_APP_CONFIG_CMD: \(error)")
                failures.append(UCIAppConfigStatus(id: id, status: .invalidParameter))
                continue
            }
            if let status = AppConfigRules.check(config, version: version, channels: configuration.supportedChannels) {
                failures.append(UCIAppConfigStatus(id: id, status: status))
                continue
            }
            candidate.set(config)
        }
        if failures.isEmpty, let issue = AppConfigRules.inconsistency(in: candidate) {
            let blamed = issue.ids.first(where: ids.contains) ?? issue.ids[0]
            failures.append(UCIAppConfigStatus(id: blamed, status: issue.status))
        }
        if !failures.isEmpty {
            emit(.setAppConfig(.invalidParameter, failures), into: &reaction)
            return
        }
        if session.state == .initialized, !candidate.missingMandatory.isEmpty {
            let missing = candidate.missingMandatory.map { UCIAppConfigStatus(id: $0, status: .sessionNotConfigured) }
            reaction.problems.append(
                "SESSION_SET_APP_CONFIG_CMD rejected: the session cannot leave INIT without "
                    + candidate.missingMandatory.map(\.description).joined(separator: ", "))
            emit(.setAppConfig(.rejected, missing), into: &reaction)
            return
        }
        let intervalChanged = candidate.rangingInterval != session.configuration.rangingInterval
        session.configuration = candidate
        emit(.setAppConfig(.ok, []), into: &reaction)
        if session.state == .initialized {
            session.state = .idle
            emitChange(session, reason: .stateChangeWithSessionManagementCommands, into: &reaction)
        } else if session.state == .active, intervalChanged {
            session.startSchedule(at: time)
        }
        sessions[token] = session
    }

    mutating func getAppConfig(_ token: UInt32, ids: [UCIAppConfigID], into reaction: inout VirtualUWBSReaction) {
        guard let session = sessions[token] else {
            emit(.getAppConfig(.sessionNotExist, []), into: &reaction)
            return
        }
        if ids.isEmpty {
            emit(.getAppConfig(.ok, session.configuration.all), into: &reaction)
            return
        }
        var values: [UCIAppConfig] = []
        for id in ids {
            guard let value = session.configuration.value(id) else {
                reaction.problems.append("SESSION_GET_APP_CONFIG_CMD: \(id) has no value in session \(session.id)")
                emit(.getAppConfig(.invalidParameter, []), into: &reaction)
                return
            }
            values.append(value)
        }
        emit(.getAppConfig(.ok, values), into: &reaction)
    }

    mutating func updateMulticastList(
        _ token: UInt32, action: UCIMulticastAction, controlees: [UCIControlee], into reaction: inout VirtualUWBSReaction
    ) {
        guard var session = sessions[token] else {
            emit(.updateMulticastList(.sessionNotExist, controlees: version.usesVersion2Layout ? [] : nil), into: &reaction)
            return
        }
        let config = session.configuration
        guard session.state == .idle || session.state == .active, config.deviceType == .controller,
            config.multiNodeMode == .oneToMany, config.macAddressMode == .short,
            action.rawValue <= UCIMulticastAction.addWithLongSubSessionKey.rawValue
        else {
            emit(.updateMulticastList(.rejected, controlees: version.usesVersion2Layout ? [] : nil), into: &reaction)
            return
        }
        var addresses = config.destinationAddresses
        var results: [UCIControleeStatus] = []
        for controlee in controlees {
            let address = UCIMACAddress.short(controlee.shortAddress)
            var result = UCIMulticastUpdateStatus.ok
            if action == .remove {
                if let index = addresses.firstIndex(of: address) {
                    addresses.remove(at: index)
                } else {
                    result = .addressNotFound
                }
            } else if addresses.contains(address) {
                result = .addressAlreadyPresent
            } else if addresses.count >= 8 {
                result = .listFull
            } else if action != .add, config.stsConfig != .provisionedSTSIndividualKey {
                result = .subSessionKeyNotApplicable
            } else {
                addresses.append(address)
            }
            results.append(
                UCIControleeStatus(
                    shortAddress: controlee.shortAddress,
                    subSessionID: version.usesVersion2Layout ? nil : controlee.subSessionID, status: result))
        }
        let failed = results.filter { $0.status != .ok }
        let status: UCIStatus = failed.isEmpty ? .ok : (results.contains { $0.status == .listFull } ? .multicastListFull : .failed)
        session.configuration.set(.destinationMACAddresses(addresses))
        if !addresses.isEmpty { session.configuration.set(.numberOfControlees(UInt8(addresses.count))) }
        emit(.updateMulticastList(status, controlees: version.usesVersion2Layout ? failed : nil), into: &reaction)
        emit(
            .multicastListUpdate(
                UCIMulticastListUpdate(
                    session: token, remainingListSize: version.usesVersion2Layout ? nil : UInt8(8 - addresses.count),
                    controlees: results)),
            into: &reaction)
        if addresses.isEmpty, session.state == .active {
            // FiRa: an empty list moves the session to IDLE with ERROR_INVALID_NUM_OF_CONTROLEES.
            session.state = .idle
            session.nextRoundTime = nil
            sessions[token] = session
            emitChange(session, reason: .invalidNumberOfControlees, into: &reaction)
            updateActivity(into: &reaction)
            return
        }
        sessions[token] = session
    }

    mutating func sessionStart(_ token: UInt32, at time: Double, into reaction: inout VirtualUWBSReaction) {
        guard var session = sessions[token] else {
            emit(.sessionStart(.sessionNotExist), into: &reaction)
            return
        }
        switch session.state {
        case .idle: break
        case .initialized:
            emit(.sessionStart(.sessionNotConfigured), into: &reaction)
            return
        default:
            emit(.sessionStart(.rejected), into: &reaction)
            return
        }
        session.state = .active
        session.rangingCount = 0
        session.consecutiveFailures = 0
        session.servedSinceCheck = false
        session.lastTriggerInside = false
        session.startSchedule(at: time, delay: Double(session.configuration.initiationDelay) / 1000)
        sessions[token] = session
        emit(.sessionStart(.ok), into: &reaction)
        emitChange(session, reason: .stateChangeWithSessionManagementCommands, into: &reaction)
        updateActivity(into: &reaction)
    }

    mutating func sessionStop(_ token: UInt32, into reaction: inout VirtualUWBSReaction) {
        guard sessions[token] != nil else {
            emit(.sessionStop(.sessionNotExist), into: &reaction)
            return
        }
        guard sessions[token]?.state == .active else {
            emit(.sessionStop(.rejected), into: &reaction)
            return
        }
        emit(.sessionStop(.ok), into: &reaction)
        stop(token, reason: .stateChangeWithSessionManagementCommands, into: &reaction)
    }

    /// Moves an ACTIVE session to IDLE with `reason` (host command, MAX_RR_RETRY, ...).
    mutating func stop(_ token: UInt32, reason: UCIReasonCode, into reaction: inout VirtualUWBSReaction) {
        guard var session = sessions[token], session.state == .active else { return }
        session.state = .idle
        session.nextRoundTime = nil
        sessions[token] = session
        emitChange(session, reason: reason, into: &reaction)
        updateActivity(into: &reaction)
    }

    /// SESSION_STATUS_NTF for the session's current state, recorded as a change.
    func emitChange(_ session: VirtualSession, reason: UCIReasonCode, into reaction: inout VirtualUWBSReaction) {
        reaction.sessionChanges.append(
            VirtualSessionChange(sessionID: session.id, token: session.token, state: session.state, reason: reason))
        emit(statusNotification(session, reason: reason), into: &reaction)
    }
}
