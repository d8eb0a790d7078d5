/// The identity of a UCI control message: group (GID) and opcode (OID).
///
/// A response carries the GID/OID of its command, which is how a client matches them (only one
/// command is outstanding at a time). A notification may share a GID/OID with a command
/// (SESSION_INFO_NTF and SESSION_START are both 2/00): the message type tells them apart.
public struct UCIOpcode: Sendable, Hashable, CustomStringConvertible {
    /// The group identifier.
    public var gid: UCIGroupID
    /// The 6-bit opcode identifier (0...63).
    public var oid: UInt8

    /// Creates an opcode; bits of `oid` above the low six are dropped.
    public init(gid: UCIGroupID, oid: UInt8) {
        self.gid = gid
        self.oid = oid & 0x3F
    }

    // CORE (GID 0)
    /// CORE_DEVICE_RESET (0/00).
    public static let coreDeviceReset = UCIOpcode(gid: .core, oid: 0x00)
    /// CORE_DEVICE_STATUS_NTF (0/01).
    public static let coreDeviceStatus = UCIOpcode(gid: .core, oid: 0x01)
    /// CORE_GET_DEVICE_INFO (0/02).
    public static let coreGetDeviceInfo = UCIOpcode(gid: .core, oid: 0x02)
    /// CORE_GET_CAPS_INFO (0/03).
    public static let coreGetCapsInfo = UCIOpcode(gid: .core, oid: 0x03)
    /// CORE_SET_CONFIG (0/04).
    public static let coreSetConfig = UCIOpcode(gid: .core, oid: 0x04)
    /// CORE_GET_CONFIG (0/05).
    public static let coreGetConfig = UCIOpcode(gid: .core, oid: 0x05)
    /// CORE_GENERIC_ERROR_NTF (0/07).
    public static let coreGenericError = UCIOpcode(gid: .core, oid: 0x07)
    /// CORE_QUERY_UWBS_TIMESTAMP (0/08, UCI 2.0).
    public static let coreQueryUWBSTimestamp = UCIOpcode(gid: .core, oid: 0x08)

    // SESSION_CONFIG (GID 1)
    /// SESSION_INIT (1/00).
    public static let sessionInit = UCIOpcode(gid: .sessionConfig, oid: 0x00)
    /// SESSION_DEINIT (1/01).
    public static let sessionDeinit = UCIOpcode(gid: .sessionConfig, oid: 0x01)
    /// SESSION_STATUS_NTF (1/02).
    public static let sessionStatus = UCIOpcode(gid: .sessionConfig, oid: 0x02)
    /// SESSION_SET_APP_CONFIG (1/03).
    public static let sessionSetAppConfig = UCIOpcode(gid: .sessionConfig, oid: 0x03)
    /// SESSION_GET_APP_CONFIG (1/04).
    public static let sessionGetAppConfig = UCIOpcode(gid: .sessionConfig, oid: 0x04)
    /// SESSION_GET_COUNT (1/05).
    public static let sessionGetCount = UCIOpcode(gid: .sessionConfig, oid: 0x05)
    /// SESSION_GET_STATE (1/06).
    public static let sessionGetState = UCIOpcode(gid: .sessionConfig, oid: 0x06)
    /// SESSION_UPDATE_CONTROLLER_MULTICAST_LIST (1/07), command, response and notification.
    public static let sessionUpdateMulticastList = UCIOpcode(gid: .sessionConfig, oid: 0x07)

    // SESSION_CONTROL (GID 2)
    /// SESSION_START (1.x RANGE_START) command and response (2/00).
    public static let sessionStart = UCIOpcode(gid: .sessionControl, oid: 0x00)
    /// SESSION_INFO_NTF (1.x RANGE_DATA_NTF), the range-data notification (2/00).
    public static let sessionInfo = UCIOpcode(gid: .sessionControl, oid: 0x00)
    /// SESSION_STOP (1.x RANGE_STOP) (2/01).
    public static let sessionStop = UCIOpcode(gid: .sessionControl, oid: 0x01)
    /// SESSION_GET_RANGING_COUNT (2/03).
    public static let sessionGetRangingCount = UCIOpcode(gid: .sessionControl, oid: 0x03)
    /// SESSION_DATA_CREDIT_NTF (2/04, UCI 2.0).
    public static let sessionDataCredit = UCIOpcode(gid: .sessionControl, oid: 0x04)
    /// SESSION_DATA_TRANSFER_STATUS_NTF (2/05, UCI 2.0).
    public static let sessionDataTransferStatus = UCIOpcode(gid: .sessionControl, oid: 0x05)

    // ANDROID (GID 0xC)
    /// ANDROID_GET_POWER_STATS (0xC/00).
    public static let androidGetPowerStats = UCIOpcode(gid: .android, oid: 0x00)
    /// ANDROID_SET_COUNTRY_CODE (0xC/01).
    public static let androidSetCountryCode = UCIOpcode(gid: .android, oid: 0x01)
    /// ANDROID_RANGE_DIAGNOSTICS_NTF (0xC/02).
    public static let androidRangeDiagnostics = UCIOpcode(gid: .android, oid: 0x02)

