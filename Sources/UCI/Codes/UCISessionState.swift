/// The state of a UWB session, reported by SESSION_STATUS_NTF and SESSION_GET_STATE_RSP.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCISessionState: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a session state from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// SESSION_STATE_INIT (0x00): created, waiting for its app configuration.
    public static let initialized = UCISessionState(rawValue: 0x00)
    /// SESSION_STATE_DEINIT (0x01): deinitialized (gone).
    public static let deinitialized = UCISessionState(rawValue: 0x01)
    /// SESSION_STATE_ACTIVE (0x02): ranging.
    public static let active = UCISessionState(rawValue: 0x02)
    /// SESSION_STATE_IDLE (0x03): configured, not ranging.
    public static let idle = UCISessionState(rawValue: 0x03)

    /// The specification's name (`"SESSION_STATE_DEINIT"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "SESSION_STATE_INIT"
        case 0x01: "SESSION_STATE_DEINIT"
        case 0x02: "SESSION_STATE_ACTIVE"
        case 0x03: "SESSION_STATE_IDLE"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "created, waiting for its app configuration"
        case 0x01: "deinitialized (gone)"
        case 0x02: "ranging"
        case 0x03: "configured, not ranging"
        default: "reserved session state"
        }
    }

    /// `"SESSION_STATE_DEINIT (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
