/// One distance zone of a ``ZoneMap``: a name, the distance range it covers and the hysteresis
/// and dwell that govern entering and leaving it.
///
/// Zone `i` covers `[upperBound(i−1), upperBound(i))`; the outermost zone's upper bound is
/// infinite. Its own boundary (`upperBound`) is crossed with hysteresis: the tracked distance
/// must fall below ``enterThreshold`` to move into this zone (or an inner one) from outside, and
/// rise to ``exitThreshold`` or above to move out of it. A transition into a zone also needs the
/// new zone to be indicated for ``minimumDwell`` seconds without interruption.
public struct Zone: Sendable, Hashable {
    /// Name used in events and output (`near`, `mid`, `far`).
    public var name: String
    /// Upper distance bound in metres (exclusive); `.infinity` for the outermost zone.
    public var upperBound: Double
    /// Distance (m) below which a target outside this zone moves in. ≤ ``upperBound``.
    public var enterThreshold: Double
    /// Distance (m) at or above which a target inside this zone moves out. ≥ ``upperBound``.
    public var exitThreshold: Double
    /// Time (s) a transition into this zone must be indicated before it is reported.
    public var minimumDwell: Double

    /// A zone with hysteresis centred on its boundary: enter below `upperBound − hysteresis / 2`,
    /// exit at `upperBound + hysteresis / 2`.
    /// - Parameters:
    ///   - name: the zone's name.
    ///   - upperBound: metres; `.infinity` for the outermost zone.
    ///   - hysteresis: width of the band around the boundary, metres (default 0.2 m).
    ///   - minimumDwell: seconds (default 0.3 s).
    public init(name: String, upperBound: Double, hysteresis: Double = 0.2, minimumDwell: Double = 0.3) {
        self.name = name
        self.upperBound = upperBound
        self.enterThreshold = upperBound.isFinite ? upperBound - hysteresis / 2 : upperBound
        self.exitThreshold = upperBound.isFinite ? upperBound + hysteresis / 2 : upperBound
        self.minimumDwell = minimumDwell
    }

    /// A zone with explicit thresholds (for asymmetric hysteresis).
    /// - Parameters:
    ///   - name: the zone's name (`near`, `mid`, `far`, ...).
    ///   - upperBound: metres; the zone is below it (the last zone's is infinity).
    ///   - enterBelow: metres, ≤ `upperBound`.
    ///   - exitAtOrAbove: metres, ≥ `upperBound`.
    ///   - minimumDwell: seconds a new zone must hold before the change is reported.
    public init(name: String, upperBound: Double, enterBelow: Double, exitAtOrAbove: Double, minimumDwell: Double = 0.3) {
        self.name = name
        self.upperBound = upperBound
        self.enterThreshold = enterBelow
        self.exitThreshold = exitAtOrAbove
        self.minimumDwell = minimumDwell
    }
}

/// A feature that is active while the tracked accessory is in a zone or any zone inside it
/// ("feature A inside 3 m": active in `near` and `mid`).
public struct ZoneFeature: Sendable, Hashable {
    /// The feature's name.
    public var name: String
    /// Index of the outermost zone in which the feature is active.
    public var outermostZone: Int

    /// Creates a feature active in zones `0 ... outermostZone`.
    public init(name: String, outermostZone: Int) {
        self.name = name
        self.outermostZone = outermostZone
    }
}
