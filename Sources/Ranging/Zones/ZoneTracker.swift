/// The zone engine: turns a (smoothed) distance into a current zone with hysteresis and
/// minimum dwell, reporting each transition as one ``RangingEvent/zoneChanged(from:to:at:)``
/// with the zones' names.
///
/// Rules:
/// - With no current zone (start, after ``clear(at:)``), the first distance sets the zone by the
///   plain boundaries (``ZoneMap/zone(containing:)``) at once: a change from `nil`.
/// - Otherwise the *indicated* zone starts at the current one, moves outward while the distance
///   is ≥ the exit threshold of the zone it is in, and inward while it is below the enter
///   threshold of the next inner zone (so a jump across several zones is one transition).
/// - A transition happens when zones other than the current one have been indicated without
///   interruption for at least the ``Zone/minimumDwell`` of the zone now indicated; it emits
///   one change from the old zone to the new, at the confirming sample's time. Any sample that
///   indicates the current zone again cancels the pending transition.
///
/// Noise that hovers within the hysteresis band therefore never flaps, and a brief excursion
/// shorter than the dwell is ignored.
public struct ZoneTracker: Sendable {
    /// The zones tracked.
    public let map: ZoneMap
    private let enter: [Double]
    private let exit: [Double]
    private let dwell: [Double]
    /// The zones' names by index, inline.
    public let names: [ZoneName]
    /// The current zone, `nil` before the first distance and after ``clear(at:)``.
    public private(set) var current: Int?
    private var awaySince: Double?

    /// Creates a tracker with no current zone.
    public init(map: ZoneMap) {
        self.map = map
        self.enter = map.zones.map(\.enterThreshold)
        self.exit = map.zones.map(\.exitThreshold)
        self.dwell = map.zones.map(\.minimumDwell)
        self.names = map.zones.map { ZoneName($0.name) }
    }

    /// The reference (index and name) of zone `index`.
    @inline(__always)
    public func ref(_ index: Int) -> ZoneRef { ZoneRef(index: index, zoneName: names[index]) }

    /// The current zone's reference, `nil` if there is none.
    public var currentRef: ZoneRef? { current.map(ref) }

    /// Feeds a distance (metres) at `time` (seconds); returns the zone change it caused, if any
    /// (at most one per distance), without allocating. ``current`` is the zone afterwards.
    @inline(__always)
    public mutating func update(distance: Double, at time: Double) -> RangingEvent? {
        guard let current else {
            let zone = map.zone(containing: distance)
            self.current = zone
            awaySince = nil
            return .zoneChanged(from: nil, to: ref(zone), at: time)
        }
        let last = enter.count - 1
        var indicated = current
        while indicated < last && distance >= exit[indicated] { indicated += 1 }
        while indicated > 0 && distance < enter[indicated - 1] { indicated -= 1 }
        if indicated == current {
            awaySince = nil
            return nil
        }
        let since = awaySince ?? time
        awaySince = since
        guard time - since >= dwell[indicated] else { return nil }
        self.current = indicated
        awaySince = nil
        return .zoneChanged(from: ref(current), to: ref(indicated), at: time)
    }

    /// Forgets the current zone; returns the change to no zone at `time` if there was one.
    public mutating func clear(at time: Double) -> RangingEvent? {
        defer {
            current = nil
            awaySince = nil
        }
        return current.map { .zoneChanged(from: ref($0), to: nil, at: time) }
    }

    /// Forgets the current zone without reporting anything.
    public mutating func reset() {
        current = nil
        awaySince = nil
    }
}
