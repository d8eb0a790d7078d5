/// The PREAMBLE_DURATION app configuration (0x17).
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIPreambleDuration: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a preamble duration from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// T32_SYMBOLS (0x00): 32 preamble symbols.
    public static let symbols32 = UCIPreambleDuration(rawValue: 0x00)
    /// T64_SYMBOLS (0x01): 64 preamble symbols.
    public static let symbols64 = UCIPreambleDuration(rawValue: 0x01)

    /// The specification's name (`"T64_SYMBOLS"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "T32_SYMBOLS"
        case 0x01: "T64_SYMBOLS"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "32 preamble symbols"
        case 0x01: "64 preamble symbols"
        default: "reserved preamble duration"
        }
    }

    /// `"T64_SYMBOLS (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
