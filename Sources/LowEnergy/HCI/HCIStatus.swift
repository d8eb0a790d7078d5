/// An HCI status or error code (Core Vol 1 Part F): the status of a command, or the reason a
/// connection ended.
///
/// Every code has its specification name (``name``); common ones also carry a hint saying what
/// it usually means for a user (``hint``). Unknown values are kept, never rejected.
public struct HCIStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code.
    public let rawValue: UInt8

    /// Creates a status from its code.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00 Success.
    public static let success = HCIStatus(rawValue: 0x00)
    /// 0x01 Unknown HCI Command.
    public static let unknownCommand = HCIStatus(rawValue: 0x01)
    /// 0x02 Unknown Connection Identifier (also: a connection attempt was cancelled).
    public static let unknownConnectionIdentifier = HCIStatus(rawValue: 0x02)
    /// 0x05 Authentication Failure.
    public static let authenticationFailure = HCIStatus(rawValue: 0x05)
    /// 0x08 Connection Timeout (supervision timeout: the link was lost).
    public static let connectionTimeout = HCIStatus(rawValue: 0x08)
    /// 0x0C Command Disallowed.
    public static let commandDisallowed = HCIStatus(rawValue: 0x0C)
    /// 0x12 Invalid HCI Command Parameters.
    public static let invalidParameters = HCIStatus(rawValue: 0x12)
    /// 0x13 Remote User Terminated Connection.
    public static let remoteUserTerminatedConnection = HCIStatus(rawValue: 0x13)
    /// 0x15 Remote Device Terminated Connection due to Power Off.
    public static let remoteDevicePowerOff = HCIStatus(rawValue: 0x15)
    /// 0x16 Connection Terminated By Local Host.
    public static let connectionTerminatedByLocalHost = HCIStatus(rawValue: 0x16)
    /// 0x1F Unspecified Error.
    public static let unspecifiedError = HCIStatus(rawValue: 0x1F)
    /// 0x3B Unacceptable Connection Parameters.
    public static let unacceptableConnectionParameters = HCIStatus(rawValue: 0x3B)
    /// 0x3E Connection Failed to be Established.
    public static let connectionFailedToBeEstablished = HCIStatus(rawValue: 0x3E)

    /// The specification's name, e.g. "Connection Failed to be Established".
    public var name: String {
        Self.names[Int(rawValue)] ?? "Unknown Error Code"
    }

    /// What the code usually means for a user and what to do, when there is something to say.
    public var hint: String? {
        switch rawValue {
        case 0x01: return "the controller does not support this command"
        case 0x02: return "no such connection (already closed), or the connection attempt was cancelled"
        case 0x05, 0x06: return "the stored keys do not match: forget the accessory and pair it again"
        case 0x08: return "the link was lost: the accessory went out of range, was switched off or reset"
        case 0x0C: return "the controller refuses this command in its current state (a connection attempt may still be pending, or legacy and extended commands were mixed); restarting resets the controller"
        case 0x12: return "the controller rejected the command's parameters"
        case 0x13: return "the accessory closed the connection"
        case 0x15: return "the accessory is powering off"
        case 0x16: return "this host closed the connection"
        case 0x22: return "the accessory stopped answering link-layer requests"
        case 0x3B: return "the accessory rejected the connection parameters"
        case 0x3D: return "encryption failed: forget the accessory and pair it again"
        case 0x3E: return "the accessory did not answer the connection request: it may be out of range, no longer advertising, or connected to another device"
        default: return nil
        }
    }

    /// `"0x3E Connection Failed to be Established"`.
    public var description: String {
        "0x\(hex(rawValue)) \(name)"
    }

    private static let names: [Int: String] = [
        0x00: "Success",
        0x01: "Unknown HCI Command",
        0x02: "Unknown Connection Identifier",
        0x03: "Hardware Failure",
        0x04: "Page Timeout",
        0x05: "Authentication Failure",
        0x06: "PIN or Key Missing",
        0x07: "Memory Capacity Exceeded",
        0x08: "Connection Timeout",
        0x09: "Connection Limit Exceeded",
        0x0A: "Synchronous Connection Limit To A Device Exceeded",
        0x0B: "Connection Already Exists",
        0x0C: "Command Disallowed",
        0x0D: "Connection Rejected due to Limited Resources",
        0x0E: "Connection Rejected Due To Security Reasons",
        0x0F: "Connection Rejected due to Unacceptable BD_ADDR",
        0x10: "Connection Accept Timeout Exceeded",
        0x11: "Unsupported Feature or Parameter Value",
        0x12: "Invalid HCI Command Parameters",
        0x13: "Remote User Terminated Connection",
        0x14: "Remote Device Terminated Connection due to Low Resources",
        0x15: "Remote Device Terminated Connection due to Power Off",
        0x16: "Connection Terminated By Local Host",
        0x17: "Repeated Attempts",
        0x18: "Pairing Not Allowed",
        0x19: "Unknown LMP PDU",
        0x1A: "Unsupported Remote Feature",
        0x1B: "SCO Offset Rejected",
        0x1C: "SCO Interval Rejected",
        0x1D: "SCO Air Mode Rejected",
        0x1E: "Invalid LL Parameters",
        0x1F: "Unspecified Error",
        0x20: "Unsupported LL Parameter Value",
        0x21: "Role Change Not Allowed",
        0x22: "LL Response Timeout",
        0x23: "LL Procedure Collision",
        0x24: "LMP PDU Not Allowed",
        0x25: "Encryption Mode Not Acceptable",
        0x26: "Link Key cannot be Changed",
        0x27: "Requested QoS Not Supported",
        0x28: "Instant Passed",
        0x29: "Pairing With Unit Key Not Supported",
        0x2A: "Different Transaction Collision",
        0x2C: "QoS Unacceptable Parameter",
        0x2D: "QoS Rejected",
        0x2E: "Channel Classification Not Supported",
        0x2F: "Insufficient Security",
        0x30: "Parameter Out Of Mandatory Range",
        0x32: "Role Switch Pending",
        0x34: "Reserved Slot Violation",
        0x35: "Role Switch Failed",
        0x36: "Extended Inquiry Response Too Large",
        0x37: "Secure Simple Pairing Not Supported By Host",
        0x38: "Host Busy - Pairing",
        0x39: "Connection Rejected due to No Suitable Channel Found",
        0x3A: "Controller Busy",
        0x3B: "Unacceptable Connection Parameters",
        0x3C: "Advertising Timeout",
        0x3D: "Connection Terminated due to MIC Failure",
        0x3E: "Connection Failed to be Established",
        0x3F: "MAC Connection Failed",
        0x40: "Coarse Clock Adjustment Rejected",
        0x41: "Type0 Submap Not Defined",
        0x42: "Unknown Advertising Identifier",
        0x43: "Limit Reached",
        0x44: "Operation Cancelled by Host",
        0x45: "Packet Too Long",
        0x46: "Too Late",
        0x47: "Too Early",
        0x48: "Insufficient Channels",
    ]
}
