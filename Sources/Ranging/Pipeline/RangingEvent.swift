/// A zone as events name it: its index in the ``ZoneMap`` (0 = innermost) and its name.
public struct ZoneRef: Sendable, Hashable, CustomStringConvertible {
    /// Index into ``ZoneMap/zones``.
    public var index: Int
    /// The zone's name (`near`, `mid`, `far`).
    public var name: String

    /// Creates a reference.
    public init(index: Int, name: String) {
        self.index = index
        self.name = name
    }

    /// The name.
    public var description: String { name }
}

/// Something that happened to a tracked accessory, with the time it happened (seconds, on the
/// samples' clock). Hooks subscribe to these (`enter` / `exit` from a zone change, `lost`,
/// `found`).
public enum RangingEvent: Sendable, Hashable, CustomStringConvertible {
    /// The accessory's zone changed: `from` the zone it was in (`nil` when it had none: the first
    /// zone after ``found(at:)``), `to` the zone it is in now (`nil` when the zone was cleared
    /// because the accessory was lost). One event per transition, even across several zones.
    case zoneChanged(from: ZoneRef?, to: ZoneRef?, at: Double)
    /// No usable measurement for longer than the pipeline's silence limit; `at` is the moment the
    /// limit passed (last usable measurement + limit), not when it was noticed. `zone` is the zone
    /// the accessory was in (a ``zoneChanged(from:to:at:)`` to `nil` follows).
    case lost(at: Double, zone: ZoneRef?)
    /// Usable measurements arrived: the first one ever, or the first after ``lost(at:zone:)``.
    case found(at: Double)

    /// When the event happened, seconds.
    public var timestamp: Double {
        switch self {
        case .zoneChanged(_, _, let t), .lost(let t, _), .found(let t): t
        }
    }

    /// `near`, `mid -> near`, `left far`, `lost`, `found` with the time: `mid -> near at 12.300 s`.
    public var description: String { "\(summary) at \(Format.fixed(timestamp, 3)) s" }

    /// The event without its time: `entered far` (first zone), `mid -> near`, `left far`
    /// (zone cleared), `lost`, `found`.
    public var summary: String {
        switch self {
        case .zoneChanged(nil, let to?, _): "entered \(to.name)"
        case .zoneChanged(let from?, nil, _): "left \(from.name)"
        case .zoneChanged(let from?, let to?, _): "\(from.name) -> \(to.name)"
        case .zoneChanged(nil, nil, _): "no zone"
        case .lost: "lost"
        case .found: "found"
        }
    }
}

/// The events of one sample (or one silence check), in order, stored inline: a sample yields at
/// most four (`lost`, zone cleared, `found`, first zone, when it arrives after a silence nobody
/// checked), so the pipeline reports them without allocating.
public struct RangingEvents: RandomAccessCollection, Sendable, Hashable {
    private var e0: RangingEvent?
    private var e1: RangingEvent?
    private var e2: RangingEvent?
    private var e3: RangingEvent?
    /// Number of events.
    public private(set) var count = 0

    /// No events.
    public init() {}

    /// The events of `events` (at most 4; more are ignored).
    public init(_ events: some Sequence<RangingEvent>) {
        for event in events { append(event) }
    }

    /// Appends `event`; a fifth event is ignored (the pipeline never makes one).
    public mutating func append(_ event: RangingEvent) {
        switch count {
        case 0: e0 = event
        case 1: e1 = event
        case 2: e2 = event
        case 3: e3 = event
        default: return
        }
        count += 1
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> RangingEvent {
        precondition(position >= 0 && position < count, "RangingEvents index out of range")
        switch position {
        case 0: return e0!
        case 1: return e1!
        case 2: return e2!
        default: return e3!
        }
    }

    /// The zone change among the events that leads to a zone (`to` not `nil`), if any.
    public var zoneEntered: (from: ZoneRef?, to: ZoneRef)? {
        for event in self {
            if case .zoneChanged(let from, let to?, _) = event { return (from, to) }
        }
        return nil
    }

    public static func == (lhs: RangingEvents, rhs: RangingEvents) -> Bool { lhs.elementsEqual(rhs) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for event in self { hasher.combine(event) }
    }
}
