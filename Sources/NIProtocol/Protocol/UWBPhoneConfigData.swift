/// The Android variant's session parameters (NXP / Truesense `UwbPhoneConfigData`): the 14-byte
/// payload of message `0x0B` the phone sends after it chose the session. **Big-endian.**
///
/// | Offset | Size | Field |
/// |---|---|---|
/// | 0 | 2 | spec_ver_major |
/// | 2 | 2 | spec_ver_minor |
/// | 4 | 4 | session_id |
/// | 8 | 1 | preamble_id |
/// | 9 | 1 | channel_number |
/// | 10 | 1 | profile_id (FiRa config ID, 1 = unicast DS-TWR) |
/// | 11 | 1 | device_ranging_role: the role the **accessory** takes, one bit of ``AndroidRangingRoles`` |
/// | 12 | 2 | phone_mac_address, **in UCI byte order** (see ``phoneAddress``) |
///
/// NXP's accessory (`serializeUwbPhoneConfigData` in `UwbApi_Utility.c`,
/// `UwbApi_ConfigureData_Android`) copies the two MAC bytes unchanged into its UCI
/// DST_MAC_ADDRESS, and it accepts exactly 14 bytes (`SHAREABLE_DATA_HEADER_LENGTH_ANDROID`).
public struct UWBPhoneConfigData: Sendable, Hashable {
    static let structureName = "UwbPhoneConfigData"
    /// Encoded length: 14 bytes.
    public static let byteCount = 14
    /// Preamble code indices androidx accepts: BPRF 9-12 and HPRF 25-32.
    public static let allowedPreambleCodeIndices: [ClosedRange<UInt8>] = [9...12, 25...32]

    /// Spec version fields as sent (Android stacks send major `0x0100`, minor `0x0000`).
    public let specVersion: NIVersion
    /// FiRa session ID.
    public let sessionID: UInt32
    /// Preamble code index: 9-12 or 25-32.
    public let preambleCodeIndex: UInt8
    /// UWB channel: 5 or 9.
    public let channel: UInt8
    /// FiRa config ID (profile) the phone chose, 1-31 (a bit of the accessory's supported set).
    public let profileID: UInt8
    /// The role the accessory must take: exactly `.controller` or `.controlee`.
    public let accessoryRole: AndroidRangingRoles
    /// The phone's UWB short MAC address as UCI numbers it: bytes 12-13 are its
    /// little-endian encoding (`0x3412` → `12 34`), what UCI's DEVICE_MAC_ADDRESS carries.
    public let phoneAddress: UInt16

    /// Builds Android phone configuration data.
    ///
    /// - Throws: ``NIProtocolError`` (`outOfRange`): preamble code index outside 9-12 and 25-32,
    ///   channel other than 5 or 9, profile ID outside 1-31, a role that is not exactly one of
    ///   controller and controlee.
    public init(
        specVersion: NIVersion = NIVersion(major: 0x0100, minor: 0),
        sessionID: UInt32,
        preambleCodeIndex: UInt8,
        channel: UInt8,
        profileID: UInt8,
        accessoryRole: AndroidRangingRoles,
        phoneAddress: UInt16
    ) throws(NIProtocolError) {
        try Self.validate(
            preambleCodeIndex: preambleCodeIndex, channel: channel, profileID: profileID, role: accessoryRole)
        self.specVersion = specVersion
        self.sessionID = sessionID
        self.preambleCodeIndex = preambleCodeIndex
        self.channel = channel
        self.profileID = profileID
        self.accessoryRole = accessoryRole
        self.phoneAddress = phoneAddress
    }

    /// Parses exactly 14 bytes.
    ///
    /// - Throws: ``NIProtocolError``: `truncated` / `trailingBytes` for any other length,
    ///   `outOfRange` as for the builder.
    public init(bytes: some Collection<UInt8>) throws(NIProtocolError) {
        let bytes = Array(bytes)
        try Self.checkLength(bytes.count)
        var reader = NIByteReader(bytes, structure: Self.structureName)
        let major = try reader.bigEndian(UInt16.self, "specVersionMajor")
        let minor = try reader.bigEndian(UInt16.self, "specVersionMinor")
        specVersion = NIVersion(major: major, minor: minor)
        sessionID = try reader.bigEndian(UInt32.self, "sessionID")
        preambleCodeIndex = try reader.uint8("preambleCodeIndex")
        channel = try reader.uint8("channel")
        profileID = try reader.uint8("profileID")
        accessoryRole = AndroidRangingRoles(rawValue: try reader.uint8("deviceRangingRole"))
        phoneAddress = try reader.littleEndian(UInt16.self, "phoneAddress")
        try Self.validate(
            preambleCodeIndex: preambleCodeIndex, channel: channel, profileID: profileID, role: accessoryRole)
    }

    static func checkLength(_ count: Int) throws(NIProtocolError) {
        if count < byteCount {
            throw NIProtocolError(
                structure: structureName, reason: .truncated(needed: byteCount, got: count, isExact: true))
        }
        if count > byteCount {
            throw NIProtocolError(structure: structureName, reason: .trailingBytes(expected: byteCount, got: count))
        }
    }

    private static func validate(
        preambleCodeIndex: UInt8, channel: UInt8, profileID: UInt8, role: AndroidRangingRoles
    ) throws(NIProtocolError) {
        func outOfRange(_ field: String, _ value: UInt8, _ allowed: String) -> NIProtocolError {
            NIProtocolError(
                structure: structureName, field: field, reason: .outOfRange(value: Int(value), allowed: allowed))
        }
        guard allowedPreambleCodeIndices.contains(where: { $0.contains(preambleCodeIndex) }) else {
            throw outOfRange("preambleCodeIndex", preambleCodeIndex, "9...12 or 25...32")
        }
        guard ShareableConfigurationData.allowedChannels.contains(channel) else {
            throw outOfRange("channel", channel, "5 or 9")
        }
        guard (1...31).contains(profileID) else {
            throw outOfRange("profileID", profileID, "1...31 (a FiRa config ID)")
        }
        guard role == .controller || role == .controlee else {
            throw outOfRange("deviceRangingRole", role.rawValue, "1 (controller) or 2 (controlee)")
        }
    }

    /// The 14 encoded bytes (without the `0x0B` message ID).
    public func encoded() -> [UInt8] {
        var writer = NIByteWriter(capacity: Self.byteCount)
        writer.bigEndian(specVersion.major)
        writer.bigEndian(specVersion.minor)
        writer.bigEndian(sessionID)
        writer.uint8(preambleCodeIndex)
        writer.uint8(channel)
        writer.uint8(profileID)
        writer.uint8(accessoryRole.rawValue)
        writer.littleEndian(phoneAddress)
        return writer.bytes
    }
}
