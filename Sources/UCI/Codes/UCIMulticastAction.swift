/// What SESSION_UPDATE_CONTROLLER_MULTICAST_LIST_CMD does with its controlees.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIMulticastAction: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a multicast action from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// ADD_CONTROLEE (0x00): add controlees.
    public static let add = UCIMulticastAction(rawValue: 0x00)
    /// REMOVE_CONTROLEE (0x01): remove controlees.
    public static let remove = UCIMulticastAction(rawValue: 0x01)
    /// ADD_CONTROLEE_WITH_SHORT_SUB_SESSION_KEY (0x02): add controlees, each with a 16-byte sub-session key (UCI 2.0).
    public static let addWithShortSubSessionKey = UCIMulticastAction(rawValue: 0x02)
    /// ADD_CONTROLEE_WITH_LONG_SUB_SESSION_KEY (0x03): add controlees, each with a 32-byte sub-session key (UCI 2.0).
    public static let addWithLongSubSessionKey = UCIMulticastAction(rawValue: 0x03)

    /// The specification's name (`"REMOVE_CONTROLEE"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "ADD_CONTROLEE"
        case 0x01: "REMOVE_CONTROLEE"
        case 0x02: "ADD_CONTROLEE_WITH_SHORT_SUB_SESSION_KEY"
        case 0x03: "ADD_CONTROLEE_WITH_LONG_SUB_SESSION_KEY"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "add controlees"
        case 0x01: "remove controlees"
        case 0x02: "add controlees, each with a 16-byte sub-session key (UCI 2.0)"
        case 0x03: "add controlees, each with a 32-byte sub-session key (UCI 2.0)"
        default: "reserved multicast action"
        }
    }

    /// `"REMOVE_CONTROLEE (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }

    /// The length of the sub-session key each controlee carries with this action: 16 for
    /// ``addWithShortSubSessionKey``, 32 for ``addWithLongSubSessionKey``, 0 otherwise.
    public var subSessionKeyLength: Int {
        switch rawValue {
        case 0x02: 16
        case 0x03: 32
        default: 0
        }
    }
}
