/// The Android variant's accessory configuration (NXP / Truesense `UwbDeviceConfigData`): the
/// 18-byte payload of message `0x01` after the app sent `0xA5`. **Big-endian.**
///
/// | Offset | Size | Field |
/// |---|---|---|
/// | 0 | 2 | spec_ver_major |
/// | 2 | 2 | spec_ver_minor |
/// | 4 | 2 | chip_id |
/// | 6 | 2 | chip_fw_version |
/// | 8 | 3 | mw_version |
/// | 11 | 4 | supported_profile_ids (bit n = FiRa config ID n; IDs 1-3 → `0x0000000E`) |
/// | 15 | 1 | ranging_role bitmask (bit 0 controller, bit 1 controlee) |
/// | 16 | 2 | device_mac, **in UCI byte order** (see ``deviceAddress``) |
///
/// The MAC address is not a big-endian integer like the other fields: NXP's accessory
/// (`UwbApi_GetUwbConfigData_Android`, `serializeUwbDeviceConfigData` in `UwbApi_Utility.c`)
/// sends its two random MAC bytes as an array and programs the same two bytes, unchanged, as
/// its UCI DEVICE_MAC_ADDRESS. We therefore read them as UCI does, little-endian, so that the
/// host's DST_MAC_ADDRESS (written little-endian) carries exactly the accessory's bytes
/// (specs/ni-protocol.md §5). Bytes after the 18 are kept in ``trailingBytes``.
public struct UWBDeviceConfigData: Sendable, Hashable {
    static let structureName = "UwbDeviceConfigData"
    /// Encoded length: 18 bytes.
    public static let byteCount = 18
    static let allowedRolesText = "1 (controller), 2 (controlee) or 3 (both)"

    /// Spec version fields as sent (Android stacks send major `0x0100`, minor `0x0000`).
    public let specVersion: NIVersion
    /// UWB chip ID.
    public let chipID: UInt16
    /// UWB chip firmware version.
    public let chipFirmwareVersion: UInt16
    /// Middleware version, 24 bits (the 3 bytes read big-endian).
    public let middlewareVersion: UInt32
    /// Supported FiRa profiles (config IDs) as a bitmask: bit n set = config ID n supported.
    public let supportedProfileIDs: UInt32
    /// The roles the accessory can take (at least one).
    public let supportedRoles: AndroidRangingRoles
    /// The accessory's UWB short MAC address as UCI numbers it: bytes 16-17 read
    /// little-endian (`12 34` → `0x3412`), so UCI writes them back as `12 34`.
    public let deviceAddress: UInt16
    /// Bytes after the 18, kept as received (empty from NXP's firmware).
    public let trailingBytes: [UInt8]

    /// Builds an Android device configuration.
    ///
    /// - Throws: ``NIProtocolError`` (`outOfRange`): `middlewareVersion` above `0xFFFFFF` (24
    ///   bits), `supportedRoles` empty or with bits other than 0 and 1.
    public init(
        specVersion: NIVersion = NIVersion(major: 0x0100, minor: 0),
        chipID: UInt16,
        chipFirmwareVersion: UInt16,
        middlewareVersion: UInt32,
        supportedProfileIDs: UInt32,
        supportedRoles: AndroidRangingRoles,
        deviceAddress: UInt16,
        trailingBytes: [UInt8] = []
    ) throws(NIProtocolError) {
        try Self.validate(middlewareVersion: middlewareVersion, supportedRoles: supportedRoles)
        self.trailingBytes = trailingBytes
        self.specVersion = specVersion
        self.chipID = chipID
        self.chipFirmwareVersion = chipFirmwareVersion
        self.middlewareVersion = middlewareVersion
        self.supportedProfileIDs = supportedProfileIDs
        self.supportedRoles = supportedRoles
        self.deviceAddress = deviceAddress
    }

    /// Parses 18 bytes (more are kept in ``trailingBytes``).
    ///
    /// - Throws: ``NIProtocolError``: `truncated` below 18 bytes, `outOfRange` for a role
    ///   bitmask other than 1, 2 or 3.
    public init(bytes: some Collection<UInt8>) throws(NIProtocolError) {
        let bytes = Array(bytes)
        if bytes.count < Self.byteCount {
            throw NIProtocolError(
                structure: Self.structureName, reason: .truncated(needed: Self.byteCount, got: bytes.count, isExact: true))
        }
        var reader = NIByteReader(bytes, structure: Self.structureName)
        let major = try reader.bigEndian(UInt16.self, "specVersionMajor")
        let minor = try reader.bigEndian(UInt16.self, "specVersionMinor")
        specVersion = NIVersion(major: major, minor: minor)
        chipID = try reader.bigEndian(UInt16.self, "chipID")
        chipFirmwareVersion = try reader.bigEndian(UInt16.self, "chipFirmwareVersion")
        middlewareVersion = try reader.bigEndian(byteCount: 3, "middlewareVersion")
        supportedProfileIDs = try reader.bigEndian(UInt32.self, "supportedProfileIDs")
        supportedRoles = AndroidRangingRoles(rawValue: try reader.uint8("rangingRoles"))
        deviceAddress = try reader.littleEndian(UInt16.self, "deviceAddress")
        trailingBytes = try reader.bytes(reader.remaining, "trailingBytes")
        try Self.validate(middlewareVersion: middlewareVersion, supportedRoles: supportedRoles)
    }

    private static func validate(middlewareVersion: UInt32, supportedRoles: AndroidRangingRoles) throws(NIProtocolError)
    {
        guard middlewareVersion <= 0xFF_FFFF else {
            throw NIProtocolError(
                structure: structureName, field: "middlewareVersion",
                reason: .outOfRange(value: Int(middlewareVersion), allowed: "0...16777215 (3 bytes)"))
        }
        guard (1...3).contains(supportedRoles.rawValue) else {
            throw NIProtocolError(
                structure: structureName, field: "rangingRoles",
                reason: .outOfRange(value: Int(supportedRoles.rawValue), allowed: allowedRolesText))
        }
    }

    /// `true` if bit `configID` of ``supportedProfileIDs`` is set (IDs 0-31; others `false`).
    public func supports(configID: Int) -> Bool {
        (0..<32).contains(configID) && supportedProfileIDs & (1 << UInt32(configID)) != 0
    }

    /// The encoded bytes (without the `0x01` message ID): 18, plus any trailing bytes.
    public func encoded() -> [UInt8] {
        var writer = NIByteWriter(capacity: Self.byteCount + trailingBytes.count)
        writer.bigEndian(specVersion.major)
        writer.bigEndian(specVersion.minor)
        writer.bigEndian(chipID)
        writer.bigEndian(chipFirmwareVersion)
        writer.bigEndian(middlewareVersion, byteCount: 3)
        writer.bigEndian(supportedProfileIDs)
        writer.uint8(supportedRoles.rawValue)
        writer.littleEndian(deviceAddress)
        writer.append(trailingBytes)
        return writer.bytes
    }
}
