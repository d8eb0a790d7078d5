/// How close an accessory must be to be offered, like AccessorySetupKit's `bluetoothRange`.
///
/// Apple does not publish numbers; ours are RSSI thresholds on the report as received:
/// - ``default``: no threshold: everything the controller hears (down to its sensitivity,
///   about -95 to -100 dBm on common adapters).
/// - ``immediate``: RSSI >= -50 dBm. A 0 dBm accessory (the usual default of nRF52 and
///   DWM3001 firmware) reads about -55 to -65 dBm at 1 m through a typical USB adapter and
///   -40 to -50 dBm within 10-30 cm, so -50 dBm means "held next to the computer" (a +8 dBm
///   accessory may reach it at about half a metre). Reports without an RSSI never match.
public enum DiscoveryRange: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Any distance the radio reaches.
    case `default`
    /// Next to the computer (RSSI >= ``immediateThreshold``).
    case immediate

    /// The RSSI an advertisement needs for ``immediate``, dBm.
    public static let immediateThreshold: Int8 = -50

    /// The minimum RSSI, dBm (`nil`: any, also a report without RSSI).
    public var minimumRSSI: Int8? {
        switch self {
        case .default: return nil
        case .immediate: return Self.immediateThreshold
        }
    }

    /// `true` if a report with `rssi` (dBm, `nil` if not measured) is within this range.
    public func contains(rssi: Int8?) -> Bool {
        guard let minimum = minimumRSSI else { return true }
        guard let rssi else { return false }
        return rssi >= minimum
    }

    /// `"default"` or `"immediate"`.
    public var description: String { rawValue }
}
