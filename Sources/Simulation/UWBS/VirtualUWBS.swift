public import UCI

/// One virtual UWB subsystem: a FiRa UCI state machine. Packets from the host go in
/// (``receive(_:at:)-([UInt8],_)``), the packets it answers with come out; ranging rounds and faults are
/// driven by its ``VirtualUWBSWorld``. It knows nothing about sockets or clocks: time is an
/// argument (seconds of world time).
///
/// Behaviour (see `specs/virtual-uwbs.md`):
/// - Power-up (``powerOn()``) sends CORE_DEVICE_STATUS_NTF(READY). Until CORE_DEVICE_RESET,
///   when the configuration ``VirtualUWBSConfiguration/requiresReset`` says so (the default, as
///   pica), every other command gets CORE_DEVICE_STATUS_NTF(ERROR) and no response; the same
///   after a device error.
/// - Commands: CORE reset, device info, capabilities, set/get config, UWBS timestamp (2.0);
///   SESSION init/deinit/set and get app config/count/state/multicast list; start, stop,
///   ranging count; Android set country code. Unknown GID/OID: a response with the same
///   GID/OID and UNKNOWN_GID (0x07) / UNKNOWN_OID (0x08); a malformed payload: SYNTAX_ERROR.
/// - Segmented commands are reassembled; long messages are segmented to
///   ``VirtualUWBSConfiguration/maximumPacketPayload``.
public struct VirtualUWBS: Sendable {
    /// How the device presents itself.
    public let configuration: VirtualUWBSConfiguration
    /// The device state (READY, ACTIVE or ERROR).
    public internal(set) var deviceState: UCIDeviceState = .ready
    /// `true` until the host sends CORE_DEVICE_RESET (after power-up when reset is required, and
    /// after a device error).
    public internal(set) var awaitingReset: Bool

    var sessions = VirtualSessionTable()
    private var nextOrder = 0
    private var nextHandle: UInt32
    private var reassembler = UCIReassembler()
    private let segmenter: UCISegmenter
    private var lowPowerMode = true
    /// The country code the host set (Android SET_COUNTRY_CODE), if any.
    public private(set) var countryCode: String?
    /// An NXP SR1xx waiting for its board configuration (``VirtualUWBSConfiguration/needsBoardConfiguration``).
    private var awaitingBoardConfiguration = false
    private var pendingRetries = 0
    private var retriesViaGenericError = false

    /// NXP's board configuration command (GID 0xE, OID 0x00).
    static let nxpBoardConfiguration = UCIOpcode(gid: UCIGroupID(rawValue: 0xE), oid: 0x00)

    /// A powered-off device; call ``powerOn()`` to get its first notification.
    public init(configuration: VirtualUWBSConfiguration = .default) {
        self.configuration = configuration
        self.awaitingReset = configuration.requiresReset
        self.nextHandle = configuration.firstSessionHandle
        self.segmenter = UCISegmenter(maxControlPayloadSize: configuration.maximumPacketPayload)
    }

    /// The UCI version the device speaks.
    public var version: UCIVersion { configuration.uciVersion }

    /// The sessions, in creation order.
    public var sessionSnapshots: [VirtualSessionSnapshot] {
        orderedSessions.map(\.snapshot)
    }

    var orderedSessions: [VirtualSession] { sessions.values }

    /// `true` if a session is ACTIVE.
    public var hasActiveSession: Bool { sessions.values.contains { $0.state == .active } }

    /// Power-up: the device announces READY (an NXP SR1xx that needs its board configuration:
    /// NXP's state 0x00).
    public mutating func powerOn() -> VirtualUWBSReaction {
        var reaction = VirtualUWBSReaction()
        if configuration.needsBoardConfiguration {
            awaitingBoardConfiguration = true
            deviceState = .nxpHardwareInit
            reaction.deviceStates.append(.nxpHardwareInit)
            emit(.deviceStatus(.nxpHardwareInit), into: &reaction)
            return reaction
        }
        deviceState = .ready
        reaction.deviceStates.append(.ready)
        emit(.deviceStatus(.ready), into: &reaction)
        return reaction
    }

    // MARK: Input

    /// Handles one whole UCI packet from the host given as bytes, received at `time` (world
    /// seconds): bytes that are not exactly one packet are a problem answered with
    /// CORE_GENERIC_ERROR_NTF(SYNTAX_ERROR), as a malformed segment is.
    public mutating func receive(_ bytes: [UInt8], at time: Double) -> VirtualUWBSReaction {
        do {
            return receive(try UCIPacket(bytes: bytes), at: time)
        } catch {
            return rejected(error)
        }
    }

