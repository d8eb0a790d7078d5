public import UCI

/// A message from the UWBS that the client did not act on: vendor and unknown messages,
/// responses that match no outstanding command, notifications for sessions it does not know,
/// bytes that do not decode. Never dropped silently: each is logged with its readable decode
/// and delivered on ``UCIClient/unhandledMessages()`` for diagnostics.
public struct UCIUnhandledMessage: Sendable, Hashable, CustomStringConvertible {
    /// Why the client did not act on the message.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// A message of a vendor-specific group.
        case vendor
        /// A message the codec does not know.
        case unknown
        /// A response while no command with its GID/OID was outstanding (late, duplicate or
        /// unsolicited).
        case unmatchedResponse
        /// A session notification for a session token the client has not opened.
        case unknownSession(UInt32)
        /// A typed message this client does not use (data messages, multicast-list and data
        /// credit notifications, non-two-way range data, commands from the UWBS).
        case notUsed
        /// The bytes did not decode (the codec's error says why).
        case undecodable(UCIError)

        /// `"unmatched response"`, `"undecodable: ..."`.
        public var description: String {
            switch self {
            case .vendor: "vendor-specific message"
            case .unknown: "unknown message"
            case .unmatchedResponse: "response to no outstanding command"
            case .unknownSession(let token): "notification for unknown session \(ClientText.hex32(token))"
            case .notUsed: "message not used by this client"
            case .undecodable(let error): "undecodable: \(error)"
            }
        }
    }

    /// Why it was not handled.
    public var reason: Reason
    /// The message (whole payload, all segments), or `nil` when the packets could not be
    /// reassembled into one.
    public var message: UCIRawMessage?
    /// The typed decode, when the bytes decoded.
    public var decoded: UCIMessage?

    /// Creates an entry.
    public init(reason: Reason, message: UCIRawMessage?, decoded: UCIMessage? = nil) {
        self.reason = reason
        self.message = message
        self.decoded = decoded
    }

    /// `"response to no outstanding command: SESSION_START_RSP {status: OK (0x00)}"`.
    public var description: String {
        let what = decoded.map(\.description) ?? message.map(\.description) ?? "(no message)"
        return "\(reason): \(what)"
    }
}
