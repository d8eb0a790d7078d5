public import UCI
import NearbyBase

/// Why a ``UCIClient`` operation failed: one error type for commands, sessions and recovery.
///
/// `code` says what kind of failure it is (switch on it); the other fields name what was
/// involved: the command, the UWBS's status, the session, its state, the parameters the UWBS
/// refused. `description` is a complete message for a user:
///
/// ```
/// tcp:127.0.0.1:7000: SESSION_START_CMD for session 0x0000002A failed: the UWBS answered SESSION_NOT_CONFIGURED (0x15)
///   the session is not configured; set its app configuration first
/// ```
public struct UCIClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The name of the code, e.g. "timeout".
        public let name: String
        private init(_ name: String) { self.name = name }

        /// The UWBS did not answer a command within the response timeout (2 s).
        public static let timeout = Code("timeout")
        /// The UWBS answered a command with a status other than OK.
        public static let commandFailed = Code("commandFailed")
        /// The UWBS kept answering COMMAND_RETRY (0x0A) after every retry.
        public static let retriesExhausted = Code("retriesExhausted")
        /// SESSION_SET_APP_CONFIG was refused; ``UCIClientError/rejectedParameters`` names them.
        public static let parametersRejected = Code("parametersRejected")
        /// The session parameters failed validation before anything was sent;
        /// ``UCIClientError/parameterError`` lists the problems.
        public static let invalidParameters = Code("invalidParameters")
        /// The session is not in a state that allows the operation (start when not IDLE, ...).
        public static let invalidState = Code("invalidState")
        /// The UWBS refused another session (MAX_SESSIONS_EXCEEDED, 0x14).
        public static let sessionLimit = Code("sessionLimit")
        /// A session with this ID is already open (on this client or on the UWBS).
        public static let duplicateSession = Code("duplicateSession")
        /// The session is not open (closed, deinitialized by the UWBS, or never opened).
        public static let sessionNotOpen = Code("sessionNotOpen")
        /// The link to the dev kit failed (``UCIClientError/transportError`` says how).
        public static let transport = Code("transport")
        /// The dev kit is gone (unplugged, server closed) and the client is waiting for it.
        public static let unavailable = Code("unavailable")
        /// The UWBS reported DEVICE_STATE_ERROR (the client resets it and restores the sessions),
        /// or could not be brought back.
        public static let deviceError = Code("deviceError")
        /// The UWBS sent bytes that do not decode as the expected response.
        public static let protocolViolation = Code("protocolViolation")
        /// The command could not be encoded (a list or value too long for UCI).
        public static let invalidCommand = Code("invalidCommand")
        /// The client is not open yet (call ``UCIClient/open()``).
        public static let notOpen = Code("notOpen")
        /// The client was closed.
        public static let closed = Code("closed")
        /// The waiting task was cancelled.
        public static let cancelled = Code("cancelled")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public var code: Code
    /// The device as the user named it ("usb:1915:520f"), empty when not known.
    public var device: String
    /// What went wrong, in one sentence.
    public var reason: String
    /// What to do about it, if there is something to do.
    public var remedy: String?
    /// The command involved, e.g. `"SESSION_START_CMD"`.
    public var command: String?
    /// The status the UWBS answered, if it answered.
    public var status: UCIStatus?
    /// The session ID involved.
    public var session: UInt32?
    /// The session's state when the operation was refused or failed.
    public var state: UCISessionState?
    /// The parameters SESSION_SET_APP_CONFIG_RSP refused, with the UWBS's status for each.
    public var rejectedParameters: [UCIAppConfigStatus]
    /// The validation problems, for ``Code/invalidParameters``.
    public var parameterError: FiRaParameterError?
    /// The transport's error, for ``Code/transport`` and ``Code/unavailable``.
    public var transportError: UWBDeviceError?
    /// The codec's error, for ``Code/protocolViolation`` and ``Code/invalidCommand``.
    public var codecError: UCIError?

    /// Creates an error.
    public init(
        _ code: Code, device: String, reason: String, remedy: String? = nil, command: String? = nil,
        status: UCIStatus? = nil, session: UInt32? = nil, state: UCISessionState? = nil,
        rejectedParameters: [UCIAppConfigStatus] = [], parameterError: FiRaParameterError? = nil,
        transportError: UWBDeviceError? = nil, codecError: UCIError? = nil
    ) {
        self.code = code
        self.device = device
        self.reason = reason
        self.remedy = remedy
        self.command = command
        self.status = status
        self.session = session
        self.state = state
        self.rejectedParameters = rejectedParameters
        self.parameterError = parameterError
        self.transportError = transportError
        self.codecError = codecError
    }

    /// "DEVICE: reason" and, indented on the next lines, the remedy.
    public var description: String {
        var text = device.isEmpty ? reason : "\(device): \(reason)"
        if let remedy { text += "\n  " + remedy.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ") }
        return text
    }
}

extension UCIClientError {
    /// `"session 0x0000002A"`: how messages name a session.
    static func sessionName(_ id: UInt32) -> String { "session \(ClientText.hex32(id))" }

    /// A failure status in a response: a specific code and remedy for the statuses that have one.
    static func failed(_ command: String, status: UCIStatus, device: String, session: UInt32? = nil,
                       state: UCISessionState? = nil) -> UCIClientError {
        let target = session.map { " for \(sessionName($0))" } ?? ""
        let reason = "\(command)\(target) failed: the UWBS answered \(status)"
        var remedy = status.explanation
        var code = Code.commandFailed
        switch status {
        case .sessionDuplicate:
            code = .duplicateSession
            remedy += "; choose another session ID or close the session that uses it"
        case .sessionNotExist:
            code = .sessionNotOpen
            remedy += "; the UWBS no longer has the session (it was reset or deinitialized)"
        case .rejected:
            remedy += state.map { "; the host saw the session in \($0)" } ?? ""
        case .unknownGID, .unknownOID:
            remedy += "; the firmware does not implement this command"
        default:
            break
        }
        return UCIClientError(code, device: device, reason: reason, remedy: remedy, command: command, status: status,
                              session: session, state: state)
    }
}

/// Text helpers of the client (the UCI module's are internal to it).
enum ClientText {
    /// `0x0000002A`.
    static func hex32(_ value: UInt32) -> String { Hex.prefixed(value) }

    /// "300 ms", "2 s", "2.5 s".
    static func duration(_ duration: Duration) -> String { TransportTime.text(duration) }
}