    /// Handles one typed UCI packet from the host, received at `time` (world seconds).
    public mutating func receive(_ packet: UCIPacket, at time: Double) -> VirtualUWBSReaction {
        var reaction = VirtualUWBSReaction()
        let raw: UCIRawMessage
        do {
            guard let message = try reassembler.append(packet) else { return reaction }
            raw = message
        } catch {
            return rejected(error)
        }
        switch raw.messageType {
        case .command: handleCommand(raw, at: time, into: &reaction)
        case .data: handleData(raw, into: &reaction)
        default:
            reaction.problems.append("ignored \(raw) from the host: a UWBS takes only commands and data messages")
        }
        return reaction
    }

    /// The answer to a packet that could not be used: CORE_GENERIC_ERROR_NTF.
    private func rejected(_ error: UCIError) -> VirtualUWBSReaction {
        var reaction = VirtualUWBSReaction()
        reaction.problems.append("dropped a packet from the host: \(error)")
        let status: UCIStatus = error.code == .messageTooLarge ? .invalidMessageSize : .syntaxError
        emit(.genericError(status), into: &reaction)
        return reaction
    }

    private mutating func handleCommand(_ raw: UCIRawMessage, at time: Double, into reaction: inout VirtualUWBSReaction) {
        if awaitingBoardConfiguration {
            guard raw.opcode == Self.nxpBoardConfiguration, raw.payload.count == 2 else {
                reaction.problems.append("\(raw.name) before NXP's board configuration: answered REJECTED")
                emitStatus(.rejected, for: raw.opcode, into: &reaction)
                return
            }
            awaitingBoardConfiguration = false
            emitStatus(.ok, for: raw.opcode, into: &reaction)
            setDeviceState(.ready, into: &reaction)
            return
        }
        if awaitingReset || deviceState == .error, raw.opcode != .coreDeviceReset {
            reaction.problems.append("\(raw.name) before CORE_DEVICE_RESET: answered CORE_DEVICE_STATUS_NTF(ERROR)")
            setDeviceState(.error, into: &reaction, force: true)
            return
        }
        if pendingRetries > 0 {
            pendingRetries -= 1
            if retriesViaGenericError {
                emit(.genericError(.commandRetry), into: &reaction)
            } else {
                emitStatus(.commandRetry, for: raw.opcode, into: &reaction)
            }
            return
        }
        guard Self.implementedGroups.contains(raw.opcode.gid.rawValue) else {
            emitStatus(.unknownGID, for: raw.opcode, into: &reaction)
            return
        }
        guard implementedOpcodes.contains(raw.opcode) else {
            emitStatus(.unknownOID, for: raw.opcode, into: &reaction)
            return
        }
        switch raw.opcode {
        case .sessionSetAppConfig:
            setAppConfig(raw.payload, at: time, into: &reaction)
            return
        case .coreSetConfig:
            setDeviceConfig(raw.payload, into: &reaction)
            return
        default: break
        }
        let command: UCICommand
        do {
            command = try UCICommand(opcode: raw.opcode, payload: raw.payload)
        } catch {
            reaction.problems.append("malformed command: \(error)")
            emitStatus(.syntaxError, for: raw.opcode, into: &reaction)
            return
        }
        switch command {
        case .deviceReset(let config): reset(config, into: &reaction)
        case .getDeviceInfo: emit(.getDeviceInfo(.ok, deviceInfo), into: &reaction)
        case .getCapabilities: emit(.getCapabilities(.ok, capabilities), into: &reaction)
        case .getDeviceConfig(let ids): getDeviceConfig(ids, into: &reaction)
        case .queryUWBSTimestamp:
            emit(.queryUWBSTimestamp(.ok, microseconds: UInt64(max(time, 0) * 1_000_000)), into: &reaction)
        case .sessionInit(let id, let type): sessionInit(id: id, type: type, into: &reaction)
        case .sessionDeinit(let token): sessionDeinit(token, into: &reaction)
        case .getAppConfig(let token, let ids): getAppConfig(token, ids: ids, into: &reaction)
        case .getSessionCount: emit(.getSessionCount(.ok, count: UInt8(sessions.count)), into: &reaction)
        case .getSessionState(let token):
            if let session = sessions[token] {
                emit(.getSessionState(.ok, session.state), into: &reaction)
            } else {
                emit(.getSessionState(.sessionNotExist, .deinitialized), into: &reaction)
            }
        case .updateMulticastList(let token, let action, let controlees):
            updateMulticastList(token, action: action, controlees: controlees, into: &reaction)
        case .sessionStart(let token): sessionStart(token, at: time, into: &reaction)
        case .sessionStop(let token): sessionStop(token, into: &reaction)
        case .getRangingCount(let token):
            emit(.getRangingCount(sessions[token] == nil ? .sessionNotExist : .ok, count: sessions[token]?.rangingCount ?? 0), into: &reaction)
        case .setCountryCode(let code):
            countryCode = code
            emit(.setCountryCode(.ok), into: &reaction)
        case .setDeviceConfig, .setAppConfig, .vendor, .unknown:
            // SET_CONFIG / SET_APP_CONFIG are handled above; vendor and unknown opcodes never
            // get here (they are not in `implementedOpcodes`).
            emitStatus(.unknownOID, for: raw.opcode, into: &reaction)
        }
    }

