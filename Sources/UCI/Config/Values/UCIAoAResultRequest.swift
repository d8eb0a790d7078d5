/// The AOA_RESULT_REQ app configuration (0x0D): which angles the UWBS reports.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIAoAResultRequest: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a AoA request from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// AOA_DISABLE (0x00): no angle of arrival.
    public static let disabled = UCIAoAResultRequest(rawValue: 0x00)
    /// AOA_ENABLE (0x01): azimuth and elevation if the antennas allow.
    public static let enabled = UCIAoAResultRequest(rawValue: 0x01)
    /// AOA_ENABLE_AZIMUTH (0x02): azimuth only.
    public static let azimuthOnly = UCIAoAResultRequest(rawValue: 0x02)
    /// AOA_ENABLE_ELEVATION (0x03): elevation only.
    public static let elevationOnly = UCIAoAResultRequest(rawValue: 0x03)
    /// AOA_ENABLE_INTERLEAVED (0xF0): interleaved azimuth/elevation/range rounds (vendor).
    public static let interleaved = UCIAoAResultRequest(rawValue: 0xF0)

    /// The specification's name (`"AOA_ENABLE"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "AOA_DISABLE"
        case 0x01: "AOA_ENABLE"
        case 0x02: "AOA_ENABLE_AZIMUTH"
        case 0x03: "AOA_ENABLE_ELEVATION"
        case 0xF0: "AOA_ENABLE_INTERLEAVED"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "no angle of arrival"
        case 0x01: "azimuth and elevation if the antennas allow"
        case 0x02: "azimuth only"
        case 0x03: "elevation only"
        case 0xF0: "interleaved azimuth/elevation/range rounds (vendor)"
        default: "reserved AoA request"
        }
    }

    /// `"AOA_ENABLE (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