    /// The name of the command/response pair with this GID/OID, without `_CMD`/`_RSP`, or `nil`.
    var commandName: String? {
        switch (gid.rawValue, oid) {
        case (0x0, 0x00): "CORE_DEVICE_RESET"
        case (0x0, 0x02): "CORE_GET_DEVICE_INFO"
        case (0x0, 0x03): "CORE_GET_CAPS_INFO"
        case (0x0, 0x04): "CORE_SET_CONFIG"
        case (0x0, 0x05): "CORE_GET_CONFIG"
        case (0x0, 0x06): "CORE_DEVICE_SUSPEND"
        case (0x0, 0x08): "CORE_QUERY_UWBS_TIMESTAMP"
        case (0x1, 0x00): "SESSION_INIT"
        case (0x1, 0x01): "SESSION_DEINIT"
        case (0x1, 0x03): "SESSION_SET_APP_CONFIG"
        case (0x1, 0x04): "SESSION_GET_APP_CONFIG"
        case (0x1, 0x05): "SESSION_GET_COUNT"
        case (0x1, 0x06): "SESSION_GET_STATE"
        case (0x1, 0x07): "SESSION_UPDATE_CONTROLLER_MULTICAST_LIST"
        case (0x1, 0x08): "SESSION_UPDATE_ACTIVE_ROUNDS_ANCHOR"
        case (0x1, 0x09): "SESSION_UPDATE_ACTIVE_ROUNDS_DT_TAG"
        case (0x1, 0x0A): "SESSION_SET_INITIATOR_DT_ANCHOR_RR_RDM_LIST"
        case (0x1, 0x0B): "SESSION_QUERY_DATA_SIZE_IN_RANGING"
        case (0x1, 0x0C): "SESSION_SET_HUS_CONTROLLER_CONFIG"
        case (0x1, 0x0D): "SESSION_SET_HUS_CONTROLEE_CONFIG"
        case (0x1, 0x0E): "SESSION_DATA_TRANSFER_PHASE_CONFIG"
        case (0x2, 0x00): "SESSION_START"
        case (0x2, 0x01): "SESSION_STOP"
        case (0x2, 0x03): "SESSION_GET_RANGING_COUNT"
        case (0x3, 0x00): "APP_DATA_TX"
        case (0x3, 0x01): "APP_DATA_RX"
        case (0xC, 0x00): "ANDROID_GET_POWER_STATS"
        case (0xC, 0x01): "ANDROID_SET_COUNTRY_CODE"
        case (0xC, 0x11): "ANDROID_RADAR_SET_APP_CONFIG"
        case (0xC, 0x12): "ANDROID_RADAR_GET_APP_CONFIG"
        case (0xD, 0x00): "TEST_CONFIG_SET"
        case (0xD, 0x01): "TEST_CONFIG_GET"
        case (0xD, 0x02): "TEST_PERIODIC_TX"
        default: nil
        }
    }

    /// The name of the notification with this GID/OID (ending in `_NTF`), or `nil`.
    var notificationName: String? {
        switch (gid.rawValue, oid) {
        case (0x0, 0x01): "CORE_DEVICE_STATUS_NTF"
        case (0x0, 0x07): "CORE_GENERIC_ERROR_NTF"
        case (0x1, 0x02): "SESSION_STATUS_NTF"
        case (0x1, 0x07): "SESSION_UPDATE_CONTROLLER_MULTICAST_LIST_NTF"
        case (0x1, 0x0E): "SESSION_DATA_TRANSFER_PHASE_CONFIG_NTF"
        case (0x2, 0x00): "SESSION_INFO_NTF"
        case (0x2, 0x04): "SESSION_DATA_CREDIT_NTF"
        case (0x2, 0x05): "SESSION_DATA_TRANSFER_STATUS_NTF"
        case (0xC, 0x02): "ANDROID_RANGE_DIAGNOSTICS_NTF"
        default: nil
        }
    }

    /// The message's name for a message type: `"SESSION_INIT_CMD"`, `"SESSION_INIT_RSP"`,
    /// `"SESSION_INFO_NTF"`; for unknown GID/OIDs `"VENDOR_NTF"` (vendor groups) or
    /// `"UNKNOWN_CMD"`.
    public func messageName(for type: UCIMessageType) -> String {
        switch type {
        case .command: if let name = commandName { return name + "_CMD" }
        case .response: if let name = commandName { return name + "_RSP" }
        case .notification: if let name = notificationName { return name }
        default: break
        }
        return (gid.isVendorSpecific ? "VENDOR_" : "UNKNOWN_") + type.shortName
    }

    /// `"1/03"` (GID/OID in hex).
    public var description: String {
        String(gid.rawValue, radix: 16, uppercase: true) + "/"
            + (oid < 0x10 ? "0" : "") + String(oid, radix: 16, uppercase: true)
    }
}
