/// The accessory's UWB parameters, carried inside ``AccessoryConfigurationData`` (the
/// reference's §3.2). Little-endian.
///
/// | Offset | Size | Field | Layout |
/// |---|---|---|---|
/// | 0 | 2 + 2 | UWB spec major, minor | 1.0 |
/// | 4 | 4 | manufacturer ID | 1.0 |
/// | 8 | 4 | model ID | 1.0 |
/// | 12 | 4 | middleware version | 1.0 |
/// | 16 | 1 | ranging role | 1.0 |
/// | 17 | 2 | device short MAC address | 1.0 |
/// | 19 | 2 | max clock drift, ppm | 1.1 |
/// | 21 | 4 | reserved | 2.0 |
/// | 25 | 1 | requested hopping mode | 2.0 |
/// | 26 | 2 | requested slots per round | 2.0 |
/// | 28 | 2 | requested slot duration, RSTU | 2.0 |
/// | 30 | 2 | requested ranging interval, ms | 2.0 |
///
/// The layout (``version``) follows from which optional fields are present: none → 1.0 (19
/// bytes), ``maxClockDriftPPM`` → 1.1 (21 bytes), both it and ``requestedParameters`` → 2.0 (32
/// bytes). The spec version field is kept as sent: a parser does not require it to match the
/// layout.
///
/// Lenient like the accessories' own buffers: Qorvo's `niq.h` reserves `MAX_UWB_CONFIG_SIZE`
/// (64) bytes for this structure, so any length from 19 to 64 parses. A length between the
/// layouts' is read in the layout its spec version field names when that fits (Qorvo's v1.1
/// data in its whole 64-byte buffer stays v1.1, so the answer is the 30-byte shareable data
/// Qorvo accepts), else in the longest layout that fits; the bytes after it are kept in
/// ``extraBytes`` (the session logs them), so a newer accessory's additions never stop ranging.
/// Shorter than 19 bytes (no MAC address) or longer than 64 is refused.
public struct UWBConfigurationData: Sendable, Hashable {
    /// The fields that layout 2.0 adds: the accessory's wishes for the session timing.
    public struct RequestedRangingParameters: Sendable, Hashable {
        /// Reserved bytes 21-24 as a little-endian integer (kept, so nothing is lost).
        public var reserved: UInt32
        /// Requested hopping mode (0 = off; the AOSP test app sends hopping on).
        public var hoppingMode: UInt8
        /// Requested slots per ranging round.
        public var slotsPerRound: UInt16
        /// Requested slot duration in RSTU (1 ms = 1200 RSTU).
        public var slotDurationRSTU: UInt16
        /// Requested ranging interval in milliseconds.
        public var rangingIntervalMS: UInt16

        /// Creates the 2.0 fields. Every value of every field is accepted.
        public init(
            hoppingMode: UInt8, slotsPerRound: UInt16, slotDurationRSTU: UInt16, rangingIntervalMS: UInt16,
            reserved: UInt32 = 0
        ) {
            self.reserved = reserved
            self.hoppingMode = hoppingMode
            self.slotsPerRound = slotsPerRound
            self.slotDurationRSTU = slotDurationRSTU
            self.rangingIntervalMS = rangingIntervalMS
        }
    }

    static let structureName = "uwbConfigData"

    /// Length in bytes of each layout: 19 (1.0), 21 (1.1), 32 (2.0).
    public static func byteCount(of version: ConfigurationDataVersion) -> Int {
        switch version {
        case .v1_0: 19
        case .v1_1: 21
        case .v2_0: 32
        }
    }

    /// The longest structure accepted: 64 bytes, Qorvo's `MAX_UWB_CONFIG_SIZE`.
    public static let maximumByteCount = 64
    /// The lengths accepted: 19 (the 1.0 layout, up to the MAC address) to 64.
    public static let allowedByteCounts = byteCount(of: .v1_0)...maximumByteCount

    /// The allowed lengths, for error messages.
    static let allowedLengthsText =
        "19...64 (19 v1.0, 21 v1.1, 32 v2.0; bytes past the layout are kept as extra bytes)"

    /// The layout with exactly this length, `nil` if none has it.
    public static func version(forByteCount count: Int) -> ConfigurationDataVersion? {
        ConfigurationDataVersion.allCases.first { byteCount(of: $0) == count }
    }

    /// The longest layout a structure of `count` bytes holds (19-20 → 1.0, 21-31 → 1.1, 32-64 →
    /// 2.0), `nil` outside ``allowedByteCounts``.
    public static func layout(forByteCount count: Int) -> ConfigurationDataVersion? {
        guard allowedByteCounts.contains(count) else { return nil }
        return ConfigurationDataVersion.allCases.last { byteCount(of: $0) <= count }
    }

