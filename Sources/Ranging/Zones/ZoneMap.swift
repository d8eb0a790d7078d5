/// The ordered zones around an accessory, innermost first, and the features mapped to them.
///
/// The standard map (``standard``) is `near` < 1.5 m, `mid` < 3 m, `far` beyond, each with a
/// 0.2 m hysteresis band centred on its boundary and a 0.3 s minimum dwell; feature `A` is active
/// inside 3 m (`near`, `mid`), feature `B` inside 1.5 m (`near`).
public struct ZoneMap: Sendable, Hashable {
    /// The zones, innermost first; the last one is unbounded.
    public let zones: [Zone]
    /// Features mapped to zones.
    public let features: [ZoneFeature]

    /// Creates a map from explicit zones.
    /// - Throws: ``ZoneMapError`` if there is no zone, bounds are not finite and strictly
    ///   increasing (the last one infinite), thresholds are on the wrong side of their bound or
    ///   overlap the next zone's, a dwell is negative, a name is empty or longer than 15 UTF-8
    ///   bytes (``ZoneName``), names repeat, or a feature names a zone
    ///   that does not exist.
    public init(zones: [Zone], features: [ZoneFeature] = []) throws(ZoneMapError) {
        guard !zones.isEmpty else { throw ZoneMapError("a zone map needs at least one zone") }
        for (i, zone) in zones.enumerated() {
            let isLast = i == zones.count - 1
            if isLast {
                guard zone.upperBound == .infinity else {
                    throw ZoneMapError("the outermost zone '\(zone.name)' must be unbounded (upper bound infinity), not \(zone.upperBound) m")
                }
            } else {
                guard zone.upperBound.isFinite, zone.upperBound > 0 else {
                    throw ZoneMapError("zone '\(zone.name)': the upper bound must be a positive number of metres, not \(zone.upperBound)")
                }
                guard zone.enterThreshold.isFinite, zone.exitThreshold.isFinite,
                      zone.enterThreshold <= zone.upperBound, zone.exitThreshold >= zone.upperBound
                else {
                    throw ZoneMapError(
                        "zone '\(zone.name)': enter threshold \(zone.enterThreshold) m must be ≤ the bound \(zone.upperBound) m and exit threshold \(zone.exitThreshold) m ≥ it; use a hysteresis ≥ 0")
                }
                let next = zones[i + 1]
                if next.upperBound.isFinite {
                    guard zone.upperBound < next.upperBound else {
                        throw ZoneMapError("zone bounds must increase: '\(zone.name)' ends at \(zone.upperBound) m but '\(next.name)' at \(next.upperBound) m")
                    }
                    guard zone.exitThreshold < next.enterThreshold else {
                        throw ZoneMapError(
                            "the hysteresis bands of '\(zone.name)' (exit at \(zone.exitThreshold) m) and '\(next.name)' (enter below \(next.enterThreshold) m) overlap; use a smaller hysteresis or bounds further apart")
                    }
                }
            }
            guard zone.minimumDwell >= 0, zone.minimumDwell.isFinite else {
                throw ZoneMapError("zone '\(zone.name)': the minimum dwell must be ≥ 0 s, not \(zone.minimumDwell)")
            }
            guard !zone.name.isEmpty, ZoneName.fits(zone.name) else {
                throw ZoneMapError(
                    "zone name '\(zone.name)' must be 1 to \(ZoneName.capacity) bytes of UTF-8 (it is \(zone.name.utf8.count)); use a shorter name")
            }
            if zones[..<i].contains(where: { $0.name == zone.name }) {
                throw ZoneMapError("zone name '\(zone.name)' is used twice")
            }
        }
        for feature in features where !(0..<zones.count).contains(feature.outermostZone) {
            throw ZoneMapError("feature '\(feature.name)' refers to zone \(feature.outermostZone), but there are \(zones.count) zones (0 ... \(zones.count - 1))")
        }
        self.zones = zones
        self.features = features
    }

    /// Creates a map from boundaries in metres: `boundaries.count + 1` zones named `near`,
    /// (`mid`,) `far` for one or two boundaries, `zone1` ... `zoneN` otherwise.
    /// - Parameters:
    ///   - boundaries: strictly increasing distances, metres (e.g. `[1.5, 3]`).
    ///   - hysteresis: band width around each boundary, metres (≥ 0).
    ///   - minimumDwell: seconds (≥ 0), for every zone.
    ///   - features: features mapped to zones.
    /// - Throws: ``ZoneMapError`` for invalid values (see ``init(zones:features:)``).
    public init(
        boundaries: [Double], hysteresis: Double = 0.2, minimumDwell: Double = 0.3, features: [ZoneFeature] = []
    ) throws(ZoneMapError) {
        guard hysteresis >= 0, hysteresis.isFinite else {
            throw ZoneMapError("the hysteresis must be ≥ 0 m, not \(hysteresis)")
        }
        let names: [String] =
            switch boundaries.count {
            case 0: ["all"]
            case 1: ["near", "far"]
            case 2: ["near", "mid", "far"]
            default: (1...(boundaries.count + 1)).map { "zone\($0)" }
            }
        var zones: [Zone] = []
        for (i, name) in names.enumerated() {
            let bound = i < boundaries.count ? boundaries[i] : .infinity
            zones.append(Zone(name: name, upperBound: bound, hysteresis: hysteresis, minimumDwell: minimumDwell))
        }
        try self.init(zones: zones, features: features)
    }

    /// `near` < 1.5 m, `mid` < 3 m, `far`; hysteresis 0.2 m, dwell 0.3 s; features `A` (inside
    /// 3 m) and `B` (inside 1.5 m).
    public static let standard: ZoneMap = {
        do {
            return try ZoneMap(
                boundaries: [1.5, 3], hysteresis: 0.2, minimumDwell: 0.3,
                features: [ZoneFeature(name: "A", outermostZone: 1), ZoneFeature(name: "B", outermostZone: 0)])
        } catch {
            preconditionFailure("the standard zone map is valid: \(error)")
        }
    }()

    /// The finite zone boundaries in metres, increasing.
    public var boundaries: [Double] { zones.dropLast().map(\.upperBound) }

    /// The zone a distance lies in by the plain boundaries, without hysteresis (the "truth zone"
    /// of the benchmark metrics, and the first zone of a newly tracked accessory).
    @inline(__always)
    public func zone(containing distance: Double) -> Int {
        var index = 0
        while index < zones.count - 1 && distance >= zones[index].upperBound { index += 1 }
        return index
    }

    /// Whether `feature` (an index into ``features``) is active in `zone` (`nil` = no zone).
    public func isFeature(_ feature: Int, activeIn zone: Int?) -> Bool {
        guard let zone, features.indices.contains(feature) else { return false }
        return zone <= features[feature].outermostZone
    }

    /// The features active in `zone` (`nil` = no zone, none active).
    public func features(activeIn zone: Int?) -> [ZoneFeature] {
        guard let zone else { return [] }
        return features.filter { zone <= $0.outermostZone }
    }
}

/// An invalid zone configuration; the message says which value is wrong and what is expected.
public struct ZoneMapError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    /// Creates the error.
    public init(_ description: String) {
        self.description = description
    }
}
