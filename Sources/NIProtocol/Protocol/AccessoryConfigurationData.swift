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
/// | 15 | 1 | uwbConfigDataLength n: 19, 21 or 32 |
/// | 16 | n | ``UWBConfigurationData`` |
///
/// The whole structure is 35, 37 or 48 bytes (36, 38 or 49 with the message ID). The reserved
/// bytes are kept as received, so parsing and encoding are byte-exact for every accepted input.
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

    /// Builds ACD.
    ///
    /// - Throws: ``NIProtocolError`` (`invalidLength`, field `reserved`) when `reserved` is not
    ///   exactly 10 bytes.
    public init(
        protocolVersion: NIVersion = .v1_0,
        preferredUpdateRate: PreferredUpdateRate = .automatic,
        uwbConfiguration: UWBConfigurationData,
        reserved: [UInt8] = Array(repeating: 0, count: 10)
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
    }

    /// Parses exactly one ACD (the payload of message `0x01`, without the ID byte).
    ///
    /// - Throws: ``NIProtocolError``: `truncated` when the bytes end before the header or before
    ///   the announced UWB config data; `invalidLength` when uwbConfigDataLength is not 19, 21 or
    ///   32; `trailingBytes` when bytes follow the UWB config data; errors of
    ///   ``UWBConfigurationData/init(bytes:)``.
    public init(bytes: some Collection<UInt8>) throws(NIProtocolError) {
        let bytes = Array(bytes)
        let header = Self.headerByteCount
        guard bytes.count >= header else {
            throw NIProtocolError(
                structure: Self.structureName,
                reason: .truncated(needed: header, got: bytes.count, isExact: false))
        }
        let uwbLength = Int(bytes[header - 1])
        guard UWBConfigurationData.version(forByteCount: uwbLength) != nil else {
            throw NIProtocolError(
                structure: Self.structureName, field: "uwbConfigDataLength",
                reason: .invalidLength(value: uwbLength, allowed: UWBConfigurationData.allowedLengthsText))
        }
        guard bytes.count >= header + uwbLength else {
            throw NIProtocolError(
                structure: Self.structureName,
                reason: .truncated(needed: header + uwbLength, got: bytes.count, isExact: true))
        }
        guard bytes.count == header + uwbLength else {
            throw NIProtocolError(
                structure: Self.structureName,
                reason: .trailingBytes(expected: header + uwbLength, got: bytes.count))
        }
        var reader = NIByteReader(bytes, structure: Self.structureName)
        let major = try reader.littleEndian(UInt16.self, "majorVersion")
        let minor = try reader.littleEndian(UInt16.self, "minorVersion")
        protocolVersion = NIVersion(major: major, minor: minor)
        preferredUpdateRate = PreferredUpdateRate(rawValue: try reader.uint8("preferredUpdateRate"))
        reserved = try reader.bytes(Self.reservedByteCount, "reserved")
        _ = try reader.uint8("uwbConfigDataLength")
        uwbConfiguration = try UWBConfigurationData(bytes: bytes[header...])
    }

    /// Encoded length in bytes: 35, 37 or 48.
    public var byteCount: Int { Self.headerByteCount + uwbConfiguration.byteCount }

    /// The encoded bytes (without the `0x01` message ID).
    public func encoded() -> [UInt8] {
        var writer = NIByteWriter(capacity: byteCount)
        writer.littleEndian(protocolVersion.major)
        writer.littleEndian(protocolVersion.minor)
        writer.uint8(preferredUpdateRate.rawValue)
        writer.append(reserved)
        writer.uint8(UInt8(uwbConfiguration.byteCount))
        uwbConfiguration.encode(into: &writer)
        return writer.bytes
    }

    /// The possible encoded lengths (35, 37, 48), for dialect detection.
    static let possibleByteCounts = ConfigurationDataVersion.allCases.map {
        headerByteCount + UWBConfigurationData.byteCount(of: $0)
    }
}
