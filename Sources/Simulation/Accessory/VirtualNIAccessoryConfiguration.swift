public import NIProtocol

/// What a ``VirtualNIAccessory`` announces and how it derives its session: the accessory side
/// of the NI protocol, configurable the ways real accessories differ.
public struct VirtualNIAccessoryConfiguration: Sendable, Hashable {
    /// The layout of the UWB config data in its ACD: 1.0 (19 bytes), 1.1 (21, default; what
    /// Qorvo sends) or 2.0 (32, with ``requestedParameters``).
    public var layout: ConfigurationDataVersion
    /// The role it announces: responder (0, default; Qorvo 2024-25) or initiator (1).
    public var role: NIRangingRole
    /// Its UWB short MAC address.
    public var address: UInt16
    /// Its preferred update rate.
    public var updateRate: AccessoryConfigurationData.PreferredUpdateRate
    /// Its clock drift, ppm (layouts 1.1 and 2.0). Default 25 (Qorvo).
    public var clockDriftPPM: UInt16
    /// What it requests in layout 2.0. Default: no hopping, 6 slots of 3600 RSTU, 120 ms.
    public var requestedParameters: UWBConfigurationData.RequestedRangingParameters
    /// How it maps vendor ID and STS IV to UCI (must match the host's). Default vendor-first.
    public var keyByteOrder: UWBKeyByteOrder
    /// Android dialect: the FiRa config IDs it supports (bit n = config ID n). Default 1-3.
    public var androidProfileIDs: UInt32
    /// Android dialect: the roles it can take. Default both.
    public var androidRoles: AndroidRangingRoles
    /// Android dialect: slots per round of its table (NXP: 10 for config IDs 1-3; 6 on the
    /// older SDK). Default 10.
    public var androidSlotsPerRound: UInt8
    /// Android dialect: a fixed ranging interval, ms; `nil` (default) uses its table's (240 ms
    /// for config IDs 1 and 3, 200 ms for ID 2).
    public var androidRangingIntervalMS: UInt16?
    /// Like Qorvo's firmware, after a session stopped (0x0C, 0x03, link loss) a configureAndStart
    /// without a fresh initialize is answered 0x02 but starts nothing. Default `true`.
    public var requiresInitializeAfterStop: Bool
    /// Extra bytes after the UWB config data's layout, inside uwbConfigDataLength (a Qorvo-style
    /// 64-byte buffer sends up to 64 - 21). Default 0.
    public var extraConfigurationBytes: Int
    /// Bytes after the UWB config data, beyond the announced length. Default 0.
    public var trailingBytes: Int

    /// Creates a configuration; every parameter has the default documented on its property.
    public init(
        layout: ConfigurationDataVersion = .v1_1,
        role: NIRangingRole = .responder,
        address: UInt16 = 0x0012,
        updateRate: AccessoryConfigurationData.PreferredUpdateRate = .automatic,
        clockDriftPPM: UInt16 = 25,
        requestedParameters: UWBConfigurationData.RequestedRangingParameters = .init(
            hoppingMode: 0, slotsPerRound: 6, slotDurationRSTU: 3600, rangingIntervalMS: 120),
        keyByteOrder: UWBKeyByteOrder = .vendorFirst,
        androidProfileIDs: UInt32 = 0x0000_000E,
        androidRoles: AndroidRangingRoles = [.controller, .controlee],
        androidSlotsPerRound: UInt8 = 10,
        androidRangingIntervalMS: UInt16? = nil,
        requiresInitializeAfterStop: Bool = true,
        extraConfigurationBytes: Int = 0,
        trailingBytes: Int = 0
    ) {
        self.layout = layout
        self.role = role
        self.address = address
        self.updateRate = updateRate
        self.clockDriftPPM = clockDriftPPM
        self.requestedParameters = requestedParameters
        self.keyByteOrder = keyByteOrder
        self.androidProfileIDs = androidProfileIDs
        self.androidRoles = androidRoles
        self.androidSlotsPerRound = androidSlotsPerRound
        self.androidRangingIntervalMS = androidRangingIntervalMS
        self.requiresInitializeAfterStop = requiresInitializeAfterStop
        self.extraConfigurationBytes = extraConfigurationBytes
        self.trailingBytes = trailingBytes
    }

    /// The accessory-role profile it runs with: Qorvo's IDs (manufacturer `3F F5 03 00`, model
    /// `B8 0B 00 00`, middleware `00 00 01 01`), this configuration's fields, NXP's Android chip
    /// fields (chip 0x0100, firmware 0x0203, middleware 0x010000).
    public var profile: AccessoryRoleProfile {
        let extra = (0..<max(0, extraConfigurationBytes)).map { UInt8(truncatingIfNeeded: 0xE0 + $0) }
        let trailing = (0..<max(0, trailingBytes)).map { UInt8(truncatingIfNeeded: 0xF0 + $0) }
        return AccessoryRoleProfile(
            address: address, role: role, layout: layout, clockDriftPPM: clockDriftPPM, requestedParameters: requestedParameters,
            updateRate: updateRate, keyByteOrder: keyByteOrder, extraConfigurationBytes: extra, trailingBytes: trailing,
            androidProfileIDs: androidProfileIDs, androidRoles: androidRoles, androidRangingIntervalMS: androidRangingIntervalMS,
            androidSlotsPerRound: androidSlotsPerRound)
    }

    /// The accessory configuration data it sends (Apple dialect).
    public func accessoryConfigurationData() -> AccessoryConfigurationData {
        profile.accessoryConfigurationData()
    }

    /// The UwbDeviceConfigData it sends (Android dialect).
    /// - Throws: `NIProtocolError` when ``androidRoles`` is empty or has unknown bits.
    public func androidConfigurationData() throws(NIProtocolError) -> UWBDeviceConfigData {
        try profile.androidConfigurationData()
    }
}

/// A misbehaviour of a ``VirtualNIAccessory``, for tests of the host's timeouts and recovery.
public enum VirtualNIAccessoryFault: Sendable, Hashable, CustomStringConvertible {
    /// Answers initialize only after `delay` (a slow accessory).
    case slowConfiguration(Duration)
    /// Answers every initialize with unusable ACD: uwbConfigDataLength 12 (with 12 bytes
    /// following), too short to hold its MAC address.
    case invalidConfiguration
    /// Answers the first initialize with that unusable ACD, the next ones correctly.
    case invalidConfigurationOnce
    /// Answers nothing at all (and stops ranging): a hung firmware.
    case silent

    /// `slow configuration (0.5 s)`, `invalid configuration`, `invalid configuration once`, `silent`.
    public var description: String {
        switch self {
        case .slowConfiguration(let delay): "slow configuration (\(delay))"
        case .invalidConfiguration: "invalid configuration"
        case .invalidConfigurationOnce: "invalid configuration once"
        case .silent: "silent"
        }
    }
}
