public import Ranging

/// `[zones]`: the zone boundaries and how transitions are confirmed. Unset values take the
/// defaults of `ZoneMap.standard` (1.5 m and 3 m, 0.2 m hysteresis, 0.3 s dwell) and a 2 s
/// lost-after limit.
public struct ZoneSettings: Sendable, Hashable {
    /// The default boundaries, metres.
    public static let defaultBoundaries = [1.5, 3.0]
    /// The default hysteresis band, metres.
    public static let defaultHysteresis = 0.2
    /// The default minimum dwell, seconds.
    public static let defaultDwell = 0.3
    /// The default silence before `lost`, seconds.
    public static let defaultLostAfter = 2.0

    /// Zone boundaries in metres, strictly increasing (`boundaries`).
    public var boundaries: [Double]?
    /// Zone names, innermost first, one more than the boundaries (`names`); default `near`,
    /// (`mid`,) `far` for one or two boundaries, `zone1` ... otherwise.
    public var names: [String]?
    /// Width of the band around each boundary, metres (`hysteresis`).
    public var hysteresis: Double?
    /// Seconds a new zone must be indicated before it is reported (`dwell`).
    public var dwell: Double?
    /// Seconds without a usable measurement before the accessory is lost (`lost_after`).
    public var lostAfter: Double?

    /// Creates settings; `nil` = not set.
    public init(
        boundaries: [Double]? = nil, names: [String]? = nil, hysteresis: Double? = nil, dwell: Double? = nil,
        lostAfter: Double? = nil
    ) {
        self.boundaries = boundaries
        self.names = names
        self.hysteresis = hysteresis
        self.dwell = dwell
        self.lostAfter = lostAfter
    }

    /// The lost-after limit in effect, seconds.
    public var effectiveLostAfter: Double { lostAfter ?? Self.defaultLostAfter }

    /// The zone map these settings describe (defaults for unset values).
    /// - Throws: `ZoneMapError` for invalid combinations (bounds not increasing, hysteresis
    ///   bands overlapping, a name count that does not match).
    public func zoneMap() throws(ZoneMapError) -> ZoneMap {
        let boundaries = boundaries ?? Self.defaultBoundaries
        let hysteresis = hysteresis ?? Self.defaultHysteresis
        let dwell = dwell ?? Self.defaultDwell
        let standard = try ZoneMap(boundaries: boundaries, hysteresis: hysteresis, minimumDwell: dwell)
        guard let names else { return standard }
        guard names.count == standard.zones.count else {
            throw ZoneMapError(
                "\(names.count) zone names for \(boundaries.count) boundaries; give \(standard.zones.count) names (one more than the boundaries), innermost first")
        }
        let zones = zip(standard.zones, names).map { zone, name in
            Zone(name: name, upperBound: zone.upperBound, enterBelow: zone.enterThreshold, exitAtOrAbove: zone.exitThreshold, minimumDwell: dwell)
        }
        return try ZoneMap(zones: zones)
    }

    /// These settings with every value set in `flags` replacing this one (flags win).
    public func overridden(by flags: ZoneSettings) -> ZoneSettings {
        // Names from the file survive new boundaries from flags only if their count still fits.
        var keptNames = flags.names ?? names
        if flags.names == nil, let flagBoundaries = flags.boundaries, let count = names?.count, count != flagBoundaries.count + 1 {
            keptNames = nil
        }
        return ZoneSettings(
            boundaries: flags.boundaries ?? boundaries,
            names: keptNames,
            hysteresis: flags.hysteresis ?? hysteresis, dwell: flags.dwell ?? dwell, lostAfter: flags.lostAfter ?? lostAfter)
    }
}
