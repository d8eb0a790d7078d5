import NearbyBase

/// What a capability TLV of CORE_GET_CAPS_INFO_RSP describes, independent of its number.
///
/// UCI 2.0 renumbered the FiRa capabilities (maximum data payload size is 0x13 in 1.1 and 0x01
/// in 2.0), so the same TLV type means different things by version: map with
/// ``init(id:version:)`` and ``id(for:)``. Numbering as in AOSP (`CapabilityParam`).
public enum UCICapabilityKind: Sendable, Hashable, CustomStringConvertible {
    /// SUPPORTED_FIRA_PHY_VERSION_RANGE.
    case phyVersionRange
    /// SUPPORTED_FIRA_MAC_VERSION_RANGE.
    case macVersionRange
    /// SUPPORTED_DEVICE_ROLES (bit n = DEVICE_ROLE n).
    case deviceRoles
    /// SUPPORTED_RANGING_METHOD (bit n = RANGING_ROUND_USAGE n).
    case rangingMethods
    /// SUPPORTED_STS_CONFIG (bit n = STS_CONFIG n).
    case stsConfigs
    /// SUPPORTED_MULTI_NODE_MODES (bit n = MULTI_NODE_MODE n).
    case multiNodeModes
    /// SUPPORTED_RANGING_TIME_STRUCT.
    case rangingTimeStructs
    /// SUPPORTED_SCHEDULED_MODE.
    case scheduledModes
    /// SUPPORTED_HOPPING_MODE (1 byte, 0 or 1).
    case hoppingMode
    /// SUPPORTED_BLOCK_STRIDING (1 byte, 0 or 1).
    case blockStriding
    /// SUPPORTED_UWB_INITIATION_TIME (1 byte, 0 or 1).
    case uwbInitiationTime
    /// SUPPORTED_CHANNELS (bit 0 = channel 5, 6, 8, 9, 10, 12, 13, bit 7 = channel 14).
    case channels
    /// SUPPORTED_RFRAME_CONFIG (bit n = SPn).
    case rframeConfigs
    /// SUPPORTED_CC_CONSTRAINT_LENGTH.
    case ccConstraintLengths
    /// SUPPORTED_BPRF_PARAMETER_SETS.
    case bprfParameterSets
    /// SUPPORTED_HPRF_PARAMETER_SETS.
    case hprfParameterSets
    /// SUPPORTED_AOA (see ``UCIAoACapability``).
    case aoa
    /// SUPPORTED_EXTENDED_MAC_ADDRESS (1 byte, 0 or 1).
    case extendedMACAddress
    /// SUPPORTED_MAX_MESSAGE_SIZE (2 bytes).
    case maxMessageSize
    /// SUPPORTED_MAX_DATA_PACKET_PAYLOAD_SIZE (2 bytes).
    case maxDataPacketPayloadSize
    /// SUPPORTED_DEVICE_TYPE (UCI 2.0).
    case deviceTypes
    /// SUPPORTED_SUSPEND_RANGING (UCI 2.0).
    case suspendRanging
    /// SUPPORTED_SESSION_KEY_LENGTH (UCI 2.0).
    case sessionKeyLength
    /// SUPPORTED_DT_ANCHOR_MAX_ACTIVE_RR (UCI 2.0).
    case dtAnchorMaxActiveRangingRounds
    /// SUPPORTED_DT_TAG_MAX_ACTIVE_RR (UCI 2.0).
    case dtTagMaxActiveRangingRounds
    /// SUPPORTED_DT_TAG_BLOCK_SKIPPING (UCI 2.0).
    case dtTagBlockSkipping
    /// SUPPORTED_PSDU_LENGTH (UCI 2.0).
    case psduLength
    /// A vendor-specific or reserved capability, with its TLV type.
    case other(UInt8)

