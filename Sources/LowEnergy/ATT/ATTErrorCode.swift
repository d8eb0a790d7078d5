/// An ATT error code from an Error Response (Core Vol 3 Part F 3.4.1.1, CSS Part B 1.2).
///
/// Unknown values are kept. ``hint`` says what to do for the codes a user can act on.
public struct ATTErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code.
    public let rawValue: UInt8

    /// Creates an error code.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01 Invalid Handle.
    public static let invalidHandle = ATTErrorCode(rawValue: 0x01)
    /// 0x02 Read Not Permitted.
    public static let readNotPermitted = ATTErrorCode(rawValue: 0x02)
    /// 0x03 Write Not Permitted.
    public static let writeNotPermitted = ATTErrorCode(rawValue: 0x03)
    /// 0x04 Invalid PDU.
    public static let invalidPDU = ATTErrorCode(rawValue: 0x04)
    /// 0x05 Insufficient Authentication.
    public static let insufficientAuthentication = ATTErrorCode(rawValue: 0x05)
    /// 0x06 Request Not Supported.
    public static let requestNotSupported = ATTErrorCode(rawValue: 0x06)
    /// 0x07 Invalid Offset.
    public static let invalidOffset = ATTErrorCode(rawValue: 0x07)
    /// 0x08 Insufficient Authorization.
    public static let insufficientAuthorization = ATTErrorCode(rawValue: 0x08)
    /// 0x0A Attribute Not Found.
    public static let attributeNotFound = ATTErrorCode(rawValue: 0x0A)
    /// 0x0B Attribute Not Long.
    public static let attributeNotLong = ATTErrorCode(rawValue: 0x0B)
    /// 0x0C Encryption Key Size Too Short.
    public static let encryptionKeySizeTooShort = ATTErrorCode(rawValue: 0x0C)
    /// 0x0D Invalid Attribute Value Length.
    public static let invalidAttributeValueLength = ATTErrorCode(rawValue: 0x0D)
    /// 0x0E Unlikely Error.
    public static let unlikelyError = ATTErrorCode(rawValue: 0x0E)
    /// 0x0F Insufficient Encryption.
    public static let insufficientEncryption = ATTErrorCode(rawValue: 0x0F)
    /// 0x10 Unsupported Group Type.
    public static let unsupportedGroupType = ATTErrorCode(rawValue: 0x10)
    /// 0x11 Insufficient Resources.
    public static let insufficientResources = ATTErrorCode(rawValue: 0x11)

    /// The specification's name, e.g. "Insufficient Authentication".
    public var name: String {
        switch rawValue {
        case 0x01: return "Invalid Handle"
        case 0x02: return "Read Not Permitted"
        case 0x03: return "Write Not Permitted"
        case 0x04: return "Invalid PDU"
        case 0x05: return "Insufficient Authentication"
        case 0x06: return "Request Not Supported"
        case 0x07: return "Invalid Offset"
        case 0x08: return "Insufficient Authorization"
        case 0x09: return "Prepare Queue Full"
        case 0x0A: return "Attribute Not Found"
        case 0x0B: return "Attribute Not Long"
        case 0x0C: return "Encryption Key Size Too Short"
        case 0x0D: return "Invalid Attribute Value Length"
        case 0x0E: return "Unlikely Error"
        case 0x0F: return "Insufficient Encryption"
        case 0x10: return "Unsupported Group Type"
        case 0x11: return "Insufficient Resources"
        case 0x12: return "Database Out Of Sync"
        case 0x13: return "Value Not Allowed"
        case 0x80...0x9F: return "Application Error"
        case 0xFC: return "Write Request Rejected"
        case 0xFD: return "Client Characteristic Configuration Descriptor Improperly Configured"
        case 0xFE: return "Procedure Already in Progress"
        case 0xFF: return "Out of Range"
        default: return "Reserved Error"
        }
    }

    /// What to do about it, for the codes a user can act on.
    public var hint: String? {
        switch rawValue {
        case 0x05, 0x0F, 0x0C:
            return "the accessory only allows this on a paired (encrypted) link: pair it with `nearby setup --pair` "
                + "(the host pairs or encrypts by itself unless that was turned off)"
        case 0x08: return "the accessory requires authorization for this attribute"
        case 0x02: return "the accessory does not allow reading this attribute"
        case 0x03: return "the accessory does not allow writing this attribute"
        case 0x0D: return "the accessory rejected the value's length"
        case 0x12: return "the accessory's GATT database changed: disconnect and connect again"
        default: return nil
        }
    }

    /// `"0x05 Insufficient Authentication"`.
    public var description: String { "0x\(hex(rawValue)) \(name)" }
}
