import Synchronization
import UCI

/// A scripted UWB subsystem for client tests, behaving like pica / the FiRa state machine:
/// RESET (RSP + READY), device info, capabilities, SESSION_INIT (1.1 form or 2.0 handles,
/// MAX_SESSIONS, duplicates), SET_APP_CONFIG (+ IDLE), START (+ ACTIVE), STOP (+ IDLE), DEINIT
/// (+ DEINIT), GET_STATE. Failures are scripted per opcode: silence, COMMAND_RETRY answers,
/// CORE_GENERIC_ERROR_NTF(COMMAND_RETRY), a status, refused parameters. Every reply can be
/// segmented. Used as the script of a ``MemoryTransport`` and as the responder of a
/// `ScriptedUCIServer` (TCP).
final class FakeUWBS: Sendable {
    struct Options: Sendable {
        /// The UCI version CORE_GET_DEVICE_INFO reports.
        var version: UCIVersion = .v2_0
        /// SESSION_INIT_RSP carries a handle (2.0 form); `false`: the 1.1 form (as pica sends).
        var returnsHandles = true
        /// MAX_SESSIONS_EXCEEDED beyond this many sessions.
        var maxSessions = 4
        /// Send SESSION_STATUS_NTF after session commands.
        var sendsStatusNotifications = true
        /// Segment every reply into packets of at most this many payload bytes.
        var segmentSize: Int?
    }

    struct Session: Sendable {
        var id: UInt32
        var token: UInt32
        var state: UCISessionState
        var configs: [UCIAppConfig] = []
    }

    struct State: Sendable {
        var options: Options
        var sessions: [UInt32: Session] = [:]
        var nextHandle: UInt32 = 0x1000_0001
        var commands: [UCICommand] = []
        var resets = 0
        /// Answer COMMAND_RETRY (0x0A) this many more times.
        var retryAnswers: [UCIOpcode: Int] = [:]
        /// Send CORE_GENERIC_ERROR_NTF(COMMAND_RETRY) instead of answering, this many more times.
        var genericRetries: [UCIOpcode: Int] = [:]
        /// Never answer these.
        var silent: Set<UCIOpcode> = []
        /// Answer with this (failure) status alone.
        var statusOverrides: [UCIOpcode: UCIStatus] = [:]
        /// SET_APP_CONFIG refuses these parameters.
        var rejected: [UCIAppConfigID: UCIStatus] = [:]
    }

    let state: Mutex<State>

    init(_ options: Options = Options()) {
        state = Mutex(State(options: options))
    }

    /// Changes the script.
    func update(_ body: (inout State) -> Void) {
        state.withLock { body(&$0) }
    }

    /// The commands received so far, decoded.
    var commands: [UCICommand] { state.withLock { $0.commands } }
    /// The token of session `id` (handle or ID), if it exists.
    func token(of id: UInt32) -> UInt32? { state.withLock { $0.sessions.values.first { $0.id == id }?.token } }
    /// The state of session `id` on the fake, if it exists.
    func sessionState(of id: UInt32) -> UCISessionState? { state.withLock { $0.sessions.values.first { $0.id == id }?.state } }
    /// How many CORE_DEVICE_RESETs were received.
    var resets: Int { state.withLock { $0.resets } }

    /// The responder: every packet to send back for one received packet.
    @Sendable func respond(to packet: [UInt8]) -> [[UInt8]] {
        guard case .command(let command)? = try? UCIMessage(packet: packet) else { return [] }
        return state.withLock { state in
            state.commands.append(command)
            let segmenter = UCISegmenter(maxControlPayloadSize: state.options.segmentSize ?? 255)
            return reply(to: command, state: &state).flatMap { message in
                (try? message.packets(segmenter).map(\.bytes)) ?? []
            }
        }
    }

