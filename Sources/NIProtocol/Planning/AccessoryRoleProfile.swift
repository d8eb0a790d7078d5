public import UCI

/// What a host in the accessory role announces and how it derives its FiRa sessions: the
/// accessory side of the NI protocol as data (pure). Built from the dev kit
/// (``init(deviceInfo:vendor:address:role:layout:keyByteOrder:)``), it gives the accessory
/// configuration data (0x01 after 0x0A), the Android UwbDeviceConfigData (0x01 after 0xA5)
/// and, for a phone's configuration (0x0B), the controlee / responder session
/// (``NIFiRaDerivation``, Qorvo's rules).
///
/// | UWB config data field | Value |
/// |---|---|
/// | spec version | the layout's (1.0 or 1.1; Qorvo sends 1.1) |
/// | manufacturer ID, model ID | the kit maker's, filled as its firmware fills them (``init(deviceInfo:vendor:address:role:layout:keyByteOrder:)``) |
/// | middleware version | Qorvo: `00 00 01 01` (its NI library's); NXP: `[0, 0, minor, major]` of the host middleware (this program) |
/// | role | responder (0) unless initiator is asked for |
/// | MAC | the accessory's stable short address |
/// | clock drift | 25 ppm (layout 1.1) |
public struct AccessoryRoleProfile: Sendable, Hashable {
    /// Whose IDs the configuration data carries.
    public enum Vendor: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Qorvo (DWM3001CDK and other QM33 / DW3000 kits).
        case qorvo
        /// NXP (SR150 / SR040 kits).
        case nxp