    /// The layout a structure of `count` bytes with spec version `specVersion` is read in: the
    /// layout of exactly that length (19, 21, 32); else the layout the spec version names if it
    /// fits; else the longest that fits. `nil` outside ``allowedByteCounts``.
    public static func layout(forByteCount count: Int, specVersion: NIVersion) -> ConfigurationDataVersion? {
        guard let longest = layout(forByteCount: count) else { return nil }
        if let exact = version(forByteCount: count) { return exact }
        if let named = ConfigurationDataVersion.allCases.first(where: { $0.specVersion == specVersion }), named <= longest {
            return named
        }
        return longest
    }

    /// The UWB specification version the accessory implements (TV-1: 1.1).
    public let specVersion: NIVersion
    /// Manufacturer ID, the 4 bytes read little-endian (Qorvo `3F F5 03 00` = `0x0003F53F`;
    /// meaning uncertain).
    public let manufacturerID: UInt32
    /// Model ID, the 4 bytes read little-endian (Qorvo `B8 0B 00 00` = `0x00000BB8`).
    public let modelID: UInt32
    /// Middleware version, the 4 bytes read little-endian (Qorvo `00 00 01 01` = `0x01010000`).
    public let middlewareVersion: UInt32
    /// The role the accessory takes (any byte is kept; NI sessions use 0 and 1).
    public let rangingRole: NIRangingRole
    /// The accessory's UWB short MAC address (the session's destination address on the app side).
    public let deviceAddress: UInt16
    /// Maximum clock drift of the accessory in ppm (layout 1.1 and later; Qorvo sends 25).
    public let maxClockDriftPPM: UInt16?
    /// The accessory's requested timing (layout 2.0 only).
    public let requestedParameters: RequestedRangingParameters?
    /// Bytes after the layout's last field, kept as received (a longer structure from a newer
    /// or a Qorvo-style accessory); empty for the standard lengths.
    public let extraBytes: [UInt8]

    /// Builds UWB config data.
    ///
    /// - Parameters:
    ///   - specVersion: the UWB spec version field; `nil` writes the layout's own version
    ///     (1.0, 1.1 or 2.0).
    ///   - manufacturerID: the manufacturer ID (its 4 bytes little-endian).
    ///   - modelID: the model ID (its 4 bytes little-endian).
    ///   - middlewareVersion: the middleware version (its 4 bytes little-endian).
    ///   - rangingRole: the role the accessory takes (NI sessions use responder or initiator).
    ///   - deviceAddress: the accessory's UWB short MAC address.
    ///   - maxClockDriftPPM: present → layout 1.1 or 2.0.
    ///   - requestedParameters: present → layout 2.0 (then `maxClockDriftPPM` is required).
    ///   - extraBytes: bytes written after the layout (tests of lenient peers); default none.
    /// - Throws: ``NIProtocolError``: `missingField` when `requestedParameters` is given
    ///   without `maxClockDriftPPM`; `invalidLength` (field `extraBytes`) when the structure
    ///   would be longer than 64 bytes.
    public init(
        specVersion: NIVersion? = nil,
        manufacturerID: UInt32,
        modelID: UInt32,
        middlewareVersion: UInt32,
        rangingRole: NIRangingRole,
        deviceAddress: UInt16,
        maxClockDriftPPM: UInt16? = nil,
        requestedParameters: RequestedRangingParameters? = nil,
        extraBytes: [UInt8] = []
    ) throws(NIProtocolError) {
        if requestedParameters != nil && maxClockDriftPPM == nil {
            throw NIProtocolError(
                structure: Self.structureName, field: "maxClockDriftPPM",
                reason: .missingField(requiredBy: "requestedParameters (layout 2.0 carries both)"))
        }
        let version: ConfigurationDataVersion =
            requestedParameters != nil ? .v2_0 : (maxClockDriftPPM != nil ? .v1_1 : .v1_0)
        guard Self.byteCount(of: version) + extraBytes.count <= Self.maximumByteCount else {
            throw NIProtocolError(
                structure: Self.structureName, field: "extraBytes",
                reason: .invalidLength(
                    value: extraBytes.count,
                    allowed: "at most \(Self.maximumByteCount - Self.byteCount(of: version)) (bytes) after a v\(version) layout"))
        }
        self.extraBytes = extraBytes
        self.specVersion = specVersion ?? version.specVersion
        self.manufacturerID = manufacturerID
        self.modelID = modelID
        self.middlewareVersion = middlewareVersion
        self.rangingRole = rangingRole
        self.deviceAddress = deviceAddress
        self.maxClockDriftPPM = maxClockDriftPPM
        self.requestedParameters = requestedParameters
    }