    private func reply(to command: UCICommand, state: inout State) -> [UCIMessage] {
        let op = command.opcode
        if state.silent.contains(op) { return [] }
        if let count = state.retryAnswers[op], count > 0 {
            state.retryAnswers[op] = count - 1
            return [Self.statusOnly(op, .commandRetry)]
        }
        if let count = state.genericRetries[op], count > 0 {
            state.genericRetries[op] = count - 1
            return [.notification(.genericError(.commandRetry))]
        }
        if let status = state.statusOverrides[op] { return [Self.statusOnly(op, status)] }
        let notify = state.options.sendsStatusNotifications
        func status(_ token: UInt32, _ s: UCISessionState, _ reason: UCIReasonCode = .stateChangeWithSessionManagementCommands) -> [UCIMessage] {
            notify ? [.notification(.sessionStatus(session: token, state: s, reason: reason))] : []
        }
        switch command {
        case .deviceReset:
            state.resets += 1
            state.sessions.removeAll()
            return [.response(.deviceReset(.ok)), .notification(.deviceStatus(.ready))]
        case .getDeviceInfo:
            return [.response(.getDeviceInfo(.ok, UCIDeviceInfo(
                uciVersion: state.options.version, macVersion: UCIVersion(major: 1, minor: 3),
                phyVersion: UCIVersion(major: 1, minor: 3), testVersion: UCIVersion(major: 1, minor: 1),
                vendorInfo: [0x51, 0x6F, 0x72])))]
        case .getCapabilities:
            let version = state.options.version
            let caps = [
                try? UCICapability(.channels, value: [0b0000_1001], version: version),  // channels 5 and 9
                try? UCICapability(.deviceRoles, value: [0b0000_0011], version: version),  // responder, initiator
                try? UCICapability(.rangingMethods, value: [0b0001_1110], version: version),  // SS/DS-TWR
                try? UCICapability(.aoa, value: [0b0000_0111], version: version),
                try? UCICapability(.extendedMACAddress, value: [1], version: version),
            ].compactMap { $0 }
            return [.response(.getCapabilities(.ok, caps))]
        case .sessionInit(let id, _):
            if state.sessions.values.contains(where: { $0.id == id }) { return [Self.statusOnly(op, .sessionDuplicate)] }
            if state.sessions.count >= state.options.maxSessions { return [Self.statusOnly(op, .maxSessionsExceeded)] }
            let token = state.options.returnsHandles ? state.nextHandle : id
            if state.options.returnsHandles { state.nextHandle += 1 }
            state.sessions[token] = Session(id: id, token: token, state: .initialized)
            return [.response(.sessionInit(.ok, sessionHandle: state.options.returnsHandles ? token : nil))] + status(token, .initialized)
        case .setAppConfig(let token, let configs):
            guard var session = state.sessions[token] else { return [Self.statusOnly(op, .sessionNotExist)] }
            let refused = configs.compactMap { config in state.rejected[config.id].map { UCIAppConfigStatus(id: config.id, status: $0) } }
            guard refused.isEmpty else { return [.response(.setAppConfig(.invalidParameter, refused))] }
            session.configs = configs
            session.state = .idle
            state.sessions[token] = session
            return [.response(.setAppConfig(.ok, []))] + status(token, .idle)
        case .sessionStart(let token):
            if state.sessions[token]?.state == .active { return [Self.statusOnly(op, .sessionActive)] }
            guard state.sessions[token]?.state == .idle else {
                return [Self.statusOnly(op, state.sessions[token] == nil ? .sessionNotExist : .rejected)]
            }
            state.sessions[token]?.state = .active
            return [.response(.sessionStart(.ok))] + status(token, .active) + [.notification(.deviceStatus(.active))]
        case .sessionStop(let token):
            guard state.sessions[token]?.state == .active else {
                return [Self.statusOnly(op, state.sessions[token] == nil ? .sessionNotExist : .rejected)]
            }
            state.sessions[token]?.state = .idle
            let anyActive = state.sessions.values.contains { $0.state == .active }
            return [.response(.sessionStop(.ok))] + status(token, .idle) + (anyActive ? [] : [.notification(.deviceStatus(.ready))])
        case .sessionDeinit(let token):
            guard state.sessions.removeValue(forKey: token) != nil else { return [Self.statusOnly(op, .sessionNotExist)] }
            return [.response(.sessionDeinit(.ok))] + status(token, .deinitialized)
        case .getSessionState(let token):
            guard let session = state.sessions[token] else { return [Self.statusOnly(op, .sessionNotExist)] }
            return [.response(.getSessionState(.ok, session.state))]
        default:
            return [Self.statusOnly(op, .unknownOID)]
        }
    }

    /// A response holding only `status`.
    static func statusOnly(_ opcode: UCIOpcode, _ status: UCIStatus) -> UCIMessage {
        .response((try? UCIResponse(opcode: opcode, payload: [status.rawValue])) ?? .unknown(opcode, payload: [status.rawValue]))
    }

    /// A SESSION_INFO_NTF packet for `token` with one two-way measurement per peer.
    static func rangeData(token: UInt32, sequence: UInt32 = 1, measurements: [UCITwoWayMeasurement]) -> [UInt8] {
        let info = UCISessionInfo(sequenceNumber: sequence, session: token, currentRangingInterval: 100, measurements: .twoWay(measurements))
        return (try? UCINotification.sessionInfo(info).packets().first?.bytes) ?? []
    }

    /// One notification packet.
    static func packet(_ notification: UCINotification) -> [UInt8] {
        (try? notification.packets().first?.bytes) ?? []
    }
}
