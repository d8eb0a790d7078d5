/// A UCI packet or message could not be encoded or decoded.
///
/// One error type for the whole codec. ``code`` says what kind of problem it is (for programs);
/// ``description`` says, in words a user can act on, which message and field were wrong, the
/// value found and what was expected, for example:
///
/// `SESSION_INFO_NTF: field "measurements": 2 measurements of 31 bytes need 62 bytes after the
/// 25-byte header, but only 31 are left (the notification is truncated or N is wrong)`
public struct UCIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, stable for programs to match on.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// A short identifier, for example `"truncated"`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Fewer bytes than the message, packet or field needs.
        public static let truncated = Code(rawValue: "truncated")
        /// Bytes left over after the last field of a fixed-layout message or packet.
        public static let trailingBytes = Code(rawValue: "trailing-bytes")
        /// A length (a TLV length, a count, a payload length) does not fit its field or its data.
        public static let invalidLength = Code(rawValue: "invalid-length")
        /// A field holds a value outside its allowed range.
        public static let invalidValue = Code(rawValue: "invalid-value")
        /// A segment of a segmented message does not belong to the message being reassembled.
        public static let segmentMismatch = Code(rawValue: "segment-mismatch")
        /// A message is larger than the limit (of the packet format or of the reassembler).
        public static let messageTooLarge = Code(rawValue: "message-too-large")
        /// A message of one kind was given where another was expected (for example a data
        /// message to the control-message decoder).
        public static let unexpectedMessage = Code(rawValue: "unexpected-message")

        /// The identifier.
        public var description: String { rawValue }
    }

    /// What kind of problem it is.
    public var code: Code
    /// The message or structure being processed, for example `"SESSION_INFO_NTF"` or
    /// `"UCI packet header"`.
    public var context: String
    /// The field that was wrong, if one field is to blame, for example `"RANGING_DURATION"`.
    public var field: String?
    /// What was wrong: the value found and what was expected.
    public var detail: String

    /// Creates an error.
    public init(_ code: Code, context: String, field: String? = nil, detail: String) {
        self.code = code
        self.context = context
        self.field = field
        self.detail = detail
    }

    /// `"<context>: field "<field>": <detail>"`, or `"<context>: <detail>"` without a field.
    public var description: String {
        if let field { return "\(context): field \"\(field)\": \(detail)" }
        return "\(context): \(detail)"
    }
}
