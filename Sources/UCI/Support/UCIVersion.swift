/// A UCI, MAC, PHY or test specification version, as CORE_GET_DEVICE_INFO reports it.
///
/// On the wire a version is a little-endian `u16`: the low byte is the major version, the high
/// byte is `minor << 4 | maintenance`. UCI 1.1 is `0x1001` (bytes `01 10`), UCI 2.0 is `0x0002`.
///
/// The codec uses the version only where UCI 1.1 and 2.0 lay out the same message differently
/// and the bytes alone cannot tell (the multicast-list notification); see ``usesVersion2Layout``.
public struct UCIVersion: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The wire value.
    public var rawValue: UInt16

    /// Creates a version from its wire value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Creates a version from its parts. `minor` and `maintenance` are 4-bit values (0...15);
    /// higher bits are dropped.
    public init(major: UInt8, minor: UInt8, maintenance: UInt8 = 0) {
        rawValue = UInt16(major) | UInt16((minor & 0xF) << 4 | (maintenance & 0xF)) << 8
    }

    /// The major version (low byte).
    public var major: UInt8 { UInt8(truncatingIfNeeded: rawValue) }
    /// The minor version (high nibble of the high byte).
    public var minor: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 12) }
    /// The maintenance version (low nibble of the high byte).
    public var maintenance: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) & 0xF }

    /// The version a person names: `1.1` (or `1`) for UCI 1.1, `2.0` (or `2`) for UCI 2.0, the
    /// two versions the codec knows; `nil` for anything else.
    public init?(name: String) {
        switch name {
        case "1.1", "1": self = .v1_1
        case "2.0", "2": self = .v2_0
        default: return nil
        }
    }

    /// UCI 1.1 (Qorvo DWM3001CDK firmware, older NXP firmware).
    public static let v1_1 = UCIVersion(major: 1, minor: 1)
    /// UCI 2.0 (session handles, data packets, renumbered capabilities).
    public static let v2_0 = UCIVersion(major: 2, minor: 0)

    /// `true` for UCI 2.0 and later: session handles, 8-byte UWB_INITIATION_TIME, 2.0 multicast
    /// layouts.
    public var usesVersion2Layout: Bool { major >= 2 }

    /// Orders versions by major, minor, maintenance.
    public static func < (lhs: UCIVersion, rhs: UCIVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.maintenance) < (rhs.major, rhs.minor, rhs.maintenance)
    }

    /// `"1.1.0"`.
    public var description: String { "\(major).\(minor).\(maintenance)" }
}