    /// CORE, SESSION_CONFIG, SESSION_CONTROL, ANDROID.
    static let implementedGroups: Set<UInt8> = [0x0, 0x1, 0x2, 0xC]

    private var implementedOpcodes: Set<UCIOpcode> {
        var opcodes: Set<UCIOpcode> = [
            .coreDeviceReset, .coreGetDeviceInfo, .coreGetCapsInfo, .coreSetConfig, .coreGetConfig,
            .sessionInit, .sessionDeinit, .sessionSetAppConfig, .sessionGetAppConfig, .sessionGetCount, .sessionGetState,
            .sessionUpdateMulticastList, .sessionStart, .sessionStop, .sessionGetRangingCount, .androidSetCountryCode,
        ]
        if version.usesVersion2Layout { opcodes.insert(.coreQueryUWBSTimestamp) }
        return opcodes
    }

    private mutating func handleData(_ raw: UCIRawMessage, into reaction: inout VirtualUWBSReaction) {
        guard version.usesVersion2Layout else {
            reaction.problems.append("ignored a data packet (\(raw.name)): UCI 1.1 has no data packets")
            return
        }
        guard case .send(let message)? = try? UCIDataMessage(format: raw.dataPacketFormat, payload: raw.payload) else {
            reaction.problems.append("ignored \(raw): not a well-formed DATA_MESSAGE_SND")
            return
        }
        reaction.problems.append(
            "DATA_MESSAGE_SND for session \(message.session) refused: the virtual UWBS does not transfer application data")
        emit(
            .dataTransferStatus(
                UCIDataTransferStatus(
                    session: message.session, sequenceNumber: message.sequenceNumber, status: .sessionTypeNotSupported,
                    transmitCount: 0)),
            into: &reaction)
    }

    // MARK: CORE

    private mutating func reset(_ config: UInt8, into reaction: inout VirtualUWBSReaction) {
        guard config == 0 else {
            emit(.deviceReset(.invalidParameter), into: &reaction)
            return
        }
        for session in orderedSessions {
            reaction.sessionChanges.append(
                VirtualSessionChange(
                    sessionID: session.id, token: session.token, state: .deinitialized,
                    reason: .stateChangeWithSessionManagementCommands))
        }
        sessions.removeAll()
        nextHandle = configuration.firstSessionHandle
        lowPowerMode = true
        awaitingReset = false
        emit(.deviceReset(.ok), into: &reaction)
        setDeviceState(.ready, into: &reaction, force: true)
    }

    private mutating func setDeviceConfig(_ payload: [UInt8], into reaction: inout VirtualUWBSReaction) {
        let entries: [UCITLV]
        do {
            var list = UCITLVReader(payload, context: "CORE_SET_CONFIG_CMD")
            entries = try list.countedList(entry: "parameter", typeField: "identifier")
        } catch {
            reaction.problems.append("malformed CORE_SET_CONFIG_CMD: \(payload.count)-byte payload is not a TLV list (\(error))")
            emit(.setDeviceConfig(.syntaxError, []), into: &reaction)
            return
        }
        var failures: [UCIDeviceConfigStatus] = []
        var newLowPowerMode = lowPowerMode
        for entry in entries {
            let id = UCIDeviceConfigID(rawValue: entry.type)
            switch id {
            case .deviceState:
                failures.append(UCIDeviceConfigStatus(id: id, status: .readOnly))
            case .lowPowerMode:
                guard entry.value.count == 1, let byte = entry.value.first else {
                    failures.append(UCIDeviceConfigStatus(id: id, status: .invalidParameter))
                    continue
                }
                guard byte <= 1 else {
                    failures.append(UCIDeviceConfigStatus(id: id, status: .invalidRange))
                    continue
                }
                newLowPowerMode = byte == 1
            default:
                failures.append(UCIDeviceConfigStatus(id: id, status: .invalidParameter))
            }
        }
        if failures.isEmpty { lowPowerMode = newLowPowerMode }
        emit(.setDeviceConfig(failures.isEmpty ? .ok : .invalidParameter, failures), into: &reaction)
    }

