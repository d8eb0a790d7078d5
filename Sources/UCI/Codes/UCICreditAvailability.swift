/// Whether the host may send data: SESSION_DATA_CREDIT_NTF (UCI 2.0).
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCICreditAvailability: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a credit availability from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// CREDIT_NOT_AVAILABLE (0x00): wait before sending more data.
    public static let notAvailable = UCICreditAvailability(rawValue: 0x00)
    /// CREDIT_AVAILABLE (0x01): the host may send one data message.
    public static let available = UCICreditAvailability(rawValue: 0x01)

    /// The specification's name (`"CREDIT_AVAILABLE"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "CREDIT_NOT_AVAILABLE"
        case 0x01: "CREDIT_AVAILABLE"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "wait before sending more data"
        case 0x01: "the host may send one data message"
        default: "reserved credit availability"
        }
    }

    /// `"CREDIT_AVAILABLE (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
