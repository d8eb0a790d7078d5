public import UCI

/// The app configuration of one session of a virtual UWBS: the parameters the host set with
/// SESSION_SET_APP_CONFIG, over the defaults of a FiRa UWBS.
///
/// Defaults (pica's and FiRa's): STS_CONFIG static, CHANNEL_NUMBER 9, NUMBER_OF_CONTROLEES 1,
/// SLOT_DURATION 2400 RSTU, RANGING_DURATION 200 ms, MAC_FCS_TYPE CRC-16, RANGING_ROUND_CONTROL
/// 0x03, AOA_RESULT_REQ on, SESSION_INFO_NTF_CONFIG on, NEAR/FAR_PROXIMITY 0 / 20000 cm,
/// RFRAME_CONFIG SP3, RSSI_REPORTING off, PREAMBLE_CODE_INDEX 10, SFD_ID 2, PREAMBLE_DURATION 64
/// symbols, SLOTS_PER_RR 25, AOA_BOUND_CONFIG ±180° / ±90°, SESSION_PRIORITY 50,
/// MAC_ADDRESS_MODE short, MAX_RR_RETRY 0 (never stop), HOPPING_MODE off, RESULT_REPORT_CONFIG
/// ToF, MAX_NUMBER_OF_MEASUREMENTS 0 (unlimited), STS_LENGTH 64 symbols.
///
/// The ``mandatory`` parameters have no default: a session moves from INIT to IDLE only once
/// they are all set.
public struct VirtualSessionConfiguration: Sendable, Hashable {
    /// The parameters set explicitly, by identifier.
    public private(set) var explicit: [UCIAppConfigID: UCIAppConfig] = [:] {
        didSet { hot = Hot(explicit) }
    }

    /// The values a ranging round reads (a dozen times a round), derived from ``explicit``
    /// whenever it changes instead of hashing their identifiers at every read.
    private var hot = Hot.unset

    /// An empty configuration (defaults only).
    public init() {}

    /// A configuration with `configs` set, later entries replacing earlier ones (no checks).
    public init(_ configs: [UCIAppConfig]) {
        var explicit: [UCIAppConfigID: UCIAppConfig] = [:]
        for config in configs { explicit[config.id] = config }
        self.explicit = explicit
        hot = Hot(explicit)
    }

    /// The parameters a ranging round reads, looked up once per change of the configuration.
    private struct Hot: Sendable, Hashable {
        var deviceType: UCIDeviceType?
        var deviceRole: UCIDeviceRole?
        var channel: UInt8
        var preambleCodeIndex: UInt8
        var deviceMACAddress: UCIMACAddress?
        var destinationAddresses: [UCIMACAddress]
        var rangingInterval: UInt32
        var macAddressMode: UCIMACAddressMode
        var aoaResultRequest: UCIAoAResultRequest
        var notificationConfig: UCISessionInfoNotificationConfig
        var maxRangingRoundRetries: UInt16
        var maxNumberOfMeasurements: UInt16
        var hoppingMode: UInt8
        var roundDuration: Double
        var roundsPerBlock: Int

        static let unset = Hot([:])

        init(_ explicit: [UCIAppConfigID: UCIAppConfig]) {
            let c = VirtualSessionConfiguration.Lookup(explicit: explicit)
            deviceType = c.deviceType
            deviceRole = c.deviceRole
            channel = c.channel
            preambleCodeIndex = c.preambleCodeIndex
            deviceMACAddress = c.deviceMACAddress
            destinationAddresses = c.destinationAddresses
            rangingInterval = c.rangingInterval
            macAddressMode = c.macAddressMode
            aoaResultRequest = c.aoaResultRequest
            notificationConfig = c.notificationConfig
            maxRangingRoundRetries = c.maxRangingRoundRetries
            maxNumberOfMeasurements = c.maxNumberOfMeasurements
            hoppingMode = c.hoppingMode
            roundDuration = c.roundDuration
            roundsPerBlock = c.roundsPerBlock
        }
    }

    /// The parameters a session needs before it can leave INIT (FiRa UCI 7.5.1, as pica checks
    /// them, plus DEVICE_TYPE, which pairing needs).
    public static let mandatory: [UCIAppConfigID] = [
        .deviceType, .deviceRole, .multiNodeMode, .rangingRoundUsage, .deviceMACAddress, .scheduleMode,
    ]

