/// Why a session changed state: the reason code of SESSION_STATUS_NTF. 0x00 means a host command
/// caused the change; 0x1D-0x3F name the app-configuration parameter the UWBS rejected;
/// 0x80-0xFE are vendor-specific.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIReasonCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a reason code from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// STATE_CHANGE_WITH_SESSION_MANAGEMENT_COMMANDS (0x00): a host command changed the state.
    public static let stateChangeWithSessionManagementCommands = UCIReasonCode(rawValue: 0x00)
    /// MAX_RANGING_ROUND_RETRY_COUNT_REACHED (0x01): the peer did not answer for MAX_RR_RETRY rounds.
    public static let maxRangingRoundRetryCountReached = UCIReasonCode(rawValue: 0x01)
    /// MAX_NUMBER_OF_MEASUREMENTS_REACHED (0x02): MAX_NUMBER_OF_MEASUREMENTS rounds were done.
    public static let maxNumberOfMeasurementsReached = UCIReasonCode(rawValue: 0x02)
    /// SESSION_SUSPENDED_DUE_TO_INBAND_SIGNAL (0x03): the peer suspended the session in-band.
    public static let sessionSuspendedDueToInbandSignal = UCIReasonCode(rawValue: 0x03)
    /// SESSION_RESUMED_DUE_TO_INBAND_SIGNAL (0x04): the peer resumed the session in-band.
    public static let sessionResumedDueToInbandSignal = UCIReasonCode(rawValue: 0x04)
    /// SESSION_STOPPED_DUE_TO_INBAND_SIGNAL (0x05): the peer stopped the session in-band.
    public static let sessionStoppedDueToInbandSignal = UCIReasonCode(rawValue: 0x05)
    /// ERROR_INVALID_UL_TDOA_RANDOM_WINDOW (0x1D): UL_TDOA_RANDOM_WINDOW is invalid.
    public static let invalidULTDoARandomWindow = UCIReasonCode(rawValue: 0x1D)
    /// ERROR_MIN_RFRAMES_PER_RR_NOT_SUPPORTED (0x1E): MIN_FRAMES_PER_RR is not supported.
    public static let minRFramesPerRRNotSupported = UCIReasonCode(rawValue: 0x1E)
    /// ERROR_INTER_FRAME_INTERVAL_NOT_SUPPORTED (0x1F): INTER_FRAME_INTERVAL is not supported.
    public static let interFrameIntervalNotSupported = UCIReasonCode(rawValue: 0x1F)
    /// ERROR_SLOT_LENGTH_NOT_SUPPORTED (0x20): SLOT_DURATION is not supported.
    public static let slotLengthNotSupported = UCIReasonCode(rawValue: 0x20)
    /// ERROR_INSUFFICIENT_SLOTS_PER_RR (0x21): SLOTS_PER_RR is too small for the configured exchange.
    public static let insufficientSlotsPerRR = UCIReasonCode(rawValue: 0x21)
    /// ERROR_MAC_ADDRESS_MODE_NOT_SUPPORTED (0x22): MAC_ADDRESS_MODE is not supported.
    public static let macAddressModeNotSupported = UCIReasonCode(rawValue: 0x22)
    /// ERROR_INVALID_RANGING_DURATION (0x23): RANGING_DURATION is invalid (too short for the slots).
    public static let invalidRangingDuration = UCIReasonCode(rawValue: 0x23)
    /// ERROR_INVALID_STS_CONFIG (0x24): STS_CONFIG is invalid.
    public static let invalidSTSConfig = UCIReasonCode(rawValue: 0x24)
    /// ERROR_INVALID_RFRAME_CONFIG (0x25): RFRAME_CONFIG is invalid.
    public static let invalidRFrameConfig = UCIReasonCode(rawValue: 0x25)
    /// ERROR_HUS_NOT_ENOUGH_SLOTS (0x26): hybrid scheduling: not enough slots.
    public static let husNotEnoughSlots = UCIReasonCode(rawValue: 0x26)
    /// ERROR_HUS_CFP_PHASE_TOO_SHORT (0x27): hybrid scheduling: contention-free phase too short.
    public static let husCFPPhaseTooShort = UCIReasonCode(rawValue: 0x27)
    /// ERROR_HUS_CAP_PHASE_TOO_SHORT (0x28): hybrid scheduling: contention access phase too short.
    public static let husCAPPhaseTooShort = UCIReasonCode(rawValue: 0x28)
    /// ERROR_HUS_OTHERS (0x29): hybrid scheduling error.
    public static let husOthers = UCIReasonCode(rawValue: 0x29)
    /// ERROR_STATUS_SESSION_KEY_NOT_FOUND (0x2A): the session key was not found.
    public static let sessionKeyNotFound = UCIReasonCode(rawValue: 0x2A)
    /// ERROR_STATUS_SUB_SESSION_KEY_NOT_FOUND (0x2B): the sub-session key was not found.
    public static let subSessionKeyNotFound = UCIReasonCode(rawValue: 0x2B)
    /// ERROR_INVALID_PREAMBLE_CODE_INDEX (0x2C): PREAMBLE_CODE_INDEX is invalid.
    public static let invalidPreambleCodeIndex = UCIReasonCode(rawValue: 0x2C)
    /// ERROR_INVALID_SFD_ID (0x2D): SFD_ID is invalid.
    public static let invalidSFDID = UCIReasonCode(rawValue: 0x2D)
    /// ERROR_INVALID_PSDU_DATA_RATE (0x2E): PSDU_DATA_RATE is invalid.
    public static let invalidPSDUDataRate = UCIReasonCode(rawValue: 0x2E)
    /// ERROR_INVALID_PHR_DATA_RATE (0x2F): BPRF_PHR_DATA_RATE is invalid.
    public static let invalidPHRDataRate = UCIReasonCode(rawValue: 0x2F)
    /// ERROR_INVALID_PREAMBLE_DURATION (0x30): PREAMBLE_DURATION is invalid.
    public static let invalidPreambleDuration = UCIReasonCode(rawValue: 0x30)
    /// ERROR_INVALID_STS_LENGTH (0x31): STS_LENGTH is invalid.
    public static let invalidSTSLength = UCIReasonCode(rawValue: 0x31)
    /// ERROR_INVALID_NUM_OF_STS_SEGMENTS (0x32): NUMBER_OF_STS_SEGMENTS is invalid.
    public static let invalidNumberOfSTSSegments = UCIReasonCode(rawValue: 0x32)
    /// ERROR_INVALID_NUM_OF_CONTROLEES (0x33): NUMBER_OF_CONTROLEES is invalid.
    public static let invalidNumberOfControlees = UCIReasonCode(rawValue: 0x33)
    /// ERROR_MAX_RANGING_REPLY_TIME_EXCEEDED (0x34): the ranging reply time is too long.
    public static let maxRangingReplyTimeExceeded = UCIReasonCode(rawValue: 0x34)
    /// ERROR_INVALID_DST_ADDRESS_LIST (0x35): DST_MAC_ADDRESS is invalid (check NUMBER_OF_CONTROLEES and MAC_ADDRESS_MODE).
    public static let invalidDestinationAddressList = UCIReasonCode(rawValue: 0x35)
    /// ERROR_INVALID_OR_NOT_FOUND_SUB_SESSION_ID (0x36): the sub-session ID is invalid or unknown.
    public static let invalidOrNotFoundSubSessionID = UCIReasonCode(rawValue: 0x36)
    /// ERROR_INVALID_RESULT_REPORT_CONFIG (0x37): RESULT_REPORT_CONFIG is invalid.
    public static let invalidResultReportConfig = UCIReasonCode(rawValue: 0x37)
    /// ERROR_INVALID_RANGING_ROUND_CONTROL_CONFIG (0x38): RANGING_ROUND_CONTROL is invalid.
    public static let invalidRangingRoundControlConfig = UCIReasonCode(rawValue: 0x38)
    /// ERROR_INVALID_RANGING_ROUND_USAGE (0x39): RANGING_ROUND_USAGE is invalid.
    public static let invalidRangingRoundUsage = UCIReasonCode(rawValue: 0x39)
    /// ERROR_INVALID_MULTI_NODE_MODE (0x3A): MULTI_NODE_MODE is invalid.
    public static let invalidMultiNodeMode = UCIReasonCode(rawValue: 0x3A)
    /// ERROR_RDS_FETCH_FAILURE (0x3B): the ranging data set (keys) could not be fetched.
    public static let rdsFetchFailure = UCIReasonCode(rawValue: 0x3B)
    /// ERROR_REF_UWB_SESSION_DOES_NOT_EXIST (0x3C): the reference UWB session does not exist.
    public static let referenceSessionDoesNotExist = UCIReasonCode(rawValue: 0x3C)
    /// ERROR_REF_UWB_SESSION_RANGING_DURATION_MISMATCH (0x3D): the reference session's ranging duration does not match.
    public static let referenceSessionRangingDurationMismatch = UCIReasonCode(rawValue: 0x3D)
    /// ERROR_REF_UWB_SESSION_INVALID_OFFSET_TIME (0x3E): the offset to the reference session is invalid.
    public static let referenceSessionInvalidOffsetTime = UCIReasonCode(rawValue: 0x3E)
    /// ERROR_REF_UWB_SESSION_LOST (0x3F): the reference session was lost.
    public static let referenceSessionLost = UCIReasonCode(rawValue: 0x3F)
    /// ERROR_DT_ANCHOR_RANGING_ROUNDS_NOT_CONFIGURED (0x40): DL-TDoA anchor ranging rounds are not configured.
    public static let dtAnchorRangingRoundsNotConfigured = UCIReasonCode(rawValue: 0x40)
    /// ERROR_DT_TAG_RANGING_ROUNDS_NOT_CONFIGURED (0x41): DL-TDoA tag ranging rounds are not configured.
    public static let dtTagRangingRoundsNotConfigured = UCIReasonCode(rawValue: 0x41)

    /// The specification's name (`"MAX_RANGING_ROUND_RETRY_COUNT_REACHED"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "STATE_CHANGE_WITH_SESSION_MANAGEMENT_COMMANDS"
        case 0x01: "MAX_RANGING_ROUND_RETRY_COUNT_REACHED"
        case 0x02: "MAX_NUMBER_OF_MEASUREMENTS_REACHED"
        case 0x03: "SESSION_SUSPENDED_DUE_TO_INBAND_SIGNAL"
        case 0x04: "SESSION_RESUMED_DUE_TO_INBAND_SIGNAL"
        case 0x05: "SESSION_STOPPED_DUE_TO_INBAND_SIGNAL"
        case 0x1D: "ERROR_INVALID_UL_TDOA_RANDOM_WINDOW"
        case 0x1E: "ERROR_MIN_RFRAMES_PER_RR_NOT_SUPPORTED"
        case 0x1F: "ERROR_INTER_FRAME_INTERVAL_NOT_SUPPORTED"
        case 0x20: "ERROR_SLOT_LENGTH_NOT_SUPPORTED"
        case 0x21: "ERROR_INSUFFICIENT_SLOTS_PER_RR"
        case 0x22: "ERROR_MAC_ADDRESS_MODE_NOT_SUPPORTED"
        case 0x23: "ERROR_INVALID_RANGING_DURATION"
        case 0x24: "ERROR_INVALID_STS_CONFIG"
        case 0x25: "ERROR_INVALID_RFRAME_CONFIG"
        case 0x26: "ERROR_HUS_NOT_ENOUGH_SLOTS"
        case 0x27: "ERROR_HUS_CFP_PHASE_TOO_SHORT"
        case 0x28: "ERROR_HUS_CAP_PHASE_TOO_SHORT"
        case 0x29: "ERROR_HUS_OTHERS"
        case 0x2A: "ERROR_STATUS_SESSION_KEY_NOT_FOUND"
        case 0x2B: "ERROR_STATUS_SUB_SESSION_KEY_NOT_FOUND"
        case 0x2C: "ERROR_INVALID_PREAMBLE_CODE_INDEX"
        case 0x2D: "ERROR_INVALID_SFD_ID"
        case 0x2E: "ERROR_INVALID_PSDU_DATA_RATE"
        case 0x2F: "ERROR_INVALID_PHR_DATA_RATE"
        case 0x30: "ERROR_INVALID_PREAMBLE_DURATION"
        case 0x31: "ERROR_INVALID_STS_LENGTH"
        case 0x32: "ERROR_INVALID_NUM_OF_STS_SEGMENTS"
        case 0x33: "ERROR_INVALID_NUM_OF_CONTROLEES"
        case 0x34: "ERROR_MAX_RANGING_REPLY_TIME_EXCEEDED"
        case 0x35: "ERROR_INVALID_DST_ADDRESS_LIST"
        case 0x36: "ERROR_INVALID_OR_NOT_FOUND_SUB_SESSION_ID"
        case 0x37: "ERROR_INVALID_RESULT_REPORT_CONFIG"
        case 0x38: "ERROR_INVALID_RANGING_ROUND_CONTROL_CONFIG"
        case 0x39: "ERROR_INVALID_RANGING_ROUND_USAGE"
        case 0x3A: "ERROR_INVALID_MULTI_NODE_MODE"
        case 0x3B: "ERROR_RDS_FETCH_FAILURE"
        case 0x3C: "ERROR_REF_UWB_SESSION_DOES_NOT_EXIST"
        case 0x3D: "ERROR_REF_UWB_SESSION_RANGING_DURATION_MISMATCH"
        case 0x3E: "ERROR_REF_UWB_SESSION_INVALID_OFFSET_TIME"
        case 0x3F: "ERROR_REF_UWB_SESSION_LOST"
        case 0x40: "ERROR_DT_ANCHOR_RANGING_ROUNDS_NOT_CONFIGURED"
        case 0x41: "ERROR_DT_TAG_RANGING_ROUNDS_NOT_CONFIGURED"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "a host command changed the state"
        case 0x01: "the peer did not answer for MAX_RR_RETRY rounds"
        case 0x02: "MAX_NUMBER_OF_MEASUREMENTS rounds were done"
        case 0x03: "the peer suspended the session in-band"
        case 0x04: "the peer resumed the session in-band"
        case 0x05: "the peer stopped the session in-band"
        case 0x1D: "UL_TDOA_RANDOM_WINDOW is invalid"
        case 0x1E: "MIN_FRAMES_PER_RR is not supported"
        case 0x1F: "INTER_FRAME_INTERVAL is not supported"
        case 0x20: "SLOT_DURATION is not supported"
        case 0x21: "SLOTS_PER_RR is too small for the configured exchange"
        case 0x22: "MAC_ADDRESS_MODE is not supported"
        case 0x23: "RANGING_DURATION is invalid (too short for the slots)"
        case 0x24: "STS_CONFIG is invalid"
        case 0x25: "RFRAME_CONFIG is invalid"
        case 0x26: "hybrid scheduling: not enough slots"
        case 0x27: "hybrid scheduling: contention-free phase too short"
        case 0x28: "hybrid scheduling: contention access phase too short"
        case 0x29: "hybrid scheduling error"
        case 0x2A: "the session key was not found"
        case 0x2B: "the sub-session key was not found"
        case 0x2C: "PREAMBLE_CODE_INDEX is invalid"
        case 0x2D: "SFD_ID is invalid"
        case 0x2E: "PSDU_DATA_RATE is invalid"
        case 0x2F: "BPRF_PHR_DATA_RATE is invalid"
        case 0x30: "PREAMBLE_DURATION is invalid"
        case 0x31: "STS_LENGTH is invalid"
        case 0x32: "NUMBER_OF_STS_SEGMENTS is invalid"
        case 0x33: "NUMBER_OF_CONTROLEES is invalid"
        case 0x34: "the ranging reply time is too long"
        case 0x35: "DST_MAC_ADDRESS is invalid (check NUMBER_OF_CONTROLEES and MAC_ADDRESS_MODE)"
        case 0x36: "the sub-session ID is invalid or unknown"
        case 0x37: "RESULT_REPORT_CONFIG is invalid"
        case 0x38: "RANGING_ROUND_CONTROL is invalid"
        case 0x39: "RANGING_ROUND_USAGE is invalid"
        case 0x3A: "MULTI_NODE_MODE is invalid"
        case 0x3B: "the ranging data set (keys) could not be fetched"
        case 0x3C: "the reference UWB session does not exist"
        case 0x3D: "the reference session's ranging duration does not match"
        case 0x3E: "the offset to the reference session is invalid"
        case 0x3F: "the reference session was lost"
        case 0x40: "DL-TDoA anchor ranging rounds are not configured"
        case 0x41: "DL-TDoA tag ranging rounds are not configured"
        default: (0x80...0xFE).contains(rawValue) ? "vendor-specific reason" : "reserved reason"
        }
    }

    /// `"MAX_RANGING_ROUND_RETRY_COUNT_REACHED (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }

    /// `true` for the vendor-specific range 0x80-0xFE.
    public var isVendorSpecific: Bool { (0x80...0xFE).contains(rawValue) }

    /// `true` for 0x1D-0x3F: the UWBS rejected an app-configuration parameter.
    public var isConfigurationError: Bool { (0x1D...0x3F).contains(rawValue) }
}
