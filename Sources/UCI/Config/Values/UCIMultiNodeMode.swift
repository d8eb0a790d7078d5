/// The MULTI_NODE_MODE app configuration (0x03).
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIMultiNodeMode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a multi-node mode from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// UNICAST (0x00): one controller, one controlee.
    public static let unicast = UCIMultiNodeMode(rawValue: 0x00)
    /// ONE_TO_MANY (0x01): one controller, several controlees.
    public static let oneToMany = UCIMultiNodeMode(rawValue: 0x01)
    /// MANY_TO_MANY (0x02): several controllers and controlees.
    public static let manyToMany = UCIMultiNodeMode(rawValue: 0x02)

    /// The specification's name (`"ONE_TO_MANY"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "UNICAST"
        case 0x01: "ONE_TO_MANY"
        case 0x02: "MANY_TO_MANY"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "one controller, one controlee"
        case 0x01: "one controller, several controlees"
        case 0x02: "several controllers and controlees"
        default: "reserved multi-node mode"
        }
    }

    /// `"ONE_TO_MANY (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