        /// `qorvo` or `nxp`.
        public var description: String { rawValue }
    }

    /// The accessory's UWB short MAC address (the phone's destination address).
    public var address: UInt16
    /// The role announced: responder (controlee, default) or initiator (controller).
    public var role: NIRangingRole
    /// The layout of the UWB config data: 1.0 (19 bytes), 1.1 (21 bytes, default) or 2.0 (32
    /// bytes, with ``requestedParameters``).
    public var layout: ConfigurationDataVersion
    /// The manufacturer ID field.
    public var manufacturerID: UInt32
    /// The model ID field.
    public var modelID: UInt32
    /// The middleware version field.
    public var middlewareVersion: UInt32
    /// The clock drift announced in layouts 1.1 and 2.0, ppm.
    public var clockDriftPPM: UInt16
    /// What layout 2.0 requests. Default: no hopping, 6 slots of 3600 RSTU, 120 ms.
    public var requestedParameters: UWBConfigurationData.RequestedRangingParameters
    /// The preferred update rate announced.
    public var updateRate: AccessoryConfigurationData.PreferredUpdateRate
    /// How VENDOR_ID and the STS IV go to UCI (must match the phone's; iPhones: vendor-first).
    public var keyByteOrder: UWBKeyByteOrder
    /// Bytes after the layout inside uwbConfigDataLength (a Qorvo-style 64-byte buffer; for
    /// tests of lenient phones). Default none.
    public var extraConfigurationBytes: [UInt8]
    /// Bytes after the UWB config data, beyond the announced length. Default none.
    public var trailingBytes: [UInt8]
    /// Android: the FiRa config IDs supported (bit n = config ID n). Default 1-3 (`0x0E`).
    public var androidProfileIDs: UInt32
    /// Android: the roles the accessory can take. Default both.
    public var androidRoles: AndroidRangingRoles
    /// Android: the ranging interval used, ms; `nil` (default): the config ID's (NXP's table).
    public var androidRangingIntervalMS: UInt16?
    /// Android: slots per round for config IDs 1 and 3 (NXP's newer SDK: 10, older: 6).
    public var androidSlotsPerRound: UInt8
    /// Android: the chip ID field.
    public var androidChipID: UInt16
    /// Android: the chip firmware version field.
    public var androidFirmwareVersion: UInt16
    /// Android: the middleware version field (24 bits).
    public var androidMiddlewareVersion: UInt32

    /// Creates a profile field by field (defaults: Qorvo's IDs, responder, layout 1.1, 25 ppm).
    public init(
        address: UInt16, role: NIRangingRole = .responder, layout: ConfigurationDataVersion = .v1_1,
        manufacturerID: UInt32 = 0x0003_F53F, modelID: UInt32 = 0x0000_0BB8, middlewareVersion: UInt32 = 0x0101_0000,
        clockDriftPPM: UInt16 = 25,
        requestedParameters: UWBConfigurationData.RequestedRangingParameters = .init(
            hoppingMode: 0, slotsPerRound: 6, slotDurationRSTU: 3600, rangingIntervalMS: 120),
        updateRate: AccessoryConfigurationData.PreferredUpdateRate = .automatic, keyByteOrder: UWBKeyByteOrder = .vendorFirst,
        extraConfigurationBytes: [UInt8] = [], trailingBytes: [UInt8] = [],
        androidProfileIDs: UInt32 = 0x0000_000E, androidRoles: AndroidRangingRoles = [.controller, .controlee],
        androidRangingIntervalMS: UInt16? = nil, androidSlotsPerRound: UInt8 = AndroidConfigProfile.nxpSlotsPerRound,
        androidChipID: UInt16 = 0x0100, androidFirmwareVersion: UInt16 = 0x0203, androidMiddlewareVersion: UInt32 = 0x01_0000
    ) {
        self.address = address
        self.role = role
        self.layout = layout
        self.manufacturerID = manufacturerID
        self.modelID = modelID
        self.middlewareVersion = middlewareVersion
        self.clockDriftPPM = clockDriftPPM
        self.requestedParameters = requestedParameters
        self.updateRate = updateRate
        self.keyByteOrder = keyByteOrder
        self.extraConfigurationBytes = extraConfigurationBytes
        self.trailingBytes = trailingBytes
        self.androidProfileIDs = androidProfileIDs
        self.androidRoles = androidRoles
        self.androidRangingIntervalMS = androidRangingIntervalMS
        self.androidSlotsPerRound = androidSlotsPerRound
        self.androidChipID = androidChipID
        self.androidFirmwareVersion = androidFirmwareVersion
        self.androidMiddlewareVersion = androidMiddlewareVersion
    }

    /// The version of the middleware on the host (this program) that NXP's layout puts in the
    /// middleware field, as NXP's UWB IoT SDK puts its own (`UWBIOTVER_STR_VER_MAJOR/MINOR`).
    public static let hostMiddlewareVersion: (major: UInt8, minor: UInt8) = (0, 1)

    /// The profile of a dev kit, its fields filled the way the kit maker's firmware fills them:
    ///
    /// | | Qorvo (QANI `libniq`; captured in the reference's TV-1) | NXP (`UwbApi_GetUwbConfigData_iOS`, `..._Android` in `UwbApi.c`) |
    /// |---|---|---|
    /// | manufacturer ID | `3F F5 03 00` | `32 11 10 00` |
    /// | model ID | `B8 0B 00 00` | `[firmware major, chip type, module maker ID (2)]`: chip type 0x01 (SR150) when the device name is `SR150_PROD_IOT_ROW`, else 0xFF; the module maker ID is in the chip's OTP, which UCI does not read: `00 00` |
    /// | middleware version | `00 00 01 01`, whatever the kit's UCI version | `[0, 0, minor, major]` of the host middleware (``hostMiddlewareVersion``) |
    /// | Android chip ID | the kit's PHY version | `[0, chip type]` |
    /// | Android firmware version | the kit's MAC version | `[firmware major, firmware minor]` |
    /// | Android middleware version | the kit's UCI version | `[major, minor, 0]` of the host middleware |
    ///
    /// NXP's firmware version and device name come from the vendor part of CORE_GET_DEVICE_INFO
    /// (`NXPDeviceInformation` in UCI); an NXP kit that does not report them gets 0 and 0xFF.
    /// - Parameters:
    ///   - deviceInfo: what CORE_GET_DEVICE_INFO reported.
    ///   - vendor: the kit's maker (from the dev-kit catalogue; Qorvo's IDs when unknown).
    ///   - address: the accessory's stable short MAC address.
    ///   - role: the UWB role the accessory announces (responder: the phone controls).
    ///   - layout: 1.0 or 1.1 (2.0 asks the phone for timing an accessory role does not need,
    ///     so it is announced as 1.1).
    ///   - keyByteOrder: the byte order of the STS key material the kit expects.
    public init(deviceInfo: UCIDeviceInfo, vendor: Vendor = .qorvo, address: UInt16, role: NIRangingRole = .responder,
                layout: ConfigurationDataVersion = .v1_1, keyByteOrder: UWBKeyByteOrder = .vendorFirst) {
        let manufacturer: UInt32
        let model: UInt32
        let middleware: UInt32
        let chipID: UInt16
        let firmware: UInt16
        let androidMiddleware: UInt32
        switch vendor {
        case .qorvo:
            manufacturer = 0x0003_F53F
            model = 0x0000_0BB8
            middleware = 0x0101_0000
            chipID = UInt16(deviceInfo.phyVersion.major) << 8 | UInt16(deviceInfo.phyVersion.minor)
            firmware = UInt16(deviceInfo.macVersion.major) << 8 | UInt16(deviceInfo.macVersion.minor)
            androidMiddleware = UInt32(deviceInfo.uciVersion.major) << 16 | UInt32(deviceInfo.uciVersion.minor) << 8
        case .nxp:
            let nxp = deviceInfo.nxpInformation
            let version = nxp?.firmwareVersion ?? [0, 0, 0]
            let chipType: UInt8 = nxp?.deviceName == "SR150_PROD_IOT_ROW" ? 0x01 : 0xFF
            let host = Self.hostMiddlewareVersion
            manufacturer = 0x0010_1132
            model = UInt32(version[0]) | UInt32(chipType) << 8
            middleware = UInt32(host.major) << 24 | UInt32(host.minor) << 16
            chipID = UInt16(chipType)
            firmware = UInt16(version[0]) << 8 | UInt16(version[1])
            androidMiddleware = UInt32(host.major) << 16 | UInt32(host.minor) << 8
        }
        self.init(
            address: address, role: role, layout: layout == .v2_0 ? .v1_1 : layout, manufacturerID: manufacturer,
            modelID: model, middlewareVersion: middleware, keyByteOrder: keyByteOrder,
            androidChipID: chipID, androidFirmwareVersion: firmware, androidMiddlewareVersion: androidMiddleware)
    }

    /// The UWB config data announced (layout ``layout``).
    public func uwbConfigurationData() -> UWBConfigurationData {
        let room = UWBConfigurationData.maximumByteCount - UWBConfigurationData.byteCount(of: layout)
        // Only a 2.0 layout without a drift or more than 64 bytes throw; neither can happen here.
        return try! UWBConfigurationData(
            manufacturerID: manufacturerID, modelID: modelID, middlewareVersion: middlewareVersion, rangingRole: role,
            deviceAddress: address, maxClockDriftPPM: layout >= .v1_1 ? clockDriftPPM : nil,
            requestedParameters: layout >= .v2_0 ? requestedParameters : nil, extraBytes: Array(extraConfigurationBytes.prefix(room)))
    }

    /// The accessory configuration data sent after initialize (0x0A), without the 0x01 ID.
    public func accessoryConfigurationData() -> AccessoryConfigurationData {
        // The reserved field is always 10 bytes here.
        try! AccessoryConfigurationData(preferredUpdateRate: updateRate, uwbConfiguration: uwbConfigurationData(), trailingBytes: trailingBytes)
    }

    /// The UwbDeviceConfigData sent after the Android initialize (0xA5).
    /// - Throws: `NIProtocolError` when ``androidRoles`` is empty or has unknown bits, or the
    ///   middleware version does not fit 24 bits.
    public func androidConfigurationData() throws(NIProtocolError) -> UWBDeviceConfigData {
        try UWBDeviceConfigData(
            chipID: androidChipID, chipFirmwareVersion: androidFirmwareVersion, middlewareVersion: androidMiddlewareVersion,
            supportedProfileIDs: androidProfileIDs, supportedRoles: androidRoles, deviceAddress: address)
    }

    /// The FiRa session for an iPhone's shareable configuration data (Qorvo's derivation: the
    /// phone's session ID, channel, preamble, slot duration, interval, round control, STS IV;
    /// destination = the phone's address; controlee / responder unless the role is initiator).
    public func parameters(for shareable: ShareableConfigurationData) -> FiRaSessionParameters {
        NIFiRaDerivation.accessoryParameters(shareable: shareable, accessory: uwbConfigurationData(), keyByteOrder: keyByteOrder)
    }

    /// The FiRa session for an Android phone's configuration (the role the phone assigned, NXP's
    /// parameters for the config ID).
    /// - Throws: `NIProtocolError` naming `profileID` for a config ID outside NXP's table (1-3),
    ///   or when ``androidRoles`` is invalid.
    public func parameters(for phone: UWBPhoneConfigData) throws(NIProtocolError) -> FiRaSessionParameters {
        guard let profile = AndroidConfigProfile.nxp(configID: phone.profileID, slotsPerRound: androidSlotsPerRound) else {
            throw NIProtocolError(
                structure: "UwbPhoneConfigData", field: "profileID",
                reason: .outOfRange(value: Int(phone.profileID), allowed: AndroidConfigProfile.nxpConfigIDs.map(String.init).joined(separator: ", ")))
        }
        return NIFiRaDerivation.accessoryParameters(phone: phone, accessory: try androidConfigurationData(), profile: profile,
                                                    rangingIntervalMS: androidRangingIntervalMS)
    }
}
