/// The DEVICE_ROLE app configuration (0x11).
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIDeviceRole: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a device role from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// RESPONDER (0x00): answers ranging polls.
    public static let responder = UCIDeviceRole(rawValue: 0x00)
    /// INITIATOR (0x01): starts each ranging round.
    public static let initiator = UCIDeviceRole(rawValue: 0x01)
    /// UT_SYNCHRONIZATION_ANCHOR (0x02): UL-TDoA synchronization anchor.
    public static let utSynchronizationAnchor = UCIDeviceRole(rawValue: 0x02)
    /// UT_ANCHOR (0x03): UL-TDoA anchor.
    public static let utAnchor = UCIDeviceRole(rawValue: 0x03)
    /// UT_TAG (0x04): UL-TDoA tag.
    public static let utTag = UCIDeviceRole(rawValue: 0x04)
    /// ADVERTISER (0x05): OWR-AoA advertiser.
    public static let advertiser = UCIDeviceRole(rawValue: 0x05)
    /// OBSERVER (0x06): OWR-AoA observer.
    public static let observer = UCIDeviceRole(rawValue: 0x06)
    /// DT_ANCHOR (0x07): DL-TDoA anchor.
    public static let dtAnchor = UCIDeviceRole(rawValue: 0x07)
    /// DT_TAG (0x08): DL-TDoA tag.
    public static let dtTag = UCIDeviceRole(rawValue: 0x08)

    /// The specification's name (`"INITIATOR"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "RESPONDER"
        case 0x01: "INITIATOR"
        case 0x02: "UT_SYNCHRONIZATION_ANCHOR"
        case 0x03: "UT_ANCHOR"
        case 0x04: "UT_TAG"
        case 0x05: "ADVERTISER"
        case 0x06: "OBSERVER"
        case 0x07: "DT_ANCHOR"
        case 0x08: "DT_TAG"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "answers ranging polls"
        case 0x01: "starts each ranging round"
        case 0x02: "UL-TDoA synchronization anchor"
        case 0x03: "UL-TDoA anchor"
        case 0x04: "UL-TDoA tag"
        case 0x05: "OWR-AoA advertiser"
        case 0x06: "OWR-AoA observer"
        case 0x07: "DL-TDoA anchor"
        case 0x08: "DL-TDoA tag"
        default: "reserved device role"
        }
    }

    /// `"INITIATOR (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
