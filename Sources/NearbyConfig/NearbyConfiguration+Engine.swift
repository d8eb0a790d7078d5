public import Ranging

extension NearbyConfiguration {
    /// An overlay holding the engine settings as a command line gives them (see
    /// ``overridden(by:)``): the filter's name (`FilterSpec(name:)`), the zone
    /// boundaries as text (`1.5,3`, `ZoneMap.boundaries(parsing:)`), the hysteresis
    /// (metres), the dwell and the lost-after limit (seconds); `nil` leaves a setting unset.
    /// - Throws: ``EngineSettingError`` for the first setting that is wrong (a zone map that
    ///   does not hold together is found later, by ``zoneMap()``).
    public init(filter: String?, zones: String?, hysteresis: Double?, dwell: Double?, lostAfter: Double?) throws(EngineSettingError) {
        self.init()
        if let filter {
            do {
                self.filter.spec = try FilterSpec(name: filter)
            } catch {
                throw .filter(error)
            }
        }
        if let zones {
            do {
                self.zones.boundaries = try ZoneMap.boundaries(parsing: zones)
            } catch {
                throw .zones(error)
            }
        }
        self.zones.hysteresis = hysteresis
        self.zones.dwell = dwell
        if let lostAfter {
            guard lostAfter > 0, lostAfter.isFinite else { throw .lostAfter(lostAfter) }
            self.zones.lostAfter = lostAfter
        }
    }
}

/// An engine setting given as text is wrong (``NearbyConfiguration/init(filter:zones:hysteresis:dwell:lostAfter:)``).
public enum EngineSettingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `filter`: not a filter name; `zones`: a boundary that is not a distance; `lostAfter`: a
    /// limit that is not more than 0 seconds.
    case filter(FilterSpecError), zones(ZoneBoundaryTextError), lostAfter(Double)

    /// `filter: ...`, `zones: ...`, `lost-after must be > 0 seconds, not ...`.
    public var description: String {
        switch self {
        case .filter(let error): "filter: \(error)"
        case .zones(let error): "zones: \(error)"
        case .lostAfter(let value): "lost-after must be > 0 seconds, not \(value)"
        }
    }
}
