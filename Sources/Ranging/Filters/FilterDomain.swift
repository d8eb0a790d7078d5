/// What a filter smooths, which fixes the unit of its parameters.
public enum FilterDomain: Sendable, Hashable {
    /// Distances in metres.
    case distance
    /// Angles in degrees (wrapped at ±180° by ``CircularFilter``).
    case angle
}