    /// The UCI 1.1 numbering, index = TLV type.
    private static let version1: [UCICapabilityKind] = [
        .phyVersionRange, .macVersionRange, .deviceRoles, .rangingMethods, .stsConfigs, .multiNodeModes,
        .rangingTimeStructs, .scheduledModes, .hoppingMode, .blockStriding, .uwbInitiationTime, .channels,
        .rframeConfigs, .ccConstraintLengths, .bprfParameterSets, .hprfParameterSets, .aoa, .extendedMACAddress,
        .maxMessageSize, .maxDataPacketPayloadSize,
    ]

    /// The UCI 2.0 numbering, index = TLV type.
    private static let version2: [UCICapabilityKind] = [
        .maxMessageSize, .maxDataPacketPayloadSize, .phyVersionRange, .macVersionRange, .deviceTypes, .deviceRoles,
        .rangingMethods, .stsConfigs, .multiNodeModes, .rangingTimeStructs, .scheduledModes, .hoppingMode,
        .blockStriding, .uwbInitiationTime, .channels, .rframeConfigs, .ccConstraintLengths, .bprfParameterSets,
        .hprfParameterSets, .aoa, .extendedMACAddress, .suspendRanging, .sessionKeyLength,
        .dtAnchorMaxActiveRangingRounds, .dtTagMaxActiveRangingRounds, .dtTagBlockSkipping, .psduLength,
    ]

    /// What TLV type `id` means in `version`'s numbering.
    public init(id: UInt8, version: UCIVersion) {
        let table = version.usesVersion2Layout ? Self.version2 : Self.version1
        self = Int(id) < table.count ? table[Int(id)] : .other(id)
    }

    /// The TLV type of this capability in `version`'s numbering, or `nil` if that version has none.
    public func id(for version: UCIVersion) -> UInt8? {
        if case .other(let id) = self { return id }
        let table = version.usesVersion2Layout ? Self.version2 : Self.version1
        return table.firstIndex(of: self).map { UInt8($0) }
    }

    /// The specification's name: `"SUPPORTED_CHANNELS"`; `"vendor-specific (0xE4)"` for others.
    public var description: String {
        switch self {
        case .phyVersionRange: "SUPPORTED_FIRA_PHY_VERSION_RANGE"
        case .macVersionRange: "SUPPORTED_FIRA_MAC_VERSION_RANGE"
        case .deviceRoles: "SUPPORTED_DEVICE_ROLES"
        case .rangingMethods: "SUPPORTED_RANGING_METHOD"
        case .stsConfigs: "SUPPORTED_STS_CONFIG"
        case .multiNodeModes: "SUPPORTED_MULTI_NODE_MODES"
        case .rangingTimeStructs: "SUPPORTED_RANGING_TIME_STRUCT"
        case .scheduledModes: "SUPPORTED_SCHEDULED_MODE"
        case .hoppingMode: "SUPPORTED_HOPPING_MODE"
        case .blockStriding: "SUPPORTED_BLOCK_STRIDING"
        case .uwbInitiationTime: "SUPPORTED_UWB_INITIATION_TIME"
        case .channels: "SUPPORTED_CHANNELS"
        case .rframeConfigs: "SUPPORTED_RFRAME_CONFIG"
        case .ccConstraintLengths: "SUPPORTED_CC_CONSTRAINT_LENGTH"
        case .bprfParameterSets: "SUPPORTED_BPRF_PARAMETER_SETS"
        case .hprfParameterSets: "SUPPORTED_HPRF_PARAMETER_SETS"
        case .aoa: "SUPPORTED_AOA"
        case .extendedMACAddress: "SUPPORTED_EXTENDED_MAC_ADDRESS"
        case .maxMessageSize: "SUPPORTED_MAX_MESSAGE_SIZE"
        case .maxDataPacketPayloadSize: "SUPPORTED_MAX_DATA_PACKET_PAYLOAD_SIZE"
        case .deviceTypes: "SUPPORTED_DEVICE_TYPE"
        case .suspendRanging: "SUPPORTED_SUSPEND_RANGING"
        case .sessionKeyLength: "SUPPORTED_SESSION_KEY_LENGTH"
        case .dtAnchorMaxActiveRangingRounds: "SUPPORTED_DT_ANCHOR_MAX_ACTIVE_RR"
        case .dtTagMaxActiveRangingRounds: "SUPPORTED_DT_TAG_MAX_ACTIVE_RR"
        case .dtTagBlockSkipping: "SUPPORTED_DT_TAG_BLOCK_SKIPPING"
        case .psduLength: "SUPPORTED_PSDU_LENGTH"
        case .other(let id): codeDescription(id >= 0xA0 ? "vendor-specific" : "reserved", id)
        }
    }
}