    /// Parameters a host may change while the session is ACTIVE.
    public static let changeableWhileActive: Set<UCIAppConfigID> = [
        .rangingDuration, .sessionInfoNotificationConfig, .nearProximity, .farProximity, .aoaBounds, .blockStrideLength,
    ]

    /// The default of every parameter that has one.
    public static let defaults: [UCIAppConfig] = [
        .stsConfig(.staticSTS), .channelNumber(9), .numberOfControlees(1), .slotDuration(rstu: 2400),
        .rangingDuration(milliseconds: 200), .macFCSType(.crc16), .rangingRoundControl(UCIRangingRoundControl(rawValue: 0x03)),
        .aoaResultRequest(.enabled), .sessionInfoNotificationConfig(.enabled), .nearProximity(centimeters: 0),
        .farProximity(centimeters: 20000), .rframeConfig(.sp3), .rssiReporting(0), .preambleCodeIndex(10), .sfdID(2),
        .preambleDuration(.symbols64), .slotsPerRangingRound(25),
        .aoaBounds(
            UCIAoABounds(
                minimumAzimuth: UCIAngle(degrees: -180), maximumAzimuth: UCIAngle(degrees: 180),
                minimumElevation: UCIAngle(degrees: -90), maximumElevation: UCIAngle(degrees: 90))),
        .sessionPriority(50), .macAddressMode(.short), .maxRangingRoundRetries(0), .hoppingMode(0),
        .resultReportConfig(.timeOfFlight), .maxNumberOfMeasurements(0), .stsLength(.symbols64),
    ]

    private static let defaultsByID: [UCIAppConfigID: UCIAppConfig] = Dictionary(
        uniqueKeysWithValues: defaults.map { ($0.id, $0) })

    /// Sets one parameter (no checks; the virtual UWBS checks what a host sends).
    public mutating func set(_ config: UCIAppConfig) {
        explicit[config.id] = config
    }

    /// The parameter's value: set explicitly, else its default, else `nil`.
    public func value(_ id: UCIAppConfigID) -> UCIAppConfig? {
        explicit[id] ?? Self.defaultsByID[id]
    }

    /// Every parameter with a value (set or default), ordered by identifier: what
    /// SESSION_GET_APP_CONFIG with an empty list returns.
    public var all: [UCIAppConfig] {
        var merged = Self.defaultsByID
        for (id, config) in explicit { merged[id] = config }
        return merged.keys.sorted { $0.rawValue < $1.rawValue }.compactMap { merged[$0] }
    }

    /// The mandatory parameters that are not set yet, in ``mandatory``'s order.
    public var missingMandatory: [UCIAppConfigID] {
        Self.mandatory.filter { explicit[$0] == nil }
    }

    // MARK: Typed values

    /// DEVICE_TYPE, `nil` until set.
    public var deviceType: UCIDeviceType? { hot.deviceType }

    /// DEVICE_ROLE, `nil` until set.
    public var deviceRole: UCIDeviceRole? { hot.deviceRole }

    /// MULTI_NODE_MODE, `nil` until set.
    public var multiNodeMode: UCIMultiNodeMode? { lookup.multiNodeMode }

    /// DEVICE_MAC_ADDRESS, `nil` until set.
    public var deviceMACAddress: UCIMACAddress? { hot.deviceMACAddress }

    /// DST_MAC_ADDRESS: the peers' addresses (empty until set).
    public var destinationAddresses: [UCIMACAddress] { hot.destinationAddresses }

    /// CHANNEL_NUMBER.
    public var channel: UInt8 { hot.channel }

    /// PREAMBLE_CODE_INDEX.
    public var preambleCodeIndex: UInt8 { hot.preambleCodeIndex }

    /// RANGING_DURATION: the ranging interval in milliseconds.
    public var rangingInterval: UInt32 { hot.rangingInterval }

    /// MAC_ADDRESS_MODE.
    public var macAddressMode: UCIMACAddressMode { hot.macAddressMode }

    /// AOA_RESULT_REQ.
    public var aoaResultRequest: UCIAoAResultRequest { hot.aoaResultRequest }

    /// SESSION_INFO_NTF_CONFIG.
    public var notificationConfig: UCISessionInfoNotificationConfig { hot.notificationConfig }

