/// A UCI status code: the first byte of every response, and the status of each measurement in
/// SESSION_INFO_NTF. 0x00 is success; 0x1B (UCI 2.0) is a valid measurement with a negative
/// distance; 0x50-0xFF are vendor-specific.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a status from its wire value.
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// OK (0x00): success.
    public static let ok = UCIStatus(rawValue: 0x00)
    /// REJECTED (0x01): the UWBS rejected the command in its current state.
    public static let rejected = UCIStatus(rawValue: 0x01)
    /// FAILED (0x02): the command failed.
    public static let failed = UCIStatus(rawValue: 0x02)
    /// SYNTAX_ERROR (0x03): the command is malformed.
    public static let syntaxError = UCIStatus(rawValue: 0x03)
    /// INVALID_PARAM (0x04): a parameter is invalid.
    public static let invalidParameter = UCIStatus(rawValue: 0x04)
    /// INVALID_RANGE (0x05): a parameter value is out of range.
    public static let invalidRange = UCIStatus(rawValue: 0x05)
    /// INVALID_MESSAGE_SIZE (0x06): the message has the wrong size.
    public static let invalidMessageSize = UCIStatus(rawValue: 0x06)
    /// UNKNOWN_GID (0x07): the UWBS does not know this group (GID).
    public static let unknownGID = UCIStatus(rawValue: 0x07)
    /// UNKNOWN_OID (0x08): the UWBS does not know this opcode (OID).
    public static let unknownOID = UCIStatus(rawValue: 0x08)
    /// READ_ONLY (0x09): the parameter is read-only.
    public static let readOnly = UCIStatus(rawValue: 0x09)
    /// COMMAND_RETRY (0x0A): the UWBS asks the host to send the last command again.
    public static let commandRetry = UCIStatus(rawValue: 0x0A)
    /// UNKNOWN (0x0B): unknown error.
    public static let unknown = UCIStatus(rawValue: 0x0B)
    /// NOT_APPLICABLE (0x0C): the parameter or command does not apply here.
    public static let notApplicable = UCIStatus(rawValue: 0x0C)
    /// SESSION_NOT_EXIST (0x11): no session has this ID or handle.
    public static let sessionNotExist = UCIStatus(rawValue: 0x11)
    /// SESSION_DUPLICATE (0x12): a session with this ID already exists.
    public static let sessionDuplicate = UCIStatus(rawValue: 0x12)
    /// SESSION_ACTIVE (0x13): the session is active; stop it first.
    public static let sessionActive = UCIStatus(rawValue: 0x13)
    /// MAX_SESSIONS_EXCEEDED (0x14): the UWBS cannot open more sessions; deinitialize one first.
    public static let maxSessionsExceeded = UCIStatus(rawValue: 0x14)
    /// SESSION_NOT_CONFIGURED (0x15): the session is not configured; set its app configuration first.
    public static let sessionNotConfigured = UCIStatus(rawValue: 0x15)
    /// ACTIVE_SESSIONS_ONGOING (0x16): other sessions are active.
    public static let activeSessionsOngoing = UCIStatus(rawValue: 0x16)
    /// MULTICAST_LIST_FULL (0x17): the controlee list is full.
    public static let multicastListFull = UCIStatus(rawValue: 0x17)
    /// ADDRESS_NOT_FOUND (0x18): the address is not in the controlee list.
    public static let addressNotFound = UCIStatus(rawValue: 0x18)
    /// ADDRESS_ALREADY_PRESENT (0x19): the address is already in the controlee list.
    public static let addressAlreadyPresent = UCIStatus(rawValue: 0x19)
    /// INITIATION_TIME_TOO_OLD (0x1A): UWB_INITIATION_TIME lies in the past.
    public static let initiationTimeTooOld = UCIStatus(rawValue: 0x1A)
    /// OK_NEGATIVE_DISTANCE_REPORT (0x1B): valid measurement, the distance is negative.
    public static let okNegativeDistance = UCIStatus(rawValue: 0x1B)
    /// RANGING_TX_FAILED (0x20): the UWBS failed to transmit a ranging frame.
    public static let rangingTXFailed = UCIStatus(rawValue: 0x20)
    /// RANGING_RX_TIMEOUT (0x21): no reply from the peer in this round.
    public static let rangingRXTimeout = UCIStatus(rawValue: 0x21)
    /// RANGING_RX_PHY_DEC_FAILED (0x22): a frame was received but its PHY header could not be decoded.
    public static let rangingRXPHYDecodingFailed = UCIStatus(rawValue: 0x22)
    /// RANGING_RX_PHY_TOA_FAILED (0x23): the time of arrival could not be measured.
    public static let rangingRXPHYTimeOfArrivalFailed = UCIStatus(rawValue: 0x23)
    /// RANGING_RX_PHY_STS_FAILED (0x24): the scrambled timestamp sequence (STS) did not match.
    public static let rangingRXPHYSTSFailed = UCIStatus(rawValue: 0x24)
    /// RANGING_RX_MAC_DEC_FAILED (0x25): the MAC frame could not be decoded.
    public static let rangingRXMACDecodingFailed = UCIStatus(rawValue: 0x25)
    /// RANGING_RX_MAC_IE_DEC_FAILED (0x26): a MAC information element could not be decoded.
    public static let rangingRXMACIEDecodingFailed = UCIStatus(rawValue: 0x26)
    /// RANGING_RX_MAC_IE_MISSING (0x27): a MAC information element is missing.
    public static let rangingRXMACIEMissing = UCIStatus(rawValue: 0x27)
    /// ROUND_INDEX_NOT_ACTIVATED (0x28): the ranging round index is not activated.
    public static let roundIndexNotActivated = UCIStatus(rawValue: 0x28)
    /// NUMBER_OF_ACTIVE_RANGING_ROUNDS_EXCEEDED (0x29): too many active ranging rounds.
    public static let activeRangingRoundsExceeded = UCIStatus(rawValue: 0x29)
    /// DL_TDOA_DEVICE_ADDRESS_NOT_MATCHING_IN_REPLY_TIME_LIST (0x2A): the DL-TDoA device address is not in the reply time list.
    public static let dlTDoADeviceAddressNotMatching = UCIStatus(rawValue: 0x2A)
    /// DATA_MAX_TX_PSDU_SIZE_EXCEEDED (0x30): the data is larger than the largest frame payload.
    public static let dataMaxTXPSDUSizeExceeded = UCIStatus(rawValue: 0x30)
    /// DATA_RX_CRC_ERROR (0x31): received data failed its CRC check.
    public static let dataRXCRCError = UCIStatus(rawValue: 0x31)

    /// The specification's name (`"REJECTED"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "OK"
        case 0x01: "REJECTED"
        case 0x02: "FAILED"
        case 0x03: "SYNTAX_ERROR"
        case 0x04: "INVALID_PARAM"
        case 0x05: "INVALID_RANGE"
        case 0x06: "INVALID_MESSAGE_SIZE"
        case 0x07: "UNKNOWN_GID"
        case 0x08: "UNKNOWN_OID"
        case 0x09: "READ_ONLY"
        case 0x0A: "COMMAND_RETRY"
        case 0x0B: "UNKNOWN"
        case 0x0C: "NOT_APPLICABLE"
        case 0x11: "SESSION_NOT_EXIST"
        case 0x12: "SESSION_DUPLICATE"
        case 0x13: "SESSION_ACTIVE"
        case 0x14: "MAX_SESSIONS_EXCEEDED"
        case 0x15: "SESSION_NOT_CONFIGURED"
        case 0x16: "ACTIVE_SESSIONS_ONGOING"
        case 0x17: "MULTICAST_LIST_FULL"
        case 0x18: "ADDRESS_NOT_FOUND"
        case 0x19: "ADDRESS_ALREADY_PRESENT"
        case 0x1A: "INITIATION_TIME_TOO_OLD"
        case 0x1B: "OK_NEGATIVE_DISTANCE_REPORT"
        case 0x20: "RANGING_TX_FAILED"
        case 0x21: "RANGING_RX_TIMEOUT"
        case 0x22: "RANGING_RX_PHY_DEC_FAILED"
        case 0x23: "RANGING_RX_PHY_TOA_FAILED"
        case 0x24: "RANGING_RX_PHY_STS_FAILED"
        case 0x25: "RANGING_RX_MAC_DEC_FAILED"
        case 0x26: "RANGING_RX_MAC_IE_DEC_FAILED"
        case 0x27: "RANGING_RX_MAC_IE_MISSING"
        case 0x28: "ROUND_INDEX_NOT_ACTIVATED"
        case 0x29: "NUMBER_OF_ACTIVE_RANGING_ROUNDS_EXCEEDED"
        case 0x2A: "DL_TDOA_DEVICE_ADDRESS_NOT_MATCHING_IN_REPLY_TIME_LIST"
        case 0x30: "DATA_MAX_TX_PSDU_SIZE_EXCEEDED"
        case 0x31: "DATA_RX_CRC_ERROR"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "success"
        case 0x01: "the UWBS rejected the command in its current state"
        case 0x02: "the command failed"
        case 0x03: "the command is malformed"
        case 0x04: "a parameter is invalid"
        case 0x05: "a parameter value is out of range"
        case 0x06: "the message has the wrong size"
        case 0x07: "the UWBS does not know this group (GID)"
        case 0x08: "the UWBS does not know this opcode (OID)"
        case 0x09: "the parameter is read-only"
        case 0x0A: "the UWBS asks the host to send the last command again"
        case 0x0B: "unknown error"
        case 0x0C: "the parameter or command does not apply here"
        case 0x11: "no session has this ID or handle"
        case 0x12: "a session with this ID already exists"
        case 0x13: "the session is active; stop it first"
        case 0x14: "the UWBS cannot open more sessions; deinitialize one first"
        case 0x15: "the session is not configured; set its app configuration first"
        case 0x16: "other sessions are active"
        case 0x17: "the controlee list is full"
        case 0x18: "the address is not in the controlee list"
        case 0x19: "the address is already in the controlee list"
        case 0x1A: "UWB_INITIATION_TIME lies in the past"
        case 0x1B: "valid measurement, the distance is negative"
        case 0x20: "the UWBS failed to transmit a ranging frame"
        case 0x21: "no reply from the peer in this round"
        case 0x22: "a frame was received but its PHY header could not be decoded"
        case 0x23: "the time of arrival could not be measured"
        case 0x24: "the scrambled timestamp sequence (STS) did not match"
        case 0x25: "the MAC frame could not be decoded"
        case 0x26: "a MAC information element could not be decoded"
        case 0x27: "a MAC information element is missing"
        case 0x28: "the ranging round index is not activated"
        case 0x29: "too many active ranging rounds"
        case 0x2A: "the DL-TDoA device address is not in the reply time list"
        case 0x30: "the data is larger than the largest frame payload"
        case 0x31: "received data failed its CRC check"
        default: rawValue >= 0x50 ? "vendor-specific status" : "reserved status"
        }
    }

    /// `"REJECTED (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }

    /// `true` for ``ok``.
    @inlinable public var isOK: Bool { rawValue == 0x00 }

    /// `true` if a ranging measurement with this status holds a distance: ``ok`` or
    /// ``okNegativeDistance``.
    @inlinable public var isValidMeasurement: Bool { rawValue == 0x00 || rawValue == 0x1B }

    /// `true` for the vendor-specific range 0x50-0xFF.
    public var isVendorSpecific: Bool { rawValue >= 0x50 }
}
