/// The RANGING_ROUND_USAGE app configuration (0x01): the ranging method.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIRangingRoundUsage: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a ranging round usage from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// OWR_UL_TDOA (0x00): one-way ranging, uplink TDoA.
    public static let owrULTDoA = UCIRangingRoundUsage(rawValue: 0x00)
    /// SS_TWR_DEFERRED (0x01): single-sided two-way ranging, deferred mode.
    public static let ssTWRDeferred = UCIRangingRoundUsage(rawValue: 0x01)
    /// DS_TWR_DEFERRED (0x02): double-sided two-way ranging, deferred mode.
    public static let dsTWRDeferred = UCIRangingRoundUsage(rawValue: 0x02)
    /// SS_TWR_NON_DEFERRED (0x03): single-sided two-way ranging, non-deferred mode.
    public static let ssTWRNonDeferred = UCIRangingRoundUsage(rawValue: 0x03)
    /// DS_TWR_NON_DEFERRED (0x04): double-sided two-way ranging, non-deferred mode.
    public static let dsTWRNonDeferred = UCIRangingRoundUsage(rawValue: 0x04)
    /// OWR_DL_TDOA (0x05): one-way ranging, downlink TDoA.
    public static let owrDLTDoA = UCIRangingRoundUsage(rawValue: 0x05)
    /// OWR_AOA (0x06): one-way ranging for angle of arrival.
    public static let owrAoA = UCIRangingRoundUsage(rawValue: 0x06)
    /// ESS_TWR_NON_DEFERRED (0x07): enhanced single-sided two-way ranging, non-deferred.
    public static let essTWRNonDeferred = UCIRangingRoundUsage(rawValue: 0x07)
    /// ADS_TWR (0x08): asymmetric double-sided two-way ranging.
    public static let adsTWR = UCIRangingRoundUsage(rawValue: 0x08)

    /// The specification's name (`"SS_TWR_DEFERRED"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "OWR_UL_TDOA"
        case 0x01: "SS_TWR_DEFERRED"
        case 0x02: "DS_TWR_DEFERRED"
        case 0x03: "SS_TWR_NON_DEFERRED"
        case 0x04: "DS_TWR_NON_DEFERRED"
        case 0x05: "OWR_DL_TDOA"
        case 0x06: "OWR_AOA"
        case 0x07: "ESS_TWR_NON_DEFERRED"
        case 0x08: "ADS_TWR"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "one-way ranging, uplink TDoA"
        case 0x01: "single-sided two-way ranging, deferred mode"
        case 0x02: "double-sided two-way ranging, deferred mode"
        case 0x03: "single-sided two-way ranging, non-deferred mode"
        case 0x04: "double-sided two-way ranging, non-deferred mode"
        case 0x05: "one-way ranging, downlink TDoA"
        case 0x06: "one-way ranging for angle of arrival"
        case 0x07: "enhanced single-sided two-way ranging, non-deferred"
        case 0x08: "asymmetric double-sided two-way ranging"
        default: "reserved ranging round usage"
        }
    }

    /// `"SS_TWR_DEFERRED (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
