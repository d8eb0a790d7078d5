/// The STS_CONFIG app configuration (0x02): how the scrambled timestamp sequence is keyed.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCISTSConfig: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a STS configuration from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// STATIC (0x00): static STS from VENDOR_ID and STATIC_STS_IV.
    public static let staticSTS = UCISTSConfig(rawValue: 0x00)
    /// DYNAMIC (0x01): dynamic STS from a session key.
    public static let dynamicSTS = UCISTSConfig(rawValue: 0x01)
    /// DYNAMIC_FOR_CONTROLEE_INDIVIDUAL_KEY (0x02): dynamic STS with a responder-specific sub-session key.
    public static let dynamicSTSIndividualKey = UCISTSConfig(rawValue: 0x02)
    /// PROVISIONED (0x03): provisioned STS.
    public static let provisionedSTS = UCISTSConfig(rawValue: 0x03)
    /// PROVISIONED_FOR_CONTROLEE_INDIVIDUAL_KEY (0x04): provisioned STS with a responder-specific sub-session key.
    public static let provisionedSTSIndividualKey = UCISTSConfig(rawValue: 0x04)

    /// The specification's name (`"DYNAMIC"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "STATIC"
        case 0x01: "DYNAMIC"
        case 0x02: "DYNAMIC_FOR_CONTROLEE_INDIVIDUAL_KEY"
        case 0x03: "PROVISIONED"
        case 0x04: "PROVISIONED_FOR_CONTROLEE_INDIVIDUAL_KEY"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "static STS from VENDOR_ID and STATIC_STS_IV"
        case 0x01: "dynamic STS from a session key"
        case 0x02: "dynamic STS with a responder-specific sub-session key"
        case 0x03: "provisioned STS"
        case 0x04: "provisioned STS with a responder-specific sub-session key"
        default: "reserved STS configuration"
        }
    }

    /// `"DYNAMIC (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
