/// The STS_LENGTH app configuration (0x35): the length of the STS.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCISTSLength: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a STS length from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// LENGTH_32_SYMBOLS (0x00): 32 symbols.
    public static let symbols32 = UCISTSLength(rawValue: 0x00)
    /// LENGTH_64_SYMBOLS (0x01): 64 symbols.
    public static let symbols64 = UCISTSLength(rawValue: 0x01)
    /// LENGTH_128_SYMBOLS (0x02): 128 symbols.
    public static let symbols128 = UCISTSLength(rawValue: 0x02)

    /// The specification's name (`"LENGTH_64_SYMBOLS"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "LENGTH_32_SYMBOLS"
        case 0x01: "LENGTH_64_SYMBOLS"
        case 0x02: "LENGTH_128_SYMBOLS"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "32 symbols"
        case 0x01: "64 symbols"
        case 0x02: "128 symbols"
        default: "reserved STS length"
        }
    }

    /// `"LENGTH_64_SYMBOLS (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
