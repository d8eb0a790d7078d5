import NearbyBase

/// The two-byte regulatory country code at the start of the shareable configuration data
/// (ASCII, for example `EU` in TV-2).
///
/// Parsing keeps any two bytes as received (iOS chooses them; nothing here depends on them);
/// building from text accepts two ASCII capital letters.
public struct RegulatoryCountryCode: Sendable, Hashable, CustomStringConvertible {
    /// The first byte (first letter).
    public var first: UInt8
    /// The second byte (second letter).
    public var second: UInt8

    /// Wraps two raw bytes.
    public init(first: UInt8, second: UInt8) {
        self.first = first
        self.second = second
    }

    /// A code from two ASCII capital letters, for example `"EU"` or `"US"`.
    ///
    /// - Throws: ``NIProtocolError`` (`invalidText`, field `countryCode`) for anything else.
    public init(_ text: String) throws(NIProtocolError) {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 2, scalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            throw NIProtocolError(
                structure: ShareableConfigurationData.structureName, field: "countryCode",
                reason: .invalidText(value: text, allowed: "two ASCII capital letters, for example \"US\""))
        }
        first = UInt8(scalars[0].value)
        second = UInt8(scalars[1].value)
    }

    /// The two letters, or the hex bytes when they are not printable ASCII (`0x00 0x00`).
    public var description: String {
        let printable: Range<UInt8> = 0x20..<0x7F
        guard printable.contains(first), printable.contains(second) else {
            return "\(Hex.prefixed(first)) \(Hex.prefixed(second))"
        }
        return String(decoding: [first, second], as: UTF8.self)
    }
}
