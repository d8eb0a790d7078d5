/// The host's choices when it plans an NI session (``SessionPlanner``): what an iPhone decides
/// by itself, made explicit. Defaults follow what iOS sends (TV-2 of the reference): 6 slots of
/// 3600 RSTU, 198 ms for an accessory with an automatic update rate, time-scheduled rounds
/// (0x03), 100 ppm clock drift.
public struct SessionPlanningOptions: Sendable, Hashable {
    /// Channels to use, in order of preference; the first one the local kit supports is taken.
    /// NI uses 5 and 9. Default `[9, 5]`.
    public var channels: [UInt8]
    /// Preamble code indices to pick from at random (NI: BPRF codes 9-12). Default 9-12.
    public var preambleCodeIndices: [UInt8]
    /// The regulatory country code sent to the accessory. Default `US`.
    public var countryCode: RegulatoryCountryCode
    /// Slots per ranging round when the accessory does not request one (v2.0). Default 6.
    public var slotsPerRound: UInt16
    /// Slot duration in RSTU when the accessory does not request one. Default 3600 (3 ms).
    public var slotDurationRSTU: UInt16
    /// A fixed ranging interval in ms; `nil` (default) derives it from the accessory's
    /// preferred update rate or its v2.0 request (see ``SessionPlanner/rangingInterval(for:)``).
    /// With a fixed interval a v2.0 accessory's slot duration (and slots, when they fit) are
    /// still used.
    public var rangingIntervalMS: UInt16?
    /// Ranging round control byte (0x03: time-scheduled with result report). Default 0x03.
    public var rangingRoundControl: UInt8
    /// The host's clock drift announced in v1.1+ shareable data, ppm. Default 100.
    public var clockDriftPPM: UInt16
    /// How VENDOR_ID and the STS IV go to UCI (both sides must agree). Default vendor-first.
    public var keyByteOrder: UWBKeyByteOrder
    /// UWB_INITIATION_TIME of the local session, ms after start (Qorvo's accessories use 5);
    /// `nil` starts at once. Default 5.
    public var initiationTimeMS: UInt32?
    /// A fixed session ID (tests, reproductions); `nil` (default) draws a random one.
    public var sessionID: UInt32?
    /// A fixed host short MAC address; `nil` (default) draws a random one.
    public var hostAddress: UInt16?
    /// A fixed static STS IV (6 bytes); `nil` (default) draws a random one.
    public var staticSTSIV: [UInt8]?
    /// Android dialect: the FiRa config IDs (androidx `RangingParameters.CONFIG_*`) the host can
    /// run, in order of preference, among 1-3 (``AndroidConfigProfile``: NXP's parameters).
    /// Default `[1]` (unicast DS-TWR).
    public var androidConfigIDs: [UInt8]
    /// Android dialect: a fixed ranging interval, ms; `nil` (default) uses the config ID's
    /// (240 ms for IDs 1 and 3, 200 ms for ID 2). The accessory keeps its own table's interval,
    /// so override only for an accessory that does the same.
    public var androidRangingIntervalMS: UInt16?
    /// Android dialect: a fixed slots per round; `nil` (default) follows the accessory
    /// (``AndroidConfigProfile/nxpSlotsPerRound(for:)``: 10, or 6 for one offering config ID 1
    /// only). Set 6 for an accessory on NXP's older SDK, which offers IDs 1-3 but runs 6.
    public var androidSlotsPerRound: UInt8?

    /// Creates options; every parameter has the default documented on its property.
    public init(
        channels: [UInt8] = [9, 5],
        preambleCodeIndices: [UInt8] = [9, 10, 11, 12],
        countryCode: RegulatoryCountryCode = RegulatoryCountryCode(first: 0x55, second: 0x53),
        slotsPerRound: UInt16 = 6,
        slotDurationRSTU: UInt16 = 3600,
        rangingIntervalMS: UInt16? = nil,
        rangingRoundControl: UInt8 = 0x03,
        clockDriftPPM: UInt16 = 100,
        keyByteOrder: UWBKeyByteOrder = .vendorFirst,
        initiationTimeMS: UInt32? = 5,
        sessionID: UInt32? = nil,
        hostAddress: UInt16? = nil,
        staticSTSIV: [UInt8]? = nil,
        androidConfigIDs: [UInt8] = [1],
        androidRangingIntervalMS: UInt16? = nil,
        androidSlotsPerRound: UInt8? = nil
    ) {
        self.channels = channels
        self.preambleCodeIndices = preambleCodeIndices
        self.countryCode = countryCode
        self.slotsPerRound = slotsPerRound
        self.slotDurationRSTU = slotDurationRSTU
        self.rangingIntervalMS = rangingIntervalMS
        self.rangingRoundControl = rangingRoundControl
        self.clockDriftPPM = clockDriftPPM
        self.keyByteOrder = keyByteOrder
        self.initiationTimeMS = initiationTimeMS
        self.sessionID = sessionID
        self.hostAddress = hostAddress
        self.staticSTSIV = staticSTSIV
        self.androidConfigIDs = androidConfigIDs
        self.androidRangingIntervalMS = androidRangingIntervalMS
        self.androidSlotsPerRound = androidSlotsPerRound
    }
}
