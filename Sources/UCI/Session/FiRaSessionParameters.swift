/// The parameters of a FiRa two-way-ranging session, with FiRa / pica defaults, checked by
/// ``validate(for:)`` before anything is sent and turned into SESSION_SET_APP_CONFIG TLVs by
/// ``appConfigs(for:)``.
///
/// Only the two MAC addresses have no default. Everything else starts at the value FiRa and
/// Google's pica use (channel 9, preamble code 10, SFD 2, SP3, 64-symbol preamble, static STS,
/// DS-TWR deferred, unicast, time-scheduled, 2400 RSTU slots, 25 slots per round, 200 ms
/// interval, AoA and range notifications on). Optional fields (`nil`) are not sent: the UWBS
/// keeps its own default.
///
/// Apple's Nearby Interaction accessory protocol derives a session from the shareable
/// configuration data (controller + initiator, DS-TWR deferred, unicast, static STS with
/// `vendorID` 0x004C and the phone's STS IV, SP3, SFD 2, 64-symbol preamble, the phone's slot
/// duration, interval, slots per round and ranging round control, `maxRangingRoundRetries` 0,
/// `initiationTime` 5 ms, the phone's MAC as the destination): every one of those is a field here.
///
/// ```swift
/// var parameters = FiRaSessionParameters(deviceMACAddress: .short(0x0001), destinationMACAddresses: [.short(0x0002)])
/// parameters.rangingInterval = 100
/// let configs = try parameters.appConfigs(for: .v1_1)   // validated, in the order pica needs
/// ```
public struct FiRaSessionParameters: Sendable, Hashable {
    // MARK: Roles and topology

    /// DEVICE_TYPE: controller (sets the session up over the air) or controlee. Default controller.
    public var deviceType: UCIDeviceType
    /// DEVICE_ROLE: initiator (starts each round) or responder. Default initiator.
    public var deviceRole: UCIDeviceRole
    /// RANGING_ROUND_USAGE: the two-way ranging method. Default DS-TWR deferred.
    public var rangingRoundUsage: UCIRangingRoundUsage
    /// MULTI_NODE_MODE: unicast (one peer) or one-to-many. Default unicast.
    public var multiNodeMode: UCIMultiNodeMode
    /// SCHEDULE_MODE: time-scheduled or contention-based. Default time-scheduled.
    public var scheduleMode: UCIScheduleMode

    // MARK: Addresses

    /// MAC_ADDRESS_MODE: 0 short addresses (default), 1 extended addresses with short headers,
    /// 2 extended addresses. Decides the size of both address fields.
    public var macAddressMode: UCIMACAddressMode
    /// DEVICE_MAC_ADDRESS: this UWBS's address in the session.
    public var deviceMACAddress: UCIMACAddress
    /// DST_MAC_ADDRESS: the peers' addresses (one in unicast; 1-8 for a one-to-many controller).
    /// NUMBER_OF_CONTROLEES is derived from it.
    public var destinationMACAddresses: [UCIMACAddress]

    // MARK: PHY

    /// CHANNEL_NUMBER: 5, 6, 8, 9 (default), 10, 12, 13 or 14.
    public var channel: UInt8
    /// PREAMBLE_CODE_INDEX: 9-12 (BPRF, default 10) or 25-32 (HPRF).
    public var preambleCodeIndex: UInt8
    /// SFD_ID: 0 or 2 with BPRF (default 2), 1-4 with HPRF.
    public var sfdID: UInt8
    /// RFRAME_CONFIG: SP0, SP1 or SP3 (default; STS, no data payload: what ranging uses).
    public var rframeConfig: UCIRFrameConfig
    /// PREAMBLE_DURATION: 32 or 64 symbols (default 64).
    public var preambleDuration: UCIPreambleDuration
    /// STS_CONFIG: static STS (default; seeded by ``vendorID`` and ``staticSTSIV``) or a
    /// dynamic / provisioned variant (the key then goes in ``additionalConfigs``).
    public var stsConfig: UCISTSConfig
    /// VENDOR_ID (static STS): sent only with static STS. Default 0x0000; Apple's accessories use
    /// 0x004C (sent little-endian, `4C 00`).
    public var vendorID: UInt16
    /// STATIC_STS_IV (static STS): exactly 6 bytes, sent only with static STS. Default zeros.
    public var staticSTSIV: [UInt8]
    /// STS_LENGTH: 32, 64 or 128 symbols; `nil` (default) keeps the UWBS's (64).
    public var stsLength: UCISTSLength?
    /// NUMBER_OF_STS_SEGMENTS (0x29): 0-4; `nil` (default) keeps the UWBS's (1 for SP1/SP3).
    public var stsSegmentCount: UInt8?

