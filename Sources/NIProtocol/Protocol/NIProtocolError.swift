/// Why NI accessory protocol bytes or values were rejected: which structure, which field, the
/// offending value and what was expected.
///
/// Parsers throw it for malformed bytes received from a peer; builders (the validating
/// initializers) throw it for values outside a field's range. ``description`` is a complete
/// sentence a user can act on, for example
/// `accessoryConfigurationData: uwbConfigDataLength 20 is not one of 19 (v1.0), 21 (v1.1), 32 (v2.0)`
/// or `message 0x01 accessoryConfigurationData: truncated: accessoryConfigurationData needs 37 bytes, got 20 ...`.
public struct NIProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// A message of zero bytes: not even the 1-byte message ID.
        case emptyMessage
        /// The bytes end early: the structure needs `needed` bytes (exactly, or at least when
        /// `isExact` is `false`), `got` were present.
        case truncated(needed: Int, got: Int, isExact: Bool)
        /// The structure is `expected` bytes long but `got` bytes were given.
        case trailingBytes(expected: Int, got: Int)
        /// A length field holds `value`, which is not one of `allowed` (for example
        /// `"19 (v1.0), 21 (v1.1), 32 (v2.0)"`).
        case invalidLength(value: Int, allowed: String)
        /// A field holds `value`, outside `allowed` (for example `"5 or 9"`).
        case outOfRange(value: Int, allowed: String)
        /// A text field holds `value`, which is not of the form `allowed`.
        case invalidText(value: String, allowed: String)
        /// A field that another field requires is missing (builders only).
        case missingField(requiredBy: String)
        /// The payload length belongs to the other dialect than the one the caller speaks.
        case dialectMismatch(expected: NIDialect, found: NIDialect, payloadLength: Int)
    }

    /// The structure being parsed or built, for example `accessoryConfigurationData`.
    public var structure: String
    /// The field at fault, for example `uwbConfigDataLength`; `nil` when the whole structure is.
    public var field: String?
    /// What was wrong.
    public var reason: Reason
    /// The NI message whose payload held the structure, when the error arose while decoding a
    /// message (``NIMessage/init(decoding:dialect:)``).
    public var messageID: NIMessageID?

    /// Creates an error.
    public init(structure: String, field: String? = nil, reason: Reason, messageID: NIMessageID? = nil) {
        self.structure = structure
        self.field = field
        self.reason = reason
        self.messageID = messageID
    }

    /// A sentence naming the structure, field, value and the expected range or length.
    public var description: String {
        var text = ""
        if let messageID {
            text += "message \(messageID): "
        }
        let fieldName = field.map { " \($0)" } ?? ""
        switch reason {
        case .emptyMessage:
            text += "empty NI message: expected at least the 1-byte message ID"
        case .truncated(let needed, let got, let isExact):
            text += "truncated: \(structure) needs \(isExact ? "" : "at least ")\(needed) bytes, got \(got)"
            if let field { text += " (field \(field) is cut)" }
            if messageID != nil {
                text +=
                    "; a BLE write or notification carries at most ATT_MTU - 3 bytes,"
                    + " so the link needs ATT_MTU >= \(needed + 1 + 3) for this message"
            }
        case .trailingBytes(let expected, let got):
            text += "\(structure) is \(expected) bytes long, got \(got) (\(got - expected) unexpected trailing bytes)"
        case .invalidLength(let value, let allowed):
            text += "\(structure):\(fieldName) \(value) is not one of \(allowed)"
        case .outOfRange(let value, let allowed):
            text += "\(structure):\(fieldName) \(value) is out of range, expected \(allowed)"
        case .invalidText(let value, let allowed):
            text += "\(structure):\(fieldName) \"\(value)\" is invalid, expected \(allowed)"
        case .missingField(let requiredBy):
            text += "\(structure):\(fieldName) is required by \(requiredBy)"
        case .dialectMismatch(let expected, let found, let payloadLength):
            text +=
                "a \(payloadLength)-byte payload is the \(found) form of \(structure),"
                + " but this exchange speaks the \(expected) dialect"
                + " (the app sent \(expected.initializeMessageID)); decode with dialect"
                + " .\(found) or nil to accept both"
        }
        return text
    }
}
