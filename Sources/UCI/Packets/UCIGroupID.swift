/// The group identifier (GID) of a UCI control message: bits 3-0 of octet 0.
///
/// 0 CORE, 1 SESSION_CONFIG, 2 SESSION_CONTROL, 3 DATA_CONTROL (UCI 1.1), 0xC Android vendor
/// (0xE in UCI 1.1 and older AOSP), 0xD TEST, 0x9-0xB and 0xE-0xF vendor-specific.
public struct UCIGroupID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 4-bit wire value (0...15).
    public let rawValue: UInt8

    /// Creates a group identifier; bits above the low four are dropped.
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }

    /// Core: reset, device info, capabilities, device configuration, device status.
    public static let core = UCIGroupID(rawValue: 0x0)
    /// Session configuration: init, deinit, app configuration, session status.
    public static let sessionConfig = UCIGroupID(rawValue: 0x1)
    /// Session control: start, stop, range data (SESSION_INFO_NTF), data credit and status.
    public static let sessionControl = UCIGroupID(rawValue: 0x2)
    /// UCI 1.1 data control (APP_DATA_TX / APP_DATA_RX).
    public static let dataControl = UCIGroupID(rawValue: 0x3)
    /// Android's vendor group in UCI 2.0 (country code, power stats, diagnostics).
    public static let android = UCIGroupID(rawValue: 0xC)
    /// RF test commands.
    public static let test = UCIGroupID(rawValue: 0xD)

    /// `true` for the vendor-specific groups 0x9-0xC and 0xE-0xF (Android's 0xC included).
    public var isVendorSpecific: Bool { (0x9...0xC).contains(rawValue) || rawValue >= 0xE }

    /// The group's name: `"CORE"`, `"SESSION_CONFIG"`, ..., `"VENDOR_E"`, or `"RFU_4"`.
    public var name: String {
        switch rawValue {
        case 0x0: "CORE"
        case 0x1: "SESSION_CONFIG"
        case 0x2: "SESSION_CONTROL"
        case 0x3: "DATA_CONTROL"
        case 0xC: "ANDROID"
        case 0xD: "TEST"
        case 0x9, 0xA, 0xB, 0xE, 0xF: "VENDOR_\(String(rawValue, radix: 16, uppercase: true))"
        default: "RFU_\(String(rawValue, radix: 16, uppercase: true))"
        }
    }

    /// `"SESSION_CONFIG (0x1)"`.
    public var description: String { "\(name) (0x\(String(rawValue, radix: 16, uppercase: true)))" }
}