    private mutating func getDeviceConfig(_ ids: [UCIDeviceConfigID], into reaction: inout VirtualUWBSReaction) {
        let all: [UCIDeviceConfig] = [.deviceState(deviceState), .lowPowerMode(lowPowerMode)]
        if ids.isEmpty {
            emit(.getDeviceConfig(.ok, all), into: &reaction)
            return
        }
        var values: [UCIDeviceConfig] = []
        for id in ids {
            guard let value = all.first(where: { $0.id == id }) else {
                emit(.getDeviceConfig(.invalidParameter, []), into: &reaction)
                return
            }
            values.append(value)
        }
        emit(.getDeviceConfig(.ok, values), into: &reaction)
    }

    // MARK: Output helpers

    mutating func setDeviceState(_ state: UCIDeviceState, into reaction: inout VirtualUWBSReaction, force: Bool = false) {
        guard force || state != deviceState else { return }
        deviceState = state
        reaction.deviceStates.append(state)
        emit(.deviceStatus(state), into: &reaction)
    }

    /// READY or ACTIVE, as the sessions say (never leaves ERROR).
    mutating func updateActivity(into reaction: inout VirtualUWBSReaction) {
        guard deviceState != .error else { return }
        setDeviceState(hasActiveSession ? .active : .ready, into: &reaction)
    }

    func emit(_ notification: UCINotification, into reaction: inout VirtualUWBSReaction) {
        do {
            emit(try notification.rawMessage(), into: &reaction)
        } catch {
            reaction.problems.append("could not encode \(notification.name): \(error)")
        }
    }

    func emit(_ response: UCIResponse, into reaction: inout VirtualUWBSReaction) {
        do {
            emit(try response.rawMessage(), into: &reaction)
        } catch {
            reaction.problems.append("could not encode \(response.name): \(error)")
            emitStatus(.failed, for: response.opcode, into: &reaction)
        }
    }

    /// A response carrying only `status` (for unknown, malformed or refused commands).
    func emitStatus(_ status: UCIStatus, for opcode: UCIOpcode, into reaction: inout VirtualUWBSReaction) {
        emit(UCIRawMessage(messageType: .response, opcode: opcode, payload: [status.rawValue]), into: &reaction)
    }

    func emit(_ raw: UCIRawMessage, into reaction: inout VirtualUWBSReaction) {
        segmenter.append(packetsFor: raw, to: &reaction.packets)
    }

    func statusNotification(_ session: VirtualSession, reason: UCIReasonCode) -> UCINotification {
        .sessionStatus(session: session.token, state: session.state, reason: reason)
    }

    mutating func allocateSession(id: UInt32, type: UCISessionType) -> VirtualSession {
        let token = version.usesVersion2Layout ? nextHandle : id
        if version.usesVersion2Layout { nextHandle &+= 1 }
        nextOrder += 1
        return VirtualSession(id: id, token: token, type: type, order: nextOrder)
    }

    // MARK: Faults

    /// The UWBS fails: CORE_DEVICE_STATUS_NTF(ERROR); its sessions are lost and it needs a
    /// CORE_DEVICE_RESET.
    public mutating func fail() -> VirtualUWBSReaction {
        var reaction = VirtualUWBSReaction()
        for session in orderedSessions {
            reaction.sessionChanges.append(
                VirtualSessionChange(sessionID: session.id, token: session.token, state: .deinitialized, reason: .stateChangeWithSessionManagementCommands))
        }
        sessions.removeAll()
        awaitingReset = true
        setDeviceState(.error, into: &reaction, force: true)
        return reaction
    }

    /// The next `count` commands are answered with COMMAND_RETRY (0x0A) and not executed: as a
    /// response status, or with `viaGenericError` as CORE_GENERIC_ERROR_NTF(COMMAND_RETRY)
    /// instead of a response.
    public mutating func refuseNextCommands(_ count: Int, viaGenericError: Bool = false) {
        pendingRetries = max(count, 0)
        retriesViaGenericError = viaGenericError
    }
}
