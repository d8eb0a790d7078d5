/// The identifier of an app-configuration parameter (the type byte of an app-config TLV).
///
/// Every FiRa identifier AOSP knows (0x00-0x4D) has a name; 0xA0-0xDF and 0xE3-0xFF are
/// vendor-specific. Only the parameters in ``UCIAppConfig`` have typed values; the others travel
/// as ``UCIAppConfig/other(id:value:)``.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIAppConfigID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates an identifier from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// DEVICE_TYPE (0x00).
    public static let deviceType = UCIAppConfigID(rawValue: 0x00)
    /// RANGING_ROUND_USAGE (0x01).
    public static let rangingRoundUsage = UCIAppConfigID(rawValue: 0x01)
    /// STS_CONFIG (0x02).
    public static let stsConfig = UCIAppConfigID(rawValue: 0x02)
    /// MULTI_NODE_MODE (0x03).
    public static let multiNodeMode = UCIAppConfigID(rawValue: 0x03)
    /// CHANNEL_NUMBER (0x04).
    public static let channelNumber = UCIAppConfigID(rawValue: 0x04)
    /// NUMBER_OF_CONTROLEES (0x05).
    public static let numberOfControlees = UCIAppConfigID(rawValue: 0x05)
    /// DEVICE_MAC_ADDRESS (0x06).
    public static let deviceMACAddress = UCIAppConfigID(rawValue: 0x06)
    /// DST_MAC_ADDRESS (0x07).
    public static let destinationMACAddresses = UCIAppConfigID(rawValue: 0x07)
    /// SLOT_DURATION (0x08).
    public static let slotDuration = UCIAppConfigID(rawValue: 0x08)
    /// RANGING_DURATION (0x09).
    public static let rangingDuration = UCIAppConfigID(rawValue: 0x09)
    /// STS_INDEX (0x0A).
    public static let stsIndex = UCIAppConfigID(rawValue: 0x0A)
    /// MAC_FCS_TYPE (0x0B).
    public static let macFCSType = UCIAppConfigID(rawValue: 0x0B)
    /// RANGING_ROUND_CONTROL (0x0C).
    public static let rangingRoundControl = UCIAppConfigID(rawValue: 0x0C)
    /// AOA_RESULT_REQ (0x0D).
    public static let aoaResultRequest = UCIAppConfigID(rawValue: 0x0D)
    /// SESSION_INFO_NTF_CONFIG (0x0E).
    public static let sessionInfoNotificationConfig = UCIAppConfigID(rawValue: 0x0E)
    /// NEAR_PROXIMITY_CONFIG (0x0F).
    public static let nearProximity = UCIAppConfigID(rawValue: 0x0F)
    /// FAR_PROXIMITY_CONFIG (0x10).
    public static let farProximity = UCIAppConfigID(rawValue: 0x10)
    /// DEVICE_ROLE (0x11).
    public static let deviceRole = UCIAppConfigID(rawValue: 0x11)
    /// RFRAME_CONFIG (0x12).
    public static let rframeConfig = UCIAppConfigID(rawValue: 0x12)
    /// RSSI_REPORTING (0x13).
    public static let rssiReporting = UCIAppConfigID(rawValue: 0x13)
    /// PREAMBLE_CODE_INDEX (0x14).
    public static let preambleCodeIndex = UCIAppConfigID(rawValue: 0x14)
    /// SFD_ID (0x15).
    public static let sfdID = UCIAppConfigID(rawValue: 0x15)
    /// PSDU_DATA_RATE (0x16).
    public static let psduDataRate = UCIAppConfigID(rawValue: 0x16)
    /// PREAMBLE_DURATION (0x17).
    public static let preambleDuration = UCIAppConfigID(rawValue: 0x17)
    /// LINK_LAYER_MODE (0x18).
    public static let linkLayerMode = UCIAppConfigID(rawValue: 0x18)
    /// DATA_REPETITION_COUNT (0x19).
    public static let dataRepetitionCount = UCIAppConfigID(rawValue: 0x19)
    /// RANGING_TIME_STRUCT (0x1A).
    public static let rangingTimeStruct = UCIAppConfigID(rawValue: 0x1A)
    /// SLOTS_PER_RR (0x1B).
    public static let slotsPerRangingRound = UCIAppConfigID(rawValue: 0x1B)
    /// TX_ADAPTIVE_PAYLOAD_POWER (0x1C).
    public static let txAdaptivePayloadPower = UCIAppConfigID(rawValue: 0x1C)
    /// AOA_BOUND_CONFIG (0x1D).
    public static let aoaBounds = UCIAppConfigID(rawValue: 0x1D)
    /// RESPONDER_SLOT_INDEX (0x1E).
    public static let responderSlotIndex = UCIAppConfigID(rawValue: 0x1E)
    /// PRF_MODE (0x1F).
    public static let prfMode = UCIAppConfigID(rawValue: 0x1F)
    /// CAP_SIZE_RANGE (0x20).
    public static let capSizeRange = UCIAppConfigID(rawValue: 0x20)
    /// TX_JITTER_WINDOW_SIZE (0x21).
    public static let txJitterWindowSize = UCIAppConfigID(rawValue: 0x21)
    /// SCHEDULE_MODE (0x22).
    public static let scheduleMode = UCIAppConfigID(rawValue: 0x22)
    /// KEY_ROTATION (0x23).
    public static let keyRotation = UCIAppConfigID(rawValue: 0x23)
    /// KEY_ROTATION_RATE (0x24).
    public static let keyRotationRate = UCIAppConfigID(rawValue: 0x24)
    /// SESSION_PRIORITY (0x25).
    public static let sessionPriority = UCIAppConfigID(rawValue: 0x25)
    /// MAC_ADDRESS_MODE (0x26).
    public static let macAddressMode = UCIAppConfigID(rawValue: 0x26)
    /// VENDOR_ID (0x27).
    public static let vendorID = UCIAppConfigID(rawValue: 0x27)
    /// STATIC_STS_IV (0x28).
    public static let staticSTSIV = UCIAppConfigID(rawValue: 0x28)
    /// NUMBER_OF_STS_SEGMENTS (0x29).
    public static let numberOfSTSSegments = UCIAppConfigID(rawValue: 0x29)
    /// MAX_RR_RETRY (0x2A).
    public static let maxRangingRoundRetries = UCIAppConfigID(rawValue: 0x2A)
    /// UWB_INITIATION_TIME (0x2B).
    public static let uwbInitiationTime = UCIAppConfigID(rawValue: 0x2B)
    /// HOPPING_MODE (0x2C).
    public static let hoppingMode = UCIAppConfigID(rawValue: 0x2C)
    /// BLOCK_STRIDE_LENGTH (0x2D).
    public static let blockStrideLength = UCIAppConfigID(rawValue: 0x2D)
    /// RESULT_REPORT_CONFIG (0x2E).
    public static let resultReportConfig = UCIAppConfigID(rawValue: 0x2E)
    /// IN_BAND_TERMINATION_ATTEMPT_COUNT (0x2F).
    public static let inBandTerminationAttemptCount = UCIAppConfigID(rawValue: 0x2F)
    /// SUB_SESSION_ID (0x30).
    public static let subSessionID = UCIAppConfigID(rawValue: 0x30)
    /// BPRF_PHR_DATA_RATE (0x31).
    public static let bprfPHRDataRate = UCIAppConfigID(rawValue: 0x31)
    /// MAX_NUMBER_OF_MEASUREMENTS (0x32).
    public static let maxNumberOfMeasurements = UCIAppConfigID(rawValue: 0x32)
    /// UL_TDOA_TX_INTERVAL (0x33).
    public static let ulTDoATXInterval = UCIAppConfigID(rawValue: 0x33)
    /// UL_TDOA_RANDOM_WINDOW (0x34).
    public static let ulTDoARandomWindow = UCIAppConfigID(rawValue: 0x34)
    /// STS_LENGTH (0x35).
    public static let stsLength = UCIAppConfigID(rawValue: 0x35)
    /// SUSPEND_RANGING_ROUNDS (0x36).
    public static let suspendRangingRounds = UCIAppConfigID(rawValue: 0x36)
    /// UL_TDOA_NTF_REPORT_CONFIG (0x37).
    public static let ulTDoANotificationReportConfig = UCIAppConfigID(rawValue: 0x37)
    /// UL_TDOA_DEVICE_ID (0x38).
    public static let ulTDoADeviceID = UCIAppConfigID(rawValue: 0x38)
    /// UL_TDOA_TX_TIMESTAMP (0x39).
    public static let ulTDoATXTimestamp = UCIAppConfigID(rawValue: 0x39)
    /// MIN_FRAMES_PER_RR (0x3A).
    public static let minFramesPerRangingRound = UCIAppConfigID(rawValue: 0x3A)
    /// MTU_SIZE (0x3B).
    public static let mtuSize = UCIAppConfigID(rawValue: 0x3B)
    /// INTER_FRAME_INTERVAL (0x3C).
    public static let interFrameInterval = UCIAppConfigID(rawValue: 0x3C)
    /// DL_TDOA_RANGING_METHOD (0x3D).
    public static let dlTDoARangingMethod = UCIAppConfigID(rawValue: 0x3D)
    /// DL_TDOA_TX_TIMESTAMP_CONF (0x3E).
    public static let dlTDoATXTimestampConfig = UCIAppConfigID(rawValue: 0x3E)
    /// DL_TDOA_HOP_COUNT (0x3F).
    public static let dlTDoAHopCount = UCIAppConfigID(rawValue: 0x3F)
    /// DL_TDOA_ANCHOR_CFO (0x40).
    public static let dlTDoAAnchorCFO = UCIAppConfigID(rawValue: 0x40)
    /// DL_TDOA_ANCHOR_LOCATION (0x41).
    public static let dlTDoAAnchorLocation = UCIAppConfigID(rawValue: 0x41)
    /// DL_TDOA_TX_ACTIVE_RANGING_ROUNDS (0x42).
    public static let dlTDoATXActiveRangingRounds = UCIAppConfigID(rawValue: 0x42)
    /// DL_TDOA_BLOCK_STRIDING (0x43).
    public static let dlTDoABlockStriding = UCIAppConfigID(rawValue: 0x43)
    /// DL_TDOA_TIME_REFERENCE_ANCHOR (0x44).
    public static let dlTDoATimeReferenceAnchor = UCIAppConfigID(rawValue: 0x44)
    /// SESSION_KEY (0x45).
    public static let sessionKey = UCIAppConfigID(rawValue: 0x45)
    /// SUBSESSION_KEY (0x46).
    public static let subSessionKey = UCIAppConfigID(rawValue: 0x46)
    /// SESSION_DATA_TRANSFER_STATUS_NTF_CONFIG (0x47).
    public static let sessionDataTransferStatusNotificationConfig = UCIAppConfigID(rawValue: 0x47)
    /// SESSION_TIME_BASE (0x48).
    public static let sessionTimeBase = UCIAppConfigID(rawValue: 0x48)
    /// DL_TDOA_RESPONDER_TOF (0x49).
    public static let dlTDoAResponderToF = UCIAppConfigID(rawValue: 0x49)
    /// SECURE_RANGING_NEFA_LEVEL (0x4A).
    public static let secureRangingNEFALevel = UCIAppConfigID(rawValue: 0x4A)
    /// SECURE_RANGING_CSW_LENGTH (0x4B).
    public static let secureRangingCSWLength = UCIAppConfigID(rawValue: 0x4B)
    /// APPLICATION_DATA_ENDPOINT (0x4C).
    public static let applicationDataEndpoint = UCIAppConfigID(rawValue: 0x4C)
    /// OWR_AOA_MEASUREMENT_NTF_PERIOD (0x4D).
    public static let owrAoAMeasurementNotificationPeriod = UCIAppConfigID(rawValue: 0x4D)

    /// The specification's name (`"RANGING_DURATION"`), or `nil` for an identifier without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "DEVICE_TYPE"
        case 0x01: "RANGING_ROUND_USAGE"
        case 0x02: "STS_CONFIG"
        case 0x03: "MULTI_NODE_MODE"
        case 0x04: "CHANNEL_NUMBER"
        case 0x05: "NUMBER_OF_CONTROLEES"
        case 0x06: "DEVICE_MAC_ADDRESS"
        case 0x07: "DST_MAC_ADDRESS"
        case 0x08: "SLOT_DURATION"
        case 0x09: "RANGING_DURATION"
        case 0x0A: "STS_INDEX"
        case 0x0B: "MAC_FCS_TYPE"
        case 0x0C: "RANGING_ROUND_CONTROL"
        case 0x0D: "AOA_RESULT_REQ"
        case 0x0E: "SESSION_INFO_NTF_CONFIG"
        case 0x0F: "NEAR_PROXIMITY_CONFIG"
        case 0x10: "FAR_PROXIMITY_CONFIG"
        case 0x11: "DEVICE_ROLE"
        case 0x12: "RFRAME_CONFIG"
        case 0x13: "RSSI_REPORTING"
        case 0x14: "PREAMBLE_CODE_INDEX"
        case 0x15: "SFD_ID"
        case 0x16: "PSDU_DATA_RATE"
        case 0x17: "PREAMBLE_DURATION"
        case 0x18: "LINK_LAYER_MODE"
        case 0x19: "DATA_REPETITION_COUNT"
        case 0x1A: "RANGING_TIME_STRUCT"
        case 0x1B: "SLOTS_PER_RR"
        case 0x1C: "TX_ADAPTIVE_PAYLOAD_POWER"
        case 0x1D: "AOA_BOUND_CONFIG"
        case 0x1E: "RESPONDER_SLOT_INDEX"
        case 0x1F: "PRF_MODE"
        case 0x20: "CAP_SIZE_RANGE"
        case 0x21: "TX_JITTER_WINDOW_SIZE"
        case 0x22: "SCHEDULE_MODE"
        case 0x23: "KEY_ROTATION"
        case 0x24: "KEY_ROTATION_RATE"
        case 0x25: "SESSION_PRIORITY"
        case 0x26: "MAC_ADDRESS_MODE"
        case 0x27: "VENDOR_ID"
        case 0x28: "STATIC_STS_IV"
        case 0x29: "NUMBER_OF_STS_SEGMENTS"
        case 0x2A: "MAX_RR_RETRY"
        case 0x2B: "UWB_INITIATION_TIME"
        case 0x2C: "HOPPING_MODE"
        case 0x2D: "BLOCK_STRIDE_LENGTH"
        case 0x2E: "RESULT_REPORT_CONFIG"
        case 0x2F: "IN_BAND_TERMINATION_ATTEMPT_COUNT"
        case 0x30: "SUB_SESSION_ID"
        case 0x31: "BPRF_PHR_DATA_RATE"
        case 0x32: "MAX_NUMBER_OF_MEASUREMENTS"
        case 0x33: "UL_TDOA_TX_INTERVAL"
        case 0x34: "UL_TDOA_RANDOM_WINDOW"
        case 0x35: "STS_LENGTH"
        case 0x36: "SUSPEND_RANGING_ROUNDS"
        case 0x37: "UL_TDOA_NTF_REPORT_CONFIG"
        case 0x38: "UL_TDOA_DEVICE_ID"
        case 0x39: "UL_TDOA_TX_TIMESTAMP"
        case 0x3A: "MIN_FRAMES_PER_RR"
        case 0x3B: "MTU_SIZE"
        case 0x3C: "INTER_FRAME_INTERVAL"
        case 0x3D: "DL_TDOA_RANGING_METHOD"
        case 0x3E: "DL_TDOA_TX_TIMESTAMP_CONF"
        case 0x3F: "DL_TDOA_HOP_COUNT"
        case 0x40: "DL_TDOA_ANCHOR_CFO"
        case 0x41: "DL_TDOA_ANCHOR_LOCATION"
        case 0x42: "DL_TDOA_TX_ACTIVE_RANGING_ROUNDS"
        case 0x43: "DL_TDOA_BLOCK_STRIDING"
        case 0x44: "DL_TDOA_TIME_REFERENCE_ANCHOR"
        case 0x45: "SESSION_KEY"
        case 0x46: "SUBSESSION_KEY"
        case 0x47: "SESSION_DATA_TRANSFER_STATUS_NTF_CONFIG"
        case 0x48: "SESSION_TIME_BASE"
        case 0x49: "DL_TDOA_RESPONDER_TOF"
        case 0x4A: "SECURE_RANGING_NEFA_LEVEL"
        case 0x4B: "SECURE_RANGING_CSW_LENGTH"
        case 0x4C: "APPLICATION_DATA_ENDPOINT"
        case 0x4D: "OWR_AOA_MEASUREMENT_NTF_PERIOD"
        default: nil
        }
    }

    /// `true` for the vendor-specific ranges 0xA0-0xDF and 0xE3-0xFF.
    public var isVendorSpecific: Bool { (0xA0...0xDF).contains(rawValue) || rawValue >= 0xE3 }

    /// `"RANGING_DURATION (0x09)"`, `"vendor-specific (0xE3)"`, `"reserved (0x60)"`.
    public var description: String {
        codeDescription(name ?? (isVendorSpecific ? "vendor-specific" : "reserved"), rawValue)
    }
}
