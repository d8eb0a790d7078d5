import NearbyBase

/// A UWB MAC address: 2-byte short or 8-byte extended.
///
/// UCI carries MAC addresses as little-endian integers: the short address `0x0201` is the wire
/// bytes `01 02`. The integer is what ``description`` shows.
public enum UCIMACAddress: Sendable, Hashable, CustomStringConvertible {
    /// A 2-byte short address.
    case short(UInt16)
    /// An 8-byte extended address.
    case extended(UInt64)

    /// The wire length: 2 or 8 bytes.
    public var length: Int {
        switch self {
        case .short: 2
        case .extended: 8
        }
    }

    /// `true` for an extended address.
    public var isExtended: Bool {
        if case .extended = self { return true }
        return false
    }

    /// The address as an integer (a short address fills the low 16 bits).
    public var value: UInt64 {
        switch self {
        case .short(let value): UInt64(value)
        case .extended(let value): value
        }
    }

    /// The wire bytes (little-endian).
    public var bytes: [UInt8] { littleEndianBytes(value, width: length) }

    /// Decodes an address from its wire bytes: 2 bytes give a short address, 8 an extended one.
    /// - Throws: ``UCIError/Code/invalidLength`` for any other length.
    public init(bytes: some Collection<UInt8>, context: String = "MAC address") throws(UCIError) {
        switch bytes.count {
        case 2: self = .short(UInt16(littleEndianValue(bytes)))
        case 8: self = .extended(littleEndianValue(bytes))
        default:
            throw UCIError(
                .invalidLength, context: context,
                detail: "a MAC address has 2 (short) or 8 (extended) bytes, got \(bytes.count)")
        }
    }

    /// `"0x0201"` (short) or `"0x0807060504030201"` (extended).
    public var description: String { Hex.prefixed(value, digits: 2 * length) }
}
