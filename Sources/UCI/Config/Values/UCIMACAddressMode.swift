/// The MAC_ADDRESS_MODE app configuration (0x26): the size of MAC addresses in the app
/// configuration and in frames.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIMACAddressMode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a MAC address mode from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// MAC_ADDRESS_2_BYTES (0x00): 2-byte short addresses everywhere.
    public static let short = UCIMACAddressMode(rawValue: 0x00)
    /// MAC_ADDRESS_8_BYTES_2_BYTES_HEADER (0x01): 8-byte addresses, 2-byte addresses in frame headers.
    public static let extendedWithShortHeader = UCIMACAddressMode(rawValue: 0x01)
    /// MAC_ADDRESS_8_BYTES (0x02): 8-byte extended addresses everywhere.
    public static let extended = UCIMACAddressMode(rawValue: 0x02)

    /// The specification's name (`"MAC_ADDRESS_8_BYTES_2_BYTES_HEADER"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "MAC_ADDRESS_2_BYTES"
        case 0x01: "MAC_ADDRESS_8_BYTES_2_BYTES_HEADER"
        case 0x02: "MAC_ADDRESS_8_BYTES"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "2-byte short addresses everywhere"
        case 0x01: "8-byte addresses, 2-byte addresses in frame headers"
        case 0x02: "8-byte extended addresses everywhere"
        default: "reserved MAC address mode"
        }
    }

    /// `"MAC_ADDRESS_8_BYTES_2_BYTES_HEADER (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }

    /// The size of a MAC address in DEVICE_MAC_ADDRESS and DST_MAC_ADDRESS with this mode: 2
    /// for ``short``, 8 otherwise.
    public var addressLength: Int { rawValue == 0x00 ? 2 : 8 }
}