    // MARK: Timing

    /// SLOT_DURATION in RSTU (1 ms = 1200 RSTU). Default 2400 (2 ms).
    public var slotDuration: UInt16
    /// RANGING_DURATION: the ranging interval in milliseconds. Default 200.
    public var rangingInterval: UInt32
    /// SLOTS_PER_RR: slots per ranging round. Default 25.
    public var slotsPerRangingRound: UInt8
    /// RANGING_ROUND_CONTROL; `nil` (default) keeps the UWBS's (0x03 time-scheduled, 0x06
    /// contention-based). Apple's shareable data carries it.
    public var rangingRoundControl: UCIRangingRoundControl?
    /// HOPPING_MODE: 0 (default) off; other values select the hopping scheme.
    public var hoppingMode: UInt8
    /// MAX_RR_RETRY: failed rounds before the UWBS stops the session (SESSION_STATUS_NTF IDLE,
    /// reason 0x01); 0 (default) never stops.
    public var maxRangingRoundRetries: UInt16
    /// UWB_INITIATION_TIME; `nil` (default) starts at once. 4 bytes in UCI 1.1, 8 in 2.0.
    public var initiationTime: FiRaInitiationTime?
    /// MAX_NUMBER_OF_MEASUREMENTS: rounds before the UWBS stops the session (reason 0x02);
    /// `nil` (default) keeps the UWBS's (0, unlimited).
    public var maxNumberOfMeasurements: UInt16?

    // MARK: Reporting

    /// AOA_RESULT_REQ: which angles to measure. Default enabled (azimuth and elevation when the
    /// antennas allow). Angles the session does not request are left out of the range samples.
    public var aoaResultRequest: UCIAoAResultRequest
    /// SESSION_INFO_NTF_CONFIG: when range notifications are sent. Default enabled (every round).
    public var sessionInfoNotification: UCISessionInfoNotificationConfig
    /// RESULT_REPORT_CONFIG: which results the controller reports over the air; `nil` (default)
    /// keeps the UWBS's (ToF only).
    public var resultReportConfig: UCIResultReportConfig?
    /// SESSION_PRIORITY 1-100; `nil` (default) keeps the UWBS's (50).
    public var sessionPriority: UInt8?

    /// Any other parameters (vendor-specific ones, session keys, ...), sent after the fields
    /// above. An identifier that a field above already sends is rejected by ``validate(for:)``.
    public var additionalConfigs: [UCIAppConfig]
    /// Parameters never sent, whatever their field holds: the UWBS keeps its own value. For
    /// example AOA_RESULT_REQ for a kit whose CORE_GET_CAPS_INFO says it measures no angles
    /// (a one-antenna DWM3001CDK), which a firmware may refuse. Default none.
    public var omittedConfigs: Set<UCIAppConfigID>

