/// The layout of a versioned NI structure (UWB config data and shareable configuration data),
/// chosen by the structure's length byte.
public enum ConfigurationDataVersion: Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Layout 1.0.
    case v1_0
    /// Layout 1.1: adds the clock-drift field.
    case v1_1
    /// Layout 2.0: adds reserved bytes and hopping (and, in UWB config data, requested timing).
    case v2_0

    /// The version number this layout was introduced with (`1.0`, `1.1`, `2.0`); builders use it
    /// as the default spec version field.
    public var specVersion: NIVersion {
        switch self {
        case .v1_0: .v1_0
        case .v1_1: .v1_1
        case .v2_0: .v2_0
        }
    }

    /// `1.0`, `1.1` or `2.0`.
    public var description: String { specVersion.description }
}
