public import UCI

/// The UWB role an accessory announces in its UWB config data (Apple dialect, one byte). The
/// byte uses FiRa's DEVICE_ROLE numbering (AOSP's UCI packet definition `DeviceRole`, our
/// `UCIDeviceRole` in UCI): NI accessories send 0 or 1; AOSP also knows 5-8 (OWR-AoA advertiser
/// and observer, DL-TDoA anchor and tag), and 2-4 are the UL-TDoA roles.
///
/// Every byte parses (unknown values are kept and named by number): refusing a role is the
/// planner's decision, not the codec's. Only the two-way roles (``isTwoWay``) can range in an NI
/// session; ``SessionPlanner`` refuses the others, naming the field.
public struct NIRangingRole: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The byte on the wire.
    public let rawValue: UInt8
    /// Wraps a byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `0`: responder / controlee. Qorvo's 2024-25 firmware sends this.
    public static let responder = NIRangingRole(rawValue: 0)
    /// `1`: initiator / controller (Qorvo's 2021 firmware, TV-1).
    public static let initiator = NIRangingRole(rawValue: 1)
    /// `5`: OWR-AoA advertiser (FiRa ADVERTISER).
    public static let advertiser = NIRangingRole(rawValue: 5)
    /// `6`: OWR-AoA observer (FiRa OBSERVER).
    public static let observer = NIRangingRole(rawValue: 6)
    /// `7`: DL-TDoA anchor (FiRa DT_ANCHOR).
    public static let dtAnchor = NIRangingRole(rawValue: 7)
    /// `8`: DL-TDoA tag (FiRa DT_TAG).
    public static let dtTag = NIRangingRole(rawValue: 8)

    /// The two roles NI sessions use (two-way ranging): responder and initiator.
    public static let twoWayRoles: [NIRangingRole] = [.responder, .initiator]

    /// `true` for responder (0) and initiator (1), the roles of two-way ranging.
    public var isTwoWay: Bool { rawValue <= 1 }

    /// FiRa's device role with this number.
    public var deviceRole: UCIDeviceRole { UCIDeviceRole(rawValue: rawValue) }

    /// `responder`, `initiator`, or FiRa's name with the number (`DT_ANCHOR (7)`, `role 9`).
    public var description: String {
        switch rawValue {
        case 0: "responder"
        case 1: "initiator"
        default: deviceRole.name.map { "\($0) (\(rawValue))" } ?? "role \(rawValue)"
        }
    }

    /// The roles an NI session can use, for error messages.
    static let usableText = "0 (responder) or 1 (initiator)"
}