    /// Creates parameters with the FiRa / pica defaults for everything not given.
    /// - Parameters:
    ///   - deviceMACAddress: this UWBS's MAC address, e.g. `.short(0x0001)`.
    ///   - destinationMACAddresses: the peers' addresses, e.g. `[.short(0x0002)]`.
    ///   - deviceType: controller (default) or controlee.
    ///   - deviceRole: initiator (default) or responder.
    ///   - channel: UWB channel, default 9.
    ///   - preambleCodeIndex: default 10.
    ///   - rangingInterval: milliseconds between rounds, default 200.
    public init(
        deviceMACAddress: UCIMACAddress, destinationMACAddresses: [UCIMACAddress],
        deviceType: UCIDeviceType = .controller, deviceRole: UCIDeviceRole = .initiator,
        channel: UInt8 = Self.defaultChannel, preambleCodeIndex: UInt8 = Self.defaultPreambleCodeIndex,
        rangingInterval: UInt32 = Self.defaultRangingInterval
    ) {
        self.deviceType = deviceType
        self.deviceRole = deviceRole
        self.rangingRoundUsage = .dsTWRDeferred
        self.multiNodeMode = .unicast
        self.scheduleMode = .timeScheduled
        self.macAddressMode = deviceMACAddress.isExtended ? .extended : .short
        self.deviceMACAddress = deviceMACAddress
        self.destinationMACAddresses = destinationMACAddresses
        self.channel = channel
        self.preambleCodeIndex = preambleCodeIndex
        self.sfdID = 2
        self.rframeConfig = .sp3
        self.preambleDuration = .symbols64
        self.stsConfig = .staticSTS
        self.vendorID = 0
        self.staticSTSIV = [0, 0, 0, 0, 0, 0]
        self.stsLength = nil
        self.stsSegmentCount = nil
        self.slotDuration = Self.defaultSlotDuration
        self.rangingInterval = rangingInterval
        self.slotsPerRangingRound = Self.defaultSlotsPerRangingRound
        self.rangingRoundControl = nil
        self.hoppingMode = 0
        self.maxRangingRoundRetries = 0
        self.initiationTime = nil
        self.maxNumberOfMeasurements = nil
        self.aoaResultRequest = .enabled
        self.sessionInfoNotification = .enabled
        self.resultReportConfig = nil
        self.sessionPriority = nil
        self.additionalConfigs = []
        self.omittedConfigs = []
    }

    /// Default CHANNEL_NUMBER: 9.
    public static let defaultChannel: UInt8 = 9
    /// Default PREAMBLE_CODE_INDEX: 10.
    public static let defaultPreambleCodeIndex: UInt8 = 10
    /// Default RANGING_DURATION: 200 ms.
    public static let defaultRangingInterval: UInt32 = 200
    /// Default SLOT_DURATION: 2400 RSTU (2 ms).
    public static let defaultSlotDuration: UInt16 = 2400
    /// Default SLOTS_PER_RR: 25.
    public static let defaultSlotsPerRangingRound: UInt8 = 25
    /// Ranging scheduling time units per millisecond.
    public static let rstuPerMillisecond = 1200

    /// The length of one ranging round in milliseconds: slots × slot duration / 1200. It must
    /// fit in ``rangingInterval``.
    public var rangingRoundDuration: Double {
        Double(slotsPerRangingRound) * Double(slotDuration) / Double(Self.rstuPerMillisecond)
    }

    /// `true` if the session asks for the azimuth (AOA_RESULT_REQ enabled, azimuth only or
    /// interleaved); otherwise range samples carry no azimuth (the UWBS reports zeros).
    public var reportsAzimuth: Bool {
        [.enabled, .azimuthOnly, .interleaved].contains(aoaResultRequest)
    }

    /// `true` if the session asks for the elevation (AOA_RESULT_REQ enabled, elevation only or
    /// interleaved).
    public var reportsElevation: Bool {
        [.enabled, .elevationOnly, .interleaved].contains(aoaResultRequest)
    }
}

/// When the first ranging round of a session starts (UWB_INITIATION_TIME, 0x2B).
public enum FiRaInitiationTime: Sendable, Hashable, CustomStringConvertible {
    /// Milliseconds after SESSION_START: 4 bytes in UCI 1.1; in UCI 2.0 the same number of
    /// milliseconds in 8 bytes (as AOSP sends a relative time).
    case afterStart(milliseconds: UInt32)
    /// UCI 2.0 only: an absolute time on the UWBS clock in microseconds (see
    /// CORE_QUERY_UWBS_TIMESTAMP), 8 bytes.
    case absolute(microseconds: UInt64)

    /// `"5 ms after start"`, `"at 123456 µs UWBS time"`.
    public var description: String {
        switch self {
        case .afterStart(let ms): "\(ms) ms after start"
        case .absolute(let us): "at \(us) µs UWBS time"
        }
    }
}
