/// Accessory configuration data (ACD): what an accessory sends in message `0x01` (Apple
/// dialect) and what iOS turns into an `NINearbyAccessoryConfiguration` (specs/reference/ni-accessory-protocol.md §3.1).
/// Little-endian.
///
/// | Offset | Size | Field |
/// |---|---|---|
/// | 0 | 2 | NI protocol major version (1) |
/// | 2 | 2 | NI protocol minor version (0) |
/// | 4 | 1 | preferred update rate |
/// | 5 | 10 | reserved (zero) |
/// | 15 | 1 | uwbConfigDataLength n: 19, 21 or 32 (any of 19-64 is accepted) |
/// | 16 | n | ``UWBConfigurationData`` |
///
/// The whole structure is 35, 37 or 48 bytes (36, 38 or 49 with the message ID). The reserved
/// bytes are kept as received, so parsing and encoding are byte-exact for every accepted input.
///
/// Parsing is lenient where a real accessory may differ without harm: UWB config data of 19 to
/// 64 bytes (Qorvo's `MAX_UWB_CONFIG_SIZE`; ``UWBConfigurationData/extraBytes``) and bytes after
/// it (``trailingBytes``) are accepted and kept; the session logs them.
public struct AccessoryConfigurationData: Sendable, Hashable {
    /// The accessory's preferred ranging update rate (one byte; unknown values are kept).
    public struct PreferredUpdateRate: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The byte on the wire.
        public var rawValue: UInt8
        /// Wraps a byte.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `0`: let iOS choose.
        public static let automatic = PreferredUpdateRate(rawValue: 0)
        /// `10`: about 1.3 Hz.
        public static let infrequent = PreferredUpdateRate(rawValue: 10)
        /// `20`: about 5.5 Hz.
        public static let userInteractive = PreferredUpdateRate(rawValue: 20)

        /// `automatic`, `infrequent`, `userInteractive` or `unknown (n)`.
        public var description: String {
            switch rawValue {
            case 0: "automatic"
            case 10: "infrequent"
            case 20: "userInteractive"
            default: "unknown (\(rawValue))"
            }
        }
    }

    static let structureName = "accessoryConfigurationData"
    /// Bytes before the UWB config data (up to and including uwbConfigDataLength).
    public static let headerByteCount = 16
    /// Number of reserved bytes (offsets 5-14).
    public static let reservedByteCount = 10

    /// NI protocol version (the reference's accessories send 1.0).
    public let protocolVersion: NIVersion
    /// Preferred update rate.
    public let preferredUpdateRate: PreferredUpdateRate
    /// Reserved bytes 5-14 as received (zero when built).
    public let reserved: [UInt8]
    /// The accessory's UWB parameters.
    public let uwbConfiguration: UWBConfigurationData
    /// Bytes after the UWB config data, kept as received; empty for a standard ACD.
    public let trailingBytes: [UInt8]

    /// Builds ACD.
    ///
    /// - Parameters:
    ///   - protocolVersion: the NI protocol version (the reference's accessories send 1.0).
    ///   - preferredUpdateRate: the update rate the accessory asks for.
    ///   - uwbConfiguration: the accessory's UWB config data.
    ///   - reserved: bytes 5-14, exactly 10 (zero by default).
    ///   - trailingBytes: bytes written after the UWB config data (tests of lenient peers);
    ///     default none.
    /// - Throws: ``NIProtocolError`` (`invalidLength`, field `reserved`) when `reserved` is not
    ///   exactly 10 bytes.
    public init(
        protocolVersion: NIVersion = .v1_0,
        preferredUpdateRate: PreferredUpdateRate = .automatic,
        uwbConfiguration: UWBConfigurationData,
        reserved: [UInt8] = Array(repeating: 0, count: 10),
        trailingBytes: [UInt8] = []
    ) throws(NIProtocolError) {
        guard reserved.count == Self.reservedByteCount else {
            throw NIProtocolError(
                structure: Self.structureName, field: "reserved",
                reason: .invalidLength(value: reserved.count, allowed: "\(Self.reservedByteCount) (bytes)"))
        }
        self.protocolVersion = protocolVersion
        self.preferredUpdateRate = preferredUpdateRate
        self.reserved = reserved
        self.uwbConfiguration = uwbConfiguration
        self.trailingBytes = trailingBytes
    }

    /// Parses exactly one ACD (the payload of message `0x01`, without the ID byte).
    ///
    /// - Throws: ``NIProtocolError``: `truncated` when the bytes end before the header or before
    ///   the announced UWB config data; `invalidLength` when uwbConfigDataLength is below 19 (no
    ///   room for the accessory's MAC address) or above 64. Bytes after the UWB config data are
    ///   kept in ``trailingBytes``, not refused.
    public init(bytes: some Collection<UInt8>) throws(NIProtocolError) {
        let bytes = Array(bytes)
        let header = Self.headerByteCount
        guard bytes.count >= header else {
            throw NIProtocolError(
                structure: Self.structureName,
                reason: .truncated(needed: header, got: bytes.count, isExact: false))
        }
        let uwbLength = Int(bytes[header - 1])
        guard UWBConfigurationData.layout(forByteCount: uwbLength) != nil else {
            throw NIProtocolError(
                structure: Self.structureName, field: "uwbConfigDataLength",
                reason: .invalidLength(value: uwbLength, allowed: UWBConfigurationData.allowedLengthsText))
        }
        guard bytes.count >= header + uwbLength else {
            throw NIProtocolError(
                structure: Self.structureName,
                reason: .truncated(needed: header + uwbLength, got: bytes.count, isExact: true))
        }
        var reader = NIByteReader(bytes, structure: Self.structureName)
        let major = try reader.littleEndian(UInt16.self, "majorVersion")
        let minor = try reader.littleEndian(UInt16.self, "minorVersion")
        protocolVersion = NIVersion(major: major, minor: minor)
        preferredUpdateRate = PreferredUpdateRate(rawValue: try reader.uint8("preferredUpdateRate"))
        reserved = try reader.bytes(Self.reservedByteCount, "reserved")
        _ = try reader.uint8("uwbConfigDataLength")
        uwbConfiguration = try UWBConfigurationData(bytes: bytes[header..<(header + uwbLength)])
        trailingBytes = Array(bytes[(header + uwbLength)...])
    }

    /// Encoded length in bytes: 35, 37 or 48 for the standard layouts.
    public var byteCount: Int { Self.headerByteCount + uwbConfiguration.byteCount + trailingBytes.count }

    /// `true` if the accessory sent more than the standard layout holds (extra UWB config bytes
    /// or trailing bytes): worth a log line, never a refusal.
    public var hasUnknownBytes: Bool { !trailingBytes.isEmpty || !uwbConfiguration.extraBytes.isEmpty }

    /// The encoded bytes (without the `0x01` message ID).
    public func encoded() -> [UInt8] {
        var writer = NIByteWriter(capacity: byteCount)
        writer.littleEndian(protocolVersion.major)
        writer.littleEndian(protocolVersion.minor)
        writer.uint8(preferredUpdateRate.rawValue)
        writer.append(reserved)
        writer.uint8(UInt8(uwbConfiguration.byteCount))
        uwbConfiguration.encode(into: &writer)
        writer.append(trailingBytes)
        return writer.bytes
    }

    /// The possible encoded lengths (35, 37, 48), for dialect detection.
    static let possibleByteCounts = ConfigurationDataVersion.allCases.map {
        headerByteCount + UWBConfigurationData.byteCount(of: $0)
    }
}
