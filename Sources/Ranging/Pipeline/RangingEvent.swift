/// A zone as events name it: its index in the ``ZoneMap`` (0 = innermost) and its name, stored
/// inline (``ZoneName``), so events and updates stay plain data.
public struct ZoneRef: Sendable, Hashable, CustomStringConvertible {
    /// The zone's name, inline.
    public var zoneName: ZoneName
    @usableFromInline var storedIndex: Int16

    /// Index into ``ZoneMap/zones`` (maps have at most a few zones; indices beyond ±32767 are
    /// clamped).
    public var index: Int {
        get { Int(storedIndex) }
        set { storedIndex = Int16(clamping: newValue) }
    }

    /// Creates a reference; a name longer than ``ZoneName/capacity`` bytes is cut (``ZoneMap``
    /// refuses such names, so references to a map's zones are exact).
    public init(index: Int, name: String) {
        self.init(index: index, zoneName: ZoneName(name))
    }

    /// Creates a reference from an inline name.
    public init(index: Int, zoneName: ZoneName) {
        self.zoneName = zoneName
        self.storedIndex = Int16(clamping: index)
    }

    /// The zone's name (`near`, `mid`, `far`).
    public var name: String { zoneName.description }

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
/// checked), naming at most two zones, so the pipeline reports them as plain data, without
/// allocating or reference counting.
public struct RangingEvents: RandomAccessCollection, Sendable, Hashable {
    // Each event is one byte: kind (bits 0-1: 1 zone change, 2 lost, 3 found), `from` / the lost
    // zone (bits 2-3: 0 none, 1 zone A, 2 zone B), `to` (bits 4-5), time (bit 6: 0 time A,
    // 1 time B). One sample's events happen at no more than two times (the silence limit and
    // the sample) and name at most two zones.
    private var codes: UInt32 = 0
    private var zoneA = ZoneRef(index: -1, zoneName: ZoneName())
    private var zoneB = ZoneRef(index: -1, zoneName: ZoneName())
    private var timeA = 0.0
    private var timeB = 0.0
    private var zones: UInt8 = 0
    private var times: UInt8 = 0
    private var stored: UInt8 = 0

    /// Number of events.
    public var count: Int { Int(stored) }

    /// No events.
    @inlinable
    public init() {}

    /// The events of `events` (at most 4 events naming at most 2 zones at 2 times; more are
    /// ignored).
    public init(_ events: some Sequence<RangingEvent>) {
        for event in events { append(event) }
    }

    /// Appends `event`; a fifth event, or one needing a third zone or time, is ignored (the
    /// pipeline never makes either).
    public mutating func append(_ event: RangingEvent) {
        guard stored < 4 else { return }
        var code: UInt32
        let time: Double
        switch event {
        case .zoneChanged(let from, let to, let at):
            guard let fromSlot = slot(from), let toSlot = slot(to) else { return }
            code = 1 | fromSlot << 2 | toSlot << 4
            time = at
        case .lost(let at, let zone):
            guard let zoneSlot = slot(zone) else { return }
            code = 2 | zoneSlot << 2
            time = at
        case .found(let at):
            code = 3
            time = at
        }
        guard let timeSlot = timeSlot(time) else { return }
        code |= timeSlot << 6
        codes |= code << (8 * UInt32(stored))
        stored += 1
    }

    /// The slot of `zone` (0 for none), storing it if new; `nil` when both slots hold others.
    private mutating func slot(_ zone: ZoneRef?) -> UInt32? {
        guard let zone else { return 0 }
        if zones > 0, zoneA == zone { return 1 }
        if zones > 1, zoneB == zone { return 2 }
        switch zones {
        case 0:
            zoneA = zone
            zones = 1
            return 1
        case 1:
            zoneB = zone
            zones = 2
            return 2
        default:
            return nil
        }
    }

    private mutating func timeSlot(_ time: Double) -> UInt32? {
        if times > 0, timeA == time { return 0 }
        if times > 1, timeB == time { return 1 }
        switch times {
        case 0:
            timeA = time
            times = 1
            return 0
        case 1:
            timeB = time
            times = 2
            return 1
        default:
            return nil
        }
    }

    private func zone(_ slot: UInt32) -> ZoneRef? {
        switch slot {
        case 1: zoneA
        case 2: zoneB
        default: nil
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> RangingEvent {
        precondition(position >= 0 && position < count, "RangingEvents index out of range")
        let code = codes >> (8 * UInt32(position)) & 0xFF
        let time = code >> 6 & 1 == 0 ? timeA : timeB
        switch code & 3 {
        case 1: return .zoneChanged(from: zone(code >> 2 & 3), to: zone(code >> 4 & 3), at: time)
        case 2: return .lost(at: time, zone: zone(code >> 2 & 3))
        default: return .found(at: time)
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