/// One capability TLV of CORE_GET_CAPS_INFO_RSP, as sent: its type and raw value.
///
/// The meaning of the type depends on the UCI version (see ``UCICapabilityKind``); interpret a
/// list with ``UCICapabilities``.
public struct UCICapability: Sendable, Hashable, CustomStringConvertible {
    /// The TLV type.
    public var id: UInt8
    /// The raw value bytes.
    public var value: [UInt8]

    /// Creates a capability from its TLV type and value.
    public init(id: UInt8, value: [UInt8]) {
        self.id = id
        self.value = value
    }

    /// Creates a capability of `kind` with `version`'s numbering.
    /// - Throws: ``UCIError/Code/invalidValue`` if `version` has no number for `kind` (for
    ///   example SUPPORTED_DEVICE_TYPE in UCI 1.1).
    public init(_ kind: UCICapabilityKind, value: [UInt8], version: UCIVersion) throws(UCIError) {
        guard let id = kind.id(for: version) else {
            throw UCIError(
                .invalidValue, context: "CORE_GET_CAPS_INFO_RSP", field: kind.description,
                detail: "UCI \(version) has no TLV type for this capability")
        }
        self.init(id: id, value: value)
    }

    /// What the capability describes in `version`'s numbering.
    public func kind(for version: UCIVersion) -> UCICapabilityKind { UCICapabilityKind(id: id, version: version) }

    /// `"0x13: 02 01"`.
    public var description: String { "\(Hex.prefixed(id)): \(value.isEmpty ? "(empty)" : Hex.bytes(value))" }
}

/// The AoA abilities of a UWBS (the SUPPORTED_AOA capability).
public struct UCIAoACapability: OptionSet, Sendable, Hashable {
    /// The wire bits.
    public var rawValue: UInt8
    /// Creates the option set from its wire bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Azimuth over ±90°.
    public static let azimuth90 = UCIAoACapability(rawValue: 1 << 0)
    /// Azimuth over ±180°.
    public static let azimuth180 = UCIAoACapability(rawValue: 1 << 1)
    /// Elevation.
    public static let elevation = UCIAoACapability(rawValue: 1 << 2)
    /// Figure of merit of the angles.
    public static let figureOfMerit = UCIAoACapability(rawValue: 1 << 3)
}

/// The capabilities a UWBS reported, interpreted for its UCI version.
///
/// Typed accessors return `nil` when the UWBS did not report the capability and throw
/// ``UCIError/Code/invalidLength`` when its value has the wrong size.
public struct UCICapabilities: Sendable, Hashable {
    /// The TLVs as reported, in order.
    public var entries: [UCICapability]
    /// The UCI version whose numbering the TLV types follow (from CORE_GET_DEVICE_INFO).
    public var version: UCIVersion

    /// Interprets `entries` with `version`'s numbering.
    public init(_ entries: [UCICapability], version: UCIVersion) {
        self.entries = entries
        self.version = version
    }

    /// The raw value of a capability, or `nil` if it was not reported.
    public func value(of kind: UCICapabilityKind) -> [UInt8]? {
        entries.first { $0.kind(for: version) == kind }?.value
    }