    /// Parses exactly one UWB config data structure of 19 to 64 bytes in the layout
    /// ``layout(forByteCount:specVersion:)`` picks (19 → 1.0, 21 → 1.1, 32 → 2.0; other lengths
    /// by the spec version field), the rest kept in ``extraBytes``. Every role byte is accepted
    /// (``NIRangingRole``).
    ///
    /// - Throws: ``NIProtocolError`` (`invalidLength`, field `length`) when the byte count is
    ///   below 19 (the MAC address is missing) or above 64.
    public init(bytes: some Collection<UInt8>) throws(NIProtocolError) {
        let bytes = Array(bytes)
        let declared = bytes.count >= 4
            ? NIVersion(major: UInt16(bytes[0]) | UInt16(bytes[1]) << 8, minor: UInt16(bytes[2]) | UInt16(bytes[3]) << 8)
            : NIVersion.v1_0
        guard let version = Self.layout(forByteCount: bytes.count, specVersion: declared) else {
            throw NIProtocolError(
                structure: Self.structureName, field: "length",
                reason: .invalidLength(value: bytes.count, allowed: Self.allowedLengthsText))
        }
        var reader = NIByteReader(bytes, structure: Self.structureName)
        let major = try reader.littleEndian(UInt16.self, "specVersionMajor")
        let minor = try reader.littleEndian(UInt16.self, "specVersionMinor")
        specVersion = NIVersion(major: major, minor: minor)
        manufacturerID = try reader.littleEndian(UInt32.self, "manufacturerID")
        modelID = try reader.littleEndian(UInt32.self, "modelID")
        middlewareVersion = try reader.littleEndian(UInt32.self, "middlewareVersion")
        rangingRole = NIRangingRole(rawValue: try reader.uint8("rangingRole"))
        deviceAddress = try reader.littleEndian(UInt16.self, "deviceAddress")
        maxClockDriftPPM = version >= .v1_1 ? try reader.littleEndian(UInt16.self, "maxClockDriftPPM") : nil
        if version >= .v2_0 {
            let reserved = try reader.littleEndian(UInt32.self, "reserved")
            let hopping = try reader.uint8("hoppingMode")
            let slots = try reader.littleEndian(UInt16.self, "slotsPerRound")
            let slotDuration = try reader.littleEndian(UInt16.self, "slotDurationRSTU")
            let interval = try reader.littleEndian(UInt16.self, "rangingIntervalMS")
            requestedParameters = RequestedRangingParameters(
                hoppingMode: hopping, slotsPerRound: slots, slotDurationRSTU: slotDuration,
                rangingIntervalMS: interval, reserved: reserved)
        } else {
            requestedParameters = nil
        }
        extraBytes = try reader.bytes(reader.remaining, "extraBytes")
    }

    /// The layout: 2.0 with requested parameters, 1.1 with a clock drift, else 1.0.
    public var version: ConfigurationDataVersion {
        requestedParameters != nil ? .v2_0 : (maxClockDriftPPM != nil ? .v1_1 : .v1_0)
    }

    /// Encoded length in bytes: 19, 21 or 32, plus the extra bytes.
    public var byteCount: Int { Self.byteCount(of: version) + extraBytes.count }

    /// The encoded bytes (little-endian), byte-exact with what ``init(bytes:)`` parses.
    public func encoded() -> [UInt8] {
        var writer = NIByteWriter(capacity: byteCount)
        encode(into: &writer)
        return writer.bytes
    }

    func encode(into writer: inout NIByteWriter) {
        writer.littleEndian(specVersion.major)
        writer.littleEndian(specVersion.minor)
        writer.littleEndian(manufacturerID)
        writer.littleEndian(modelID)
        writer.littleEndian(middlewareVersion)
        writer.uint8(rangingRole.rawValue)
        writer.littleEndian(deviceAddress)
        if let maxClockDriftPPM {
            writer.littleEndian(maxClockDriftPPM)
        }
        if let requested = requestedParameters {
            writer.littleEndian(requested.reserved)
            writer.uint8(requested.hoppingMode)
            writer.littleEndian(requested.slotsPerRound)
            writer.littleEndian(requested.slotDurationRSTU)
            writer.littleEndian(requested.rangingIntervalMS)
        }
        writer.append(extraBytes)
    }
}
