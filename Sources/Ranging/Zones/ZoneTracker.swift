/// The zone engine: turns a (smoothed) distance into a current zone with hysteresis and
/// minimum dwell, reporting ``RangingEvent/entered(zone:at:)`` and
/// ``RangingEvent/exited(zone:at:)``.
///
/// Rules:
/// - With no current zone (start, after ``clear(at:onEvent:)``), the first distance sets the
///   zone by the plain boundaries (``ZoneMap/zone(containing:)``) at once: `entered`.
/// - Otherwise the *indicated* zone starts at the current one, moves outward while the distance
///   is ≥ the exit threshold of the zone it is in, and inward while it is below the enter
///   threshold of the next inner zone (so a jump across several zones is one transition).
/// - A transition happens when zones other than the current one have been indicated without
///   interruption for at least the ``Zone/minimumDwell`` of the zone now indicated; it emits
///   `exited(old)` then `entered(new)`, both at the confirming sample's time. Any sample that
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
    /// The current zone, `nil` before the first distance and after ``clear(at:onEvent:)``.
    public private(set) var current: Int?
    private var awaySince: Double?

    /// Creates a tracker with no current zone.
    public init(map: ZoneMap) {
        self.map = map
        self.enter = map.zones.map(\.enterThreshold)
        self.exit = map.zones.map(\.exitThreshold)
        self.dwell = map.zones.map(\.minimumDwell)
    }

    /// Feeds a distance (metres) at `time` (seconds) and returns the current zone.
    /// Events are reported through `onEvent`, in order, without allocating.
    @inline(__always)
    public mutating func update(distance: Double, at time: Double, onEvent: (RangingEvent) -> Void) -> Int? {
        guard let current else {
            let zone = map.zone(containing: distance)
            self.current = zone
            awaySince = nil
            onEvent(.entered(zone: zone, at: time))
            return zone
        }
        let last = enter.count - 1
        var indicated = current
        while indicated < last && distance >= exit[indicated] { indicated += 1 }
        while indicated > 0 && distance < enter[indicated - 1] { indicated -= 1 }
        if indicated == current {
            awaySince = nil
            return current
        }
        let since = awaySince ?? time
        awaySince = since
        if time - since >= dwell[indicated] {
            onEvent(.exited(zone: current, at: time))
            onEvent(.entered(zone: indicated, at: time))
            self.current = indicated
            awaySince = nil
        }
        return self.current
    }

    /// Forgets the current zone, reporting `exited(current)` at `time` if there was one.
    public mutating func clear(at time: Double, onEvent: (RangingEvent) -> Void) {
        if let current {
            onEvent(.exited(zone: current, at: time))
        }
        current = nil
        awaySince = nil
    }

    /// Forgets the current zone without reporting anything.
    public mutating func reset() {
        current = nil
        awaySince = nil
    }
}
