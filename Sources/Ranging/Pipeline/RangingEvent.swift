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
///
/// The storage is plain data (kind, zone indices, time) plus one reference to the zone names,
/// set only when an event names a zone: an update that carries no event costs nothing to make,
/// copy or drop. ``subscript(_:)`` rebuilds each ``RangingEvent`` with its zones' names.
public struct RangingEvents: RandomAccessCollection, Sendable, Hashable {
    /// One event as plain data; a zone index of -1 means none.
    private struct Record: Sendable, Hashable {
        var kind: UInt8 = 0  // 1 zoneChanged, 2 lost, 3 found
        var from: Int16 = -1
        var to: Int16 = -1
        var time = 0.0
    }

    private var r0 = Record()
    private var r1 = Record()
    private var r2 = Record()
    private var r3 = Record()
    /// Number of events.
    public private(set) var count = 0
    /// Zone names by index, for the zones the events name (`nil` when none does).
    private var names: [String]?

    /// No events.
    @inlinable
    public init() {}

    /// The events of `events` (at most 4; more are ignored).
    public init(_ events: some Sequence<RangingEvent>) {
        for event in events { append(event) }
    }

    /// Appends `event`, whose zones are named by `zoneNames` (the zone map's names by index):
    /// the names are shared, not copied, so appending allocates nothing (the pipeline's path).
    public mutating func append(_ event: RangingEvent, zoneNames: [String]) {
        if names == nil { names = zoneNames }
        append(event)
    }

    /// Appends `event`; a fifth event is ignored (the pipeline never makes one).
    public mutating func append(_ event: RangingEvent) {
        var record = Record()
        switch event {
        case .zoneChanged(let from, let to, let time):
            record = Record(kind: 1, from: remember(from), to: remember(to), time: time)
        case .lost(let time, let zone):
            record = Record(kind: 2, from: remember(zone), to: -1, time: time)
        case .found(let time):
            record = Record(kind: 3, from: -1, to: -1, time: time)
        }
        switch count {
        case 0: r0 = record
        case 1: r1 = record
        case 2: r2 = record
        case 3: r3 = record
        default: return
        }
        count += 1
    }

    /// Stores a zone's name by its index (a pipeline's names are stored once, unchanged).
    private mutating func remember(_ zone: ZoneRef?) -> Int16 {
        guard let zone, zone.index >= 0, zone.index < Int(Int16.max) else { return -1 }
        if names == nil { names = [] }
        if names!.count <= zone.index { names!.append(contentsOf: repeatElement("", count: zone.index + 1 - names!.count)) }
        if names![zone.index] != zone.name { names![zone.index] = zone.name }
        return Int16(zone.index)
    }

    private func zone(_ index: Int16) -> ZoneRef? {
        guard index >= 0, let names, Int(index) < names.count else { return nil }
        return ZoneRef(index: Int(index), name: names[Int(index)])
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> RangingEvent {
        precondition(position >= 0 && position < count, "RangingEvents index out of range")
        let record: Record
        switch position {
        case 0: record = r0
        case 1: record = r1
        case 2: record = r2
        default: record = r3
        }
        switch record.kind {
        case 1: return .zoneChanged(from: zone(record.from), to: zone(record.to), at: record.time)
        case 2: return .lost(at: record.time, zone: zone(record.from))
        default: return .found(at: record.time)
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
