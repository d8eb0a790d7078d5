/// The SESSION_INFO_NTF_CONFIG app configuration (0x0E, 1.x RNG_DATA_NTF): when the UWBS
/// sends range-data notifications.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCISessionInfoNotificationConfig: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a notification configuration from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// DISABLE (0x00): no range-data notifications.
    public static let disabled = UCISessionInfoNotificationConfig(rawValue: 0x00)
    /// ENABLE (0x01): a notification after every round.
    public static let enabled = UCISessionInfoNotificationConfig(rawValue: 0x01)
    /// ENABLE_PROXIMITY_LEVEL_TRIG (0x02): only while the distance is within NEAR/FAR_PROXIMITY.
    public static let proximityLevelTrigger = UCISessionInfoNotificationConfig(rawValue: 0x02)
    /// ENABLE_AOA_LEVEL_TRIG (0x03): only while the angles are within AOA_BOUND_CONFIG.
    public static let aoaLevelTrigger = UCISessionInfoNotificationConfig(rawValue: 0x03)
    /// ENABLE_PROXIMITY_AOA_LEVEL_TRIG (0x04): only while distance and angles are within bounds.
    public static let proximityAndAoALevelTrigger = UCISessionInfoNotificationConfig(rawValue: 0x04)
    /// ENABLE_PROXIMITY_EDGE_TRIG (0x05): when the distance enters or leaves the proximity bounds.
    public static let proximityEdgeTrigger = UCISessionInfoNotificationConfig(rawValue: 0x05)
    /// ENABLE_AOA_EDGE_TRIG (0x06): when the angles enter or leave their bounds.
    public static let aoaEdgeTrigger = UCISessionInfoNotificationConfig(rawValue: 0x06)
    /// ENABLE_PROXIMITY_AOA_EDGE_TRIG (0x07): when distance and angles enter or leave their bounds.
    public static let proximityAndAoAEdgeTrigger = UCISessionInfoNotificationConfig(rawValue: 0x07)

    /// The specification's name (`"ENABLE"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "DISABLE"
        case 0x01: "ENABLE"
        case 0x02: "ENABLE_PROXIMITY_LEVEL_TRIG"
        case 0x03: "ENABLE_AOA_LEVEL_TRIG"
        case 0x04: "ENABLE_PROXIMITY_AOA_LEVEL_TRIG"
        case 0x05: "ENABLE_PROXIMITY_EDGE_TRIG"
        case 0x06: "ENABLE_AOA_EDGE_TRIG"
        case 0x07: "ENABLE_PROXIMITY_AOA_EDGE_TRIG"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "no range-data notifications"
        case 0x01: "a notification after every round"
        case 0x02: "only while the distance is within NEAR/FAR_PROXIMITY"
        case 0x03: "only while the angles are within AOA_BOUND_CONFIG"
        case 0x04: "only while distance and angles are within bounds"
        case 0x05: "when the distance enters or leaves the proximity bounds"
        case 0x06: "when the angles enter or leave their bounds"
        case 0x07: "when distance and angles enter or leave their bounds"
        default: "reserved notification configuration"
        }
    }

    /// `"ENABLE (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
