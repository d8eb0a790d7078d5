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

    /// The allowed lengths, for error messages: `19 (v1.0), 21 (v1.1), 32 (v2.0)`.
    static let allowedLengthsText = ConfigurationDataVersion.allCases
        .map { "\(byteCount(of: $0)) (v\($0))" }.joined(separator: ", ")

    /// The layout with this length, `nil` if none has it.
    public static func version(forByteCount count: Int) -> ConfigurationDataVersion? {
        ConfigurationDataVersion.allCases.first { byteCount(of: $0) == count }
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
    /// The role the accessory takes.
    public let rangingRole: NIRangingRole
    /// The accessory's UWB short MAC address (the session's destination address on the app side).
    public let deviceAddress: UInt16
    /// Maximum clock drift of the accessory in ppm (layout 1.1 and later; Qorvo sends 25).
    public let maxClockDriftPPM: UInt16?
    /// The accessory's requested timing (layout 2.0 only).
    public let requestedParameters: RequestedRangingParameters?

    /// Builds UWB config data.
    ///
    /// - Parameters:
    ///   - specVersion: the UWB spec version field; `nil` writes the layout's own version
    ///     (1.0, 1.1 or 2.0).
    ///   - maxClockDriftPPM: present → layout 1.1 or 2.0.
    ///   - requestedParameters: present → layout 2.0 (then `maxClockDriftPPM` is required).
    /// - Throws: ``NIProtocolError`` (`missingField`) when `requestedParameters` is given
    ///   without `maxClockDriftPPM`.
    public init(
        specVersion: NIVersion? = nil,
        manufacturerID: UInt32,
        modelID: UInt32,
        middlewareVersion: UInt32,
        rangingRole: NIRangingRole,
        deviceAddress: UInt16,
        maxClockDriftPPM: UInt16? = nil,
        requestedParameters: RequestedRangingParameters? = nil
    ) throws(NIProtocolError) {
        if requestedParameters != nil && maxClockDriftPPM == nil {
            throw NIProtocolError(
                structure: Self.structureName, field: "maxClockDriftPPM",
                reason: .missingField(requiredBy: "requestedParameters (layout 2.0 carries both)"))
        }
        let version: ConfigurationDataVersion =
            requestedParameters != nil ? .v2_0 : (maxClockDriftPPM != nil ? .v1_1 : .v1_0)
        self.specVersion = specVersion ?? version.specVersion
        self.manufacturerID = manufacturerID
        self.modelID = modelID
        self.middlewareVersion = middlewareVersion
        self.rangingRole = rangingRole
        self.deviceAddress = deviceAddress
        self.maxClockDriftPPM = maxClockDriftPPM
        self.requestedParameters = requestedParameters
    }

    /// Parses exactly one UWB config data structure (19, 21 or 32 bytes; the length picks the
    /// layout).
    ///
    /// - Throws: ``NIProtocolError``: `invalidLength` when the byte count is not 19, 21 or 32;
    ///   `outOfRange` when the ranging role is not 0 or 1.
    public init(bytes: some Collection<UInt8>) throws(NIProtocolError) {
        let bytes = Array(bytes)
        guard let version = Self.version(forByteCount: bytes.count) else {
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
        let role = try reader.uint8("rangingRole")
        guard let rangingRole = NIRangingRole(rawValue: role) else {
            throw NIProtocolError(
                structure: Self.structureName, field: "rangingRole",
                reason: .outOfRange(value: Int(role), allowed: NIRangingRole.allowedText))
        }
        self.rangingRole = rangingRole
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
    }

    /// The layout: 2.0 with requested parameters, 1.1 with a clock drift, else 1.0.
    public var version: ConfigurationDataVersion {
        requestedParameters != nil ? .v2_0 : (maxClockDriftPPM != nil ? .v1_1 : .v1_0)
    }

    /// Encoded length in bytes: 19, 21 or 32.
    public var byteCount: Int { Self.byteCount(of: version) }

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
    }
}
