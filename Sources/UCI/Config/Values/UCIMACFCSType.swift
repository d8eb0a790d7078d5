/// The MAC_FCS_TYPE app configuration (0x0B): the frame check sequence of MAC frames.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIMACFCSType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a FCS type from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// CRC_16 (0x00): 16-bit CRC.
    public static let crc16 = UCIMACFCSType(rawValue: 0x00)
    /// CRC_32 (0x01): 32-bit CRC.
    public static let crc32 = UCIMACFCSType(rawValue: 0x01)

    /// The specification's name (`"CRC_32"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "CRC_16"
        case 0x01: "CRC_32"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "16-bit CRC"
        case 0x01: "32-bit CRC"
        default: "reserved FCS type"
        }
    }

    /// `"CRC_32 (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
