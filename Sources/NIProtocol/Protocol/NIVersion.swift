/// A `major.minor` version pair as the NI accessory protocol carries it: two 16-bit integers
/// (little-endian in the Apple dialect, big-endian in the Android one).
public struct NIVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Major version.
    public var major: UInt16
    /// Minor version.
    public var minor: UInt16

    /// Creates a version.
    public init(major: UInt16, minor: UInt16) {
        self.major = major
        self.minor = minor
    }

    /// `1.0`.
    public static let v1_0 = NIVersion(major: 1, minor: 0)
    /// `1.1`.
    public static let v1_1 = NIVersion(major: 1, minor: 1)
    /// `2.0`.
    public static let v2_0 = NIVersion(major: 2, minor: 0)

    /// Orders by major, then minor.
    public static func < (lhs: NIVersion, rhs: NIVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }

    /// `major.minor`, for example `1.1`.
    public var description: String { "\(major).\(minor)" }
}
