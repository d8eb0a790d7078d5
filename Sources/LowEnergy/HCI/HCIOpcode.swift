/// An HCI command opcode: OGF (6 bits) and OCF (10 bits) packed into 16 bits.
public struct HCIOpcode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The packed opcode, e.g. 0x0C03 for Reset.
    public let rawValue: UInt16

    /// Creates an opcode from its packed value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Packs a group (OGF) and command (OCF) field.
    public init(group: UInt8, command: UInt16) {
        self.rawValue = UInt16(group & 0x3F) << 10 | (command & 0x03FF)
    }

    /// The opcode group field.
    public var group: UInt8 { UInt8(rawValue >> 10) }
    /// The opcode command field.
    public var command: UInt16 { rawValue & 0x03FF }

    // Link control (OGF 0x01)
    /// Disconnect (0x0406).
    public static let disconnect = HCIOpcode(rawValue: 0x0406)
    /// Read Remote Version Information (0x041D).
    public static let readRemoteVersionInformation = HCIOpcode(rawValue: 0x041D)
    // Controller and baseband (OGF 0x03)
    /// Set Event Mask (0x0C01).
    public static let setEventMask = HCIOpcode(rawValue: 0x0C01)
    /// Reset (0x0C03).
    public static let reset = HCIOpcode(rawValue: 0x0C03)
    /// Set Event Mask Page 2 (0x0C63).
    public static let setEventMaskPage2 = HCIOpcode(rawValue: 0x0C63)
    /// Write LE Host Support (0x0C6D).
    public static let writeLEHostSupport = HCIOpcode(rawValue: 0x0C6D)
    // Informational (OGF 0x04)
    /// Read Local Version Information (0x1001).
    public static let readLocalVersionInformation = HCIOpcode(rawValue: 0x1001)
    /// Read Local Supported Commands (0x1002).
    public static let readLocalSupportedCommands = HCIOpcode(rawValue: 0x1002)
    /// Read Local Supported Features (0x1003).
    public static let readLocalSupportedFeatures = HCIOpcode(rawValue: 0x1003)
    /// Read Buffer Size (0x1005).
    public static let readBufferSize = HCIOpcode(rawValue: 0x1005)
    /// Read BD_ADDR (0x1009).
    public static let readBDADDR = HCIOpcode(rawValue: 0x1009)
    // Status (OGF 0x05)
    /// Read RSSI (0x1405).
    public static let readRSSI = HCIOpcode(rawValue: 0x1405)
    /// Read Encryption Key Size (0x1408).
    public static let readEncryptionKeySize = HCIOpcode(rawValue: 0x1408)
    // LE controller (OGF 0x08)
    /// LE Set Event Mask (0x2001).
    public static let leSetEventMask = HCIOpcode(rawValue: 0x2001)
    /// LE Read Buffer Size (0x2002).
    public static let leReadBufferSize = HCIOpcode(rawValue: 0x2002)
    /// LE Read Local Supported Features (0x2003).
    public static let leReadLocalSupportedFeatures = HCIOpcode(rawValue: 0x2003)
    /// LE Set Random Address (0x2005).
    public static let leSetRandomAddress = HCIOpcode(rawValue: 0x2005)
    /// LE Set Scan Parameters (0x200B).
    public static let leSetScanParameters = HCIOpcode(rawValue: 0x200B)
    /// LE Set Scan Enable (0x200C).
    public static let leSetScanEnable = HCIOpcode(rawValue: 0x200C)
    /// LE Create Connection (0x200D).
    public static let leCreateConnection = HCIOpcode(rawValue: 0x200D)
    /// LE Create Connection Cancel (0x200E).
    public static let leCreateConnectionCancel = HCIOpcode(rawValue: 0x200E)
    /// LE Read Filter Accept List Size (0x200F).
    public static let leReadFilterAcceptListSize = HCIOpcode(rawValue: 0x200F)
    /// LE Connection Update (0x2013).
    public static let leConnectionUpdate = HCIOpcode(rawValue: 0x2013)
    /// LE Read Remote Features (0x2016).
    public static let leReadRemoteFeatures = HCIOpcode(rawValue: 0x2016)
    /// LE Encrypt (0x2017).
    public static let leEncrypt = HCIOpcode(rawValue: 0x2017)
    /// LE Rand (0x2018).
    public static let leRand = HCIOpcode(rawValue: 0x2018)
    /// LE Enable Encryption (0x2019).
    public static let leEnableEncryption = HCIOpcode(rawValue: 0x2019)
    /// LE Long Term Key Request Reply (0x201A).
    public static let leLongTermKeyRequestReply = HCIOpcode(rawValue: 0x201A)
    /// LE Long Term Key Request Negative Reply (0x201B).
    public static let leLongTermKeyRequestNegativeReply = HCIOpcode(rawValue: 0x201B)
    /// LE Read Supported States (0x201C).
    public static let leReadSupportedStates = HCIOpcode(rawValue: 0x201C)
    /// LE Remote Connection Parameter Request Reply (0x2020).
    public static let leRemoteConnectionParameterRequestReply = HCIOpcode(rawValue: 0x2020)
    /// LE Remote Connection Parameter Request Negative Reply (0x2021).
    public static let leRemoteConnectionParameterRequestNegativeReply = HCIOpcode(rawValue: 0x2021)
    /// LE Set Data Length (0x2022).
    public static let leSetDataLength = HCIOpcode(rawValue: 0x2022)
    /// LE Add Device To Resolving List (0x2027).
    public static let leAddDeviceToResolvingList = HCIOpcode(rawValue: 0x2027)
    /// LE Clear Resolving List (0x2029).
    public static let leClearResolvingList = HCIOpcode(rawValue: 0x2029)
    /// LE Set Address Resolution Enable (0x202D).
    public static let leSetAddressResolutionEnable = HCIOpcode(rawValue: 0x202D)
    /// LE Set PHY (0x2032).
    public static let leSetPHY = HCIOpcode(rawValue: 0x2032)
    /// LE Set Extended Scan Parameters (0x2041).
    public static let leSetExtendedScanParameters = HCIOpcode(rawValue: 0x2041)
    /// LE Set Extended Scan Enable (0x2042).
    public static let leSetExtendedScanEnable = HCIOpcode(rawValue: 0x2042)
    /// LE Extended Create Connection (0x2043).
    public static let leExtendedCreateConnection = HCIOpcode(rawValue: 0x2043)
    /// LE Read Buffer Size v2 (0x2060).
    public static let leReadBufferSizeV2 = HCIOpcode(rawValue: 0x2060)
    /// LE Set Advertising Parameters (0x2006).
    public static let leSetAdvertisingParameters = HCIOpcode(rawValue: 0x2006)
    /// LE Set Advertising Data (0x2008).
    public static let leSetAdvertisingData = HCIOpcode(rawValue: 0x2008)
    /// LE Set Scan Response Data (0x2009).
    public static let leSetScanResponseData = HCIOpcode(rawValue: 0x2009)
    /// LE Set Advertising Enable (0x200A).
    public static let leSetAdvertisingEnable = HCIOpcode(rawValue: 0x200A)
    /// LE Set Advertising Set Random Address (0x2035).
    public static let leSetAdvertisingSetRandomAddress = HCIOpcode(rawValue: 0x2035)
    /// LE Set Extended Advertising Parameters (0x2036).
    public static let leSetExtendedAdvertisingParameters = HCIOpcode(rawValue: 0x2036)
    /// LE Set Extended Advertising Data (0x2037).
    public static let leSetExtendedAdvertisingData = HCIOpcode(rawValue: 0x2037)
    /// LE Set Extended Scan Response Data (0x2038).
    public static let leSetExtendedScanResponseData = HCIOpcode(rawValue: 0x2038)
    /// LE Set Extended Advertising Enable (0x2039).
    public static let leSetExtendedAdvertisingEnable = HCIOpcode(rawValue: 0x2039)

    /// The command's name, e.g. "LE Set Scan Enable"; `"OGF 0xNN OCF 0xNNNN"` for unknown ones.
    public var name: String {
        switch rawValue {
        case 0x0000: return "NOP"
        case 0x0406: return "Disconnect"
        case 0x041D: return "Read Remote Version Information"
        case 0x0C01: return "Set Event Mask"
        case 0x0C03: return "Reset"
        case 0x0C63: return "Set Event Mask Page 2"
        case 0x0C6D: return "Write LE Host Support"
        case 0x1001: return "Read Local Version Information"
        case 0x1002: return "Read Local Supported Commands"
        case 0x1003: return "Read Local Supported Features"
        case 0x1005: return "Read Buffer Size"
        case 0x1009: return "Read BD_ADDR"
        case 0x1405: return "Read RSSI"
        case 0x1408: return "Read Encryption Key Size"
        case 0x2001: return "LE Set Event Mask"
        case 0x2002: return "LE Read Buffer Size"
        case 0x2003: return "LE Read Local Supported Features"
        case 0x2005: return "LE Set Random Address"
        case 0x2006: return "LE Set Advertising Parameters"
        case 0x2008: return "LE Set Advertising Data"
        case 0x2009: return "LE Set Scan Response Data"
        case 0x200A: return "LE Set Advertising Enable"
        case 0x200B: return "LE Set Scan Parameters"
        case 0x200C: return "LE Set Scan Enable"
        case 0x200D: return "LE Create Connection"
        case 0x200E: return "LE Create Connection Cancel"
        case 0x200F: return "LE Read Filter Accept List Size"
        case 0x2013: return "LE Connection Update"
        case 0x2016: return "LE Read Remote Features"
        case 0x2017: return "LE Encrypt"
        case 0x2018: return "LE Rand"
        case 0x2019: return "LE Enable Encryption"
        case 0x201A: return "LE Long Term Key Request Reply"
        case 0x201B: return "LE Long Term Key Request Negative Reply"
        case 0x201C: return "LE Read Supported States"
        case 0x2027: return "LE Add Device To Resolving List"
        case 0x2029: return "LE Clear Resolving List"
        case 0x202D: return "LE Set Address Resolution Enable"
        case 0x2020: return "LE Remote Connection Parameter Request Reply"
        case 0x2021: return "LE Remote Connection Parameter Request Negative Reply"
        case 0x2022: return "LE Set Data Length"
        case 0x2032: return "LE Set PHY"
        case 0x2035: return "LE Set Advertising Set Random Address"
        case 0x2036: return "LE Set Extended Advertising Parameters"
        case 0x2037: return "LE Set Extended Advertising Data"
        case 0x2038: return "LE Set Extended Scan Response Data"
        case 0x2039: return "LE Set Extended Advertising Enable"
        case 0x2041: return "LE Set Extended Scan Parameters"
        case 0x2042: return "LE Set Extended Scan Enable"
        case 0x2043: return "LE Extended Create Connection"
        case 0x2060: return "LE Read Buffer Size v2"
        default: return "OGF 0x\(hex(group)) OCF 0x\(hex(command))"
        }
    }

    /// `"HCI LE Set Scan Enable (0x200C)"`.
    public var description: String { "HCI \(name) (0x\(hex(rawValue)))" }
}
