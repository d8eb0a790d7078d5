/// The RFRAME_CONFIG app configuration (0x12): where the STS sits in ranging frames.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIRFrameConfig: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a RFRAME configuration from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// SP0 (0x00): no STS.
    public static let sp0 = UCIRFrameConfig(rawValue: 0x00)
    /// SP1 (0x01): STS after the SFD, before the PHY header.
    public static let sp1 = UCIRFrameConfig(rawValue: 0x01)
    /// SP2 (0x02): STS after the PHY payload.
    public static let sp2 = UCIRFrameConfig(rawValue: 0x02)
    /// SP3 (0x03): STS only, no PHY header or payload.
    public static let sp3 = UCIRFrameConfig(rawValue: 0x03)

    /// The specification's name (`"SP1"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "SP0"
        case 0x01: "SP1"
        case 0x02: "SP2"
        case 0x03: "SP3"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "no STS"
        case 0x01: "STS after the SFD, before the PHY header"
        case 0x02: "STS after the PHY payload"
        case 0x03: "STS only, no PHY header or payload"
        default: "reserved RFRAME configuration"
        }
    }

    /// `"SP1 (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