    /// NEAR_PROXIMITY_CONFIG ... FAR_PROXIMITY_CONFIG, centimetres.
    public var proximityRange: ClosedRange<UInt16> { lookup.proximityRange }

    /// AOA_BOUND_CONFIG.
    public var aoaBounds: UCIAoABounds { lookup.aoaBounds }

    /// MAX_RR_RETRY: failed rounds in a row after which the session stops (0 = never).
    public var maxRangingRoundRetries: UInt16 { hot.maxRangingRoundRetries }

    /// MAX_NUMBER_OF_MEASUREMENTS: rounds after which the session stops (0 = never).
    public var maxNumberOfMeasurements: UInt16 { hot.maxNumberOfMeasurements }

    /// NUMBER_OF_CONTROLEES if the host set it, else `nil`.
    public var numberOfControlees: UInt8? { lookup.numberOfControlees }

    /// SLOT_DURATION, RSTU (1 ms = 1200 RSTU).
    public var slotDuration: UInt16 { lookup.slotDuration }

    /// SLOTS_PER_RR.
    public var slotsPerRangingRound: UInt8 { lookup.slotsPerRangingRound }

    /// STS_CONFIG.
    public var stsConfig: UCISTSConfig { lookup.stsConfig }

    /// The delay before the first ranging round that UWB_INITIATION_TIME asks for, in
    /// milliseconds: the UCI 1.1 relative form; 0 for the 2.0 absolute form (which the virtual
    /// UWBS treats as "start now") or when unset.
    public var initiationDelay: UInt32 { lookup.initiationDelay }

    /// HOPPING_MODE (0: off; anything else: FiRa ranging round hopping).
    public var hoppingMode: UInt8 { hot.hoppingMode }

    /// How long one ranging round holds the radio, seconds: SLOTS_PER_RR × SLOT_DURATION.
    public var roundDuration: Double { hot.roundDuration }

    /// Rounds that fit one block (the ranging interval) end to end: where a hopping round can
    /// be (at least 1).
    public var roundsPerBlock: Int { hot.roundsPerBlock }

    /// The shortest ranging interval the slots allow, milliseconds: SLOTS_PER_RR ×
    /// SLOT_DURATION (rounded up).
    public var minimumRangingInterval: UInt32 { lookup.minimumRangingInterval }

    private var lookup: Lookup { Lookup(explicit: explicit) }

    /// The typed values, read from the parameters set (else their defaults).
    private struct Lookup {
        let explicit: [UCIAppConfigID: UCIAppConfig]

        func value(_ id: UCIAppConfigID) -> UCIAppConfig? {
            explicit[id] ?? VirtualSessionConfiguration.defaultsByID[id]
        }

        /// DEVICE_TYPE, `nil` until set.
        var deviceType: UCIDeviceType? {
            if case .deviceType(let v) = explicit[.deviceType] { return v }
            return nil
        }

        /// DEVICE_ROLE, `nil` until set.
        var deviceRole: UCIDeviceRole? {
            if case .deviceRole(let v) = explicit[.deviceRole] { return v }
            return nil
        }

        /// MULTI_NODE_MODE, `nil` until set.
        var multiNodeMode: UCIMultiNodeMode? {
            if case .multiNodeMode(let v) = explicit[.multiNodeMode] { return v }
            return nil
        }

        /// DEVICE_MAC_ADDRESS, `nil` until set.
        var deviceMACAddress: UCIMACAddress? {
            if case .deviceMACAddress(let v) = explicit[.deviceMACAddress] { return v }
            return nil
        }

        /// DST_MAC_ADDRESS: the peers' addresses (empty until set).
        var destinationAddresses: [UCIMACAddress] {
            if case .destinationMACAddresses(let v) = explicit[.destinationMACAddresses] { return v }
            return []
        }

        /// CHANNEL_NUMBER.
        var channel: UInt8 {
            if case .channelNumber(let v) = value(.channelNumber) { return v }
            return 9
        }

        /// PREAMBLE_CODE_INDEX.
        var preambleCodeIndex: UInt8 {
            if case .preambleCodeIndex(let v) = value(.preambleCodeIndex) { return v }
            return 10
        }

        /// RANGING_DURATION: the ranging interval in milliseconds.
        var rangingInterval: UInt32 {
            if case .rangingDuration(let v) = value(.rangingDuration) { return v }
            return 200
        }