    private func fixed(_ kind: UCICapabilityKind, length: Int) throws(UCIError) -> [UInt8]? {
        guard let value = value(of: kind) else { return nil }
        guard value.count == length else {
            throw UCIError(
                .invalidLength, context: "CORE_GET_CAPS_INFO_RSP", field: kind.description,
                detail: "length \(value.count), expected \(length) (UCI \(version) numbering)")
        }
        return value
    }

    private func bits(_ kind: UCICapabilityKind) throws(UCIError) -> [UInt8]? {
        guard let value = value(of: kind) else { return nil }
        guard (1...8).contains(value.count) else {
            throw UCIError(
                .invalidLength, context: "CORE_GET_CAPS_INFO_RSP", field: kind.description,
                detail: "length \(value.count), expected a 1- to 8-byte bit mask")
        }
        let mask = littleEndianValue(value)
        return (0..<UInt8(8 * value.count)).filter { mask & (1 << UInt64($0)) != 0 }
    }

    private func flag(_ kind: UCICapabilityKind) throws(UCIError) -> Bool? {
        try fixed(kind, length: 1).map { $0[0] != 0 }
    }

    /// The largest UCI message the UWBS accepts, in bytes.
    public func maxMessageSize() throws(UCIError) -> Int? {
        try fixed(.maxMessageSize, length: 2).map { Int(littleEndianValue($0)) }
    }

    /// The largest payload of one data packet, in bytes (for ``UCISegmenter``).
    public func maxDataPacketPayloadSize() throws(UCIError) -> Int? {
        try fixed(.maxDataPacketPayloadSize, length: 2).map { Int(littleEndianValue($0)) }
    }

    /// The supported UWB channels (5, 6, 8, 9, 10, 12, 13, 14).
    public func channels() throws(UCIError) -> [UInt8]? {
        let numbers: [UInt8] = [5, 6, 8, 9, 10, 12, 13, 14]
        return try bits(.channels).map { $0.compactMap { $0 < 8 ? numbers[Int($0)] : nil } }
    }

    /// The supported device roles.
    public func deviceRoles() throws(UCIError) -> [UCIDeviceRole]? {
        try bits(.deviceRoles).map { $0.map(UCIDeviceRole.init(rawValue:)) }
    }

    /// The supported ranging methods.
    public func rangingMethods() throws(UCIError) -> [UCIRangingRoundUsage]? {
        try bits(.rangingMethods).map { $0.map(UCIRangingRoundUsage.init(rawValue:)) }
    }

    /// The supported STS configurations.
    public func stsConfigs() throws(UCIError) -> [UCISTSConfig]? {
        try bits(.stsConfigs).map { $0.map(UCISTSConfig.init(rawValue:)) }
    }

    /// The supported multi-node modes.
    public func multiNodeModes() throws(UCIError) -> [UCIMultiNodeMode]? {
        try bits(.multiNodeModes).map { $0.map(UCIMultiNodeMode.init(rawValue:)) }
    }

    /// The supported RFRAME configurations.
    public func rframeConfigs() throws(UCIError) -> [UCIRFrameConfig]? {
        try bits(.rframeConfigs).map { $0.map(UCIRFrameConfig.init(rawValue:)) }
    }

    /// The AoA abilities.
    public func aoa() throws(UCIError) -> UCIAoACapability? {
        try fixed(.aoa, length: 1).map { UCIAoACapability(rawValue: $0[0]) }
    }

    /// Whether 8-byte MAC addresses are supported.
    public func supportsExtendedMACAddress() throws(UCIError) -> Bool? { try flag(.extendedMACAddress) }

    /// Whether channel hopping is supported.
    public func supportsHopping() throws(UCIError) -> Bool? { try flag(.hoppingMode) }

    /// Whether UWB_INITIATION_TIME is supported.
    public func supportsUWBInitiationTime() throws(UCIError) -> Bool? { try flag(.uwbInitiationTime) }
}
