/// The kind of measurements a SESSION_INFO_NTF carries (its octet 13).
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIRangingMeasurementType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a measurement type from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// ONE_WAY (0x00): one-way ranging (UL-TDoA).
    public static let oneWay = UCIRangingMeasurementType(rawValue: 0x00)
    /// TWO_WAY (0x01): two-way ranging (TWR).
    public static let twoWay = UCIRangingMeasurementType(rawValue: 0x01)
    /// DL_TDOA (0x02): downlink time difference of arrival.
    public static let dlTDoA = UCIRangingMeasurementType(rawValue: 0x02)
    /// OWR_AOA (0x03): one-way ranging, angle of arrival.
    public static let owrAoA = UCIRangingMeasurementType(rawValue: 0x03)

    /// The specification's name (`"TWO_WAY"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "ONE_WAY"
        case 0x01: "TWO_WAY"
        case 0x02: "DL_TDOA"
        case 0x03: "OWR_AOA"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "one-way ranging (UL-TDoA)"
        case 0x01: "two-way ranging (TWR)"
        case 0x02: "downlink time difference of arrival"
        case 0x03: "one-way ranging, angle of arrival"
        default: "reserved measurement type"
        }
    }

    /// `"TWO_WAY (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