        /// MAC_ADDRESS_MODE.
        var macAddressMode: UCIMACAddressMode {
            if case .macAddressMode(let v) = value(.macAddressMode) { return v }
            return .short
        }

        /// AOA_RESULT_REQ.
        var aoaResultRequest: UCIAoAResultRequest {
            if case .aoaResultRequest(let v) = value(.aoaResultRequest) { return v }
            return .enabled
        }

        /// SESSION_INFO_NTF_CONFIG.
        var notificationConfig: UCISessionInfoNotificationConfig {
            if case .sessionInfoNotificationConfig(let v) = value(.sessionInfoNotificationConfig) { return v }
            return .enabled
        }

        /// NEAR_PROXIMITY_CONFIG ... FAR_PROXIMITY_CONFIG, centimetres.
        var proximityRange: ClosedRange<UInt16> {
            var near: UInt16 = 0
            var far: UInt16 = 20000
            if case .nearProximity(let v) = value(.nearProximity) { near = v }
            if case .farProximity(let v) = value(.farProximity) { far = v }
            return min(near, far)...max(near, far)
        }

        /// AOA_BOUND_CONFIG.
        var aoaBounds: UCIAoABounds {
            if case .aoaBounds(let v) = value(.aoaBounds) { return v }
            return UCIAoABounds(
                minimumAzimuth: UCIAngle(degrees: -180), maximumAzimuth: UCIAngle(degrees: 180),
                minimumElevation: UCIAngle(degrees: -90), maximumElevation: UCIAngle(degrees: 90))
        }

        /// MAX_RR_RETRY: failed rounds in a row after which the session stops (0 = never).
        var maxRangingRoundRetries: UInt16 {
            if case .maxRangingRoundRetries(let v) = value(.maxRangingRoundRetries) { return v }
            return 0
        }

        /// MAX_NUMBER_OF_MEASUREMENTS: rounds after which the session stops (0 = never).
        var maxNumberOfMeasurements: UInt16 {
            if case .maxNumberOfMeasurements(let v) = value(.maxNumberOfMeasurements) { return v }
            return 0
        }

        /// NUMBER_OF_CONTROLEES if the host set it, else `nil`.
        var numberOfControlees: UInt8? {
            if case .numberOfControlees(let v) = explicit[.numberOfControlees] { return v }
            return nil
        }

        /// SLOT_DURATION, RSTU (1 ms = 1200 RSTU).
        var slotDuration: UInt16 {
            if case .slotDuration(let v) = value(.slotDuration) { return v }
            return 2400
        }

        /// SLOTS_PER_RR.
        var slotsPerRangingRound: UInt8 {
            if case .slotsPerRangingRound(let v) = value(.slotsPerRangingRound) { return v }
            return 25
        }

        /// STS_CONFIG.
        var stsConfig: UCISTSConfig {
            if case .stsConfig(let v) = value(.stsConfig) { return v }
            return .staticSTS
        }

        /// The delay before the first ranging round that UWB_INITIATION_TIME asks for, in
        /// milliseconds: the UCI 1.1 relative form; 0 for the 2.0 absolute form (which the virtual
        /// UWBS treats as "start now") or when unset.
        var initiationDelay: UInt32 {
            if case .uwbInitiationTime(.relative(let ms)) = explicit[.uwbInitiationTime] { return ms }
            return 0
        }

        /// HOPPING_MODE (0: off; anything else: FiRa ranging round hopping).
        var hoppingMode: UInt8 {
            if case .hoppingMode(let v) = value(.hoppingMode) { return v }
            return 0
        }

        /// How long one ranging round holds the radio, seconds: SLOTS_PER_RR × SLOT_DURATION.
        var roundDuration: Double {
            Double(slotsPerRangingRound) * Double(slotDuration) / 1200 / 1000
        }

        /// Rounds that fit one block (the ranging interval) end to end: where a hopping round can
        /// be (at least 1).
        var roundsPerBlock: Int {
            guard roundDuration > 0 else { return 1 }
            return max(1, Int((Double(rangingInterval) / 1000 / roundDuration).rounded(.down)))
        }

        /// The shortest ranging interval the slots allow, milliseconds: SLOTS_PER_RR ×
        /// SLOT_DURATION (rounded up).
        var minimumRangingInterval: UInt32 {
            (UInt32(slotsPerRangingRound) * UInt32(slotDuration) + 1199) / 1200
        }
    }
}
