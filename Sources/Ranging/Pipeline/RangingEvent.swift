/// Something that happened to a tracked accessory, with the time it happened (seconds, on the
/// samples' clock). Hooks subscribe to these (`enter`, `exit`, `lost`, `found`).
public enum RangingEvent: Sendable, Hashable, CustomStringConvertible {
    /// The accessory entered zone `zone` (an index into ``ZoneMap/zones``).
    case entered(zone: Int, at: Double)
    /// The accessory left zone `zone`.
    case exited(zone: Int, at: Double)
    /// No usable measurement for longer than the pipeline's silence limit; `at` is the moment the
    /// limit passed (last usable measurement + limit), not when it was noticed.
    case lost(at: Double)
    /// Usable measurements arrived: the first one ever, or the first after ``lost(at:)``.
    case found(at: Double)

    /// When the event happened, seconds.
    public var timestamp: Double {
        switch self {
        case .entered(_, let t), .exited(_, let t), .lost(let t), .found(let t): t
        }
    }

    /// The event with zone numbers, e.g. `entered zone 0 at 12.300 s`.
    public var description: String {
        switch self {
        case .entered(let zone, let t): "entered zone \(zone) at \(Format.fixed(t, 3)) s"
        case .exited(let zone, let t): "exited zone \(zone) at \(Format.fixed(t, 3)) s"
        case .lost(let t): "lost at \(Format.fixed(t, 3)) s"
        case .found(let t): "found at \(Format.fixed(t, 3)) s"
        }
    }

    /// The event with zone names from `map`, e.g. `entered near at 12.300 s`.
    public func description(in map: ZoneMap) -> String {
        func name(_ zone: Int) -> String { map.zones.indices.contains(zone) ? map.zones[zone].name : "zone \(zone)" }
        switch self {
        case .entered(let zone, let t): return "entered \(name(zone)) at \(Format.fixed(t, 3)) s"
        case .exited(let zone, let t): return "exited \(name(zone)) at \(Format.fixed(t, 3)) s"
        case .lost, .found: return description
        }
    }
}
