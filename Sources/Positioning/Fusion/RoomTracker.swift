/// The room of a moving position with hysteresis at borders: the room changes only once the
/// position is ``FusionParameters/roomMargin`` metres inside the new room (or that far outside
/// every room) for ``FusionParameters/roomDwell`` seconds. A position that jitters across a
/// wall never flaps.
struct RoomTracker: Sendable {
    /// The room now (`nil`: in no room).
    private(set) var room: String?
    /// `false` until the first position.
    private(set) var started = false
    private var pending: (room: String?, since: Double)?

    /// Feeds the position at `time` on `floor`; returns `true` when the room changed.
    mutating func update(_ point: PlanePoint, floor: Int, at time: Double, plan: HousePlan, margin: Double, dwell: Double) -> Bool {
        let rooms = plan.rooms(onFloor: floor)
        var candidate: (name: String, depth: Double)?
        for room in rooms {
            let depth = room.polygon.depth(point)
            if depth >= 0, depth > (candidate?.depth ?? -1) { candidate = (room.name, depth) }
        }
        guard started else {
            started = true
            room = candidate?.name
            return true
        }
        guard candidate?.name != room else {
            pending = nil
            return false
        }
        let convincing: Bool
        if let candidate {
            convincing = candidate.depth >= margin
        } else if let current = room, let polygon = plan.room(named: current)?.polygon {
            convincing = -polygon.depth(point) >= margin || plan.room(named: current)?.floor != floor
        } else {
            convincing = true
        }
        guard convincing else {
            pending = nil
            return false
        }
        if let pending, pending.room == candidate?.name {
            guard time - pending.since >= dwell else { return false }
        } else {
            pending = (candidate?.name, time)
            guard dwell <= 0 else { return false }
        }
        room = candidate?.name
        pending = nil
        return true
    }

    /// Forgets the room (the accessory left).
    mutating func reset() {
        room = nil
        started = false
        pending = nil
    }
}
