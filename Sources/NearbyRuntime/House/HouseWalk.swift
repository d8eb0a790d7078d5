public import Positioning
public import Simulation

/// A person carrying an accessory through a house (`nearby demo --house`): from room to
/// neighbouring room through the middle of their shared wall (a door), to a random spot at
/// least ``clearance`` metres from every wall, pausing there now and then; at the end out
/// through an outside wall to a spot in front of the house, then away (a jump to
/// ``awayDistance`` metres: out of radio range, like a car leaving). A pure function of the
/// plan, the accessory's index and the seed.
public struct HouseWalk: Sendable, Hashable {
    /// One stop of the walk.
    public struct Stop: Sendable, Hashable {
        /// Arrival time, seconds.
        public var time: Double
        /// Where.
        public var point: PlanePoint
    }

    /// The floor walked (that of the first room).
    public let floor: Int
    /// Keyframes (time, point): straight lines between them.
    public let stops: [Stop]
    /// When the accessory leaves the house (the jump), seconds; after it, `not_home`.
    public let leaveTime: Double
    /// Height it is carried at, metres.
    public let height: Double

    /// Metres a spot keeps from every wall.
    public static let clearance = 0.8
    /// Where the accessory goes when it leaves, metres from the house.
    public static let awayDistance = 1000.0

    /// A walk of about `duration` seconds through the rooms of `plan`'s first floor.
    /// - Parameters:
    ///   - plan: the house (its rooms and spots).
    ///   - index: the accessory (walks differ per accessory).
    ///   - seed: the simulation's seed.
    ///   - duration: about how long the walk lasts, seconds.
    ///   - start: seconds of standing still at the first spot before walking.
    ///   - speeds: walking speeds, m/s.
    ///   - pauses: seconds of a pause at a spot (after about half of them).
    ///   - height: carried at, metres.
    /// - Throws: `HousePlanError` when the plan has no room with a spot `clearance` from its walls.
    public init(
        plan: HousePlan, index: Int, seed: UInt64, duration: Double = 90, start: Double = 3, speeds: ClosedRange<Double> = 0.6...1.2,
        pauses: ClosedRange<Double> = 1...4, height: Double = 1.0
    ) throws(HousePlanError) {
        guard let first = plan.rooms.first else { throw HousePlanError("a simulated house needs at least one [[house.room]]") }
        floor = first.floor
        self.height = height
        let rooms = plan.rooms(onFloor: first.floor)
        var random = SimulationRandom(seed: SimulationRandom.derivedSeed(seed, "house-walk-\(index)"))
        func spot(in room: HouseRoom) -> PlanePoint? {
            let xs = room.polygon.vertices.map(\.x)
            let ys = room.polygon.vertices.map(\.y)
            guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return nil }
            for _ in 0..<200 {
                let p = PlanePoint(x: random.uniform(in: minX...maxX), y: random.uniform(in: minY...maxY))
                if room.polygon.depth(p) >= Self.clearance { return p }
            }
            return room.polygon.interiorPoint(margin: Self.clearance)
        }
        // Start in room `index` (mod the count), so accessories start apart.
        var roomIndex = index % rooms.count
        guard var here = spot(in: rooms[roomIndex]) ?? rooms.lazy.compactMap({ spot(in: $0) }).first else {
            throw HousePlanError("no room has a spot \(Self.clearance) m from its walls for the simulated walk")
        }
        var stops = [Stop(time: 0, point: here), Stop(time: start, point: here)]
        var time = start
        func walk(to point: PlanePoint) {
            let distance = here.distance(to: point)
            guard distance > 1e-6 else { return }
            time += distance / random.uniform(in: speeds)
            stops.append(Stop(time: time, point: point))
            here = point
        }
        while time < duration {
            let neighbours = rooms.indices.filter { $0 != roomIndex && Self.door(between: rooms[roomIndex], rooms[$0]) != nil }
            let next: Int
            if neighbours.isEmpty {
                next = roomIndex
            } else {
                next = neighbours[Int(random.uniform() * Double(neighbours.count)) % neighbours.count]
            }
            if next != roomIndex, let door = Self.door(between: rooms[roomIndex], rooms[next]) { walk(to: door) }
            guard let target = spot(in: rooms[next]) else { break }
            walk(to: target)
            roomIndex = next
            if random.bernoulli(0.5) {
                time += random.uniform(in: pauses)
                stops.append(Stop(time: time, point: here))
            }
        }
        // Leave: out through the middle of an outside wall of this room, 1.5 m in front of it.
        let room = rooms[roomIndex]
        let outside = room.polygon.edges.filter { a, b in
            let middle = (a + b) * 0.5
            return !rooms.contains { $0.name != room.name && $0.polygon.distanceToBoundary(middle) < 0.05 }
        }
        let (a, b) = outside.first ?? room.polygon.edges[0]
        let middle = (a + b) * 0.5
        let along = b - a
        var normal = PlanePoint(x: along.y, y: -along.x) * (1 / max(along.length, 1e-9))
        if room.polygon.contains(middle + normal * 0.1) { normal = normal * -1 }
        walk(to: middle)
        walk(to: middle + normal * 1.5)
        time += 2
        stops.append(Stop(time: time, point: here))
        leaveTime = time
        let away = middle + normal * Self.awayDistance
        stops.append(Stop(time: time + 0.5, point: away))
        stops.append(Stop(time: time + 3600, point: away))
        self.stops = stops
    }

    /// Where the accessory is at `time`.
    public func point(at time: Double) -> PlanePoint {
        guard let last = stops.last, let firstStop = stops.first else { return .zero }
        if time <= firstStop.time { return firstStop.point }
        if time >= last.time { return last.point }
        var low = 0
        var high = stops.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if stops[mid].time <= time { low = mid } else { high = mid }
        }
        let a = stops[low]
        let b = stops[high]
        let span = b.time - a.time
        guard span > 0 else { return b.point }
        return a.point + (b.point - a.point) * ((time - a.time) / span)
    }

    /// The true room at `time`: a room name, `nil` in none (still home), or `Presence.notHome`'s
    /// raw value once it left.
    public func room(at time: Double, plan: HousePlan) -> String? {
        if time >= leaveTime { return Presence.notHome.rawValue }
        return plan.room(containing: point(at: time), floor: floor)?.name
    }

    /// The walk as the simulator's trajectory (carried at ``height``, facing where it walks).
    public var trajectory: Trajectory {
        let keyframes = stops.enumerated().compactMap { index, stop -> Trajectory.Keyframe? in
            // Keyframes must be strictly increasing in time.
            if index > 0, stop.time <= stops[index - 1].time { return nil }
            return Trajectory.Keyframe(time: stop.time, position: SceneVector(x: stop.point.x, y: stop.point.y, z: height))
        }
        return (try? Trajectory(keyframes: keyframes, orientation: .facingTravel(initialYaw: 0)))
            ?? .stationary(at: SceneVector(x: stops[0].point.x, y: stops[0].point.y, z: height))
    }

    /// The middle of the wall two rooms share (the longest stretch of a common edge), `nil`
    /// when they do not touch along an edge.
    public static func door(between a: HouseRoom, _ b: HouseRoom) -> PlanePoint? {
        guard a.floor == b.floor else { return nil }
        var best: (PlanePoint, Double)?
        for (p1, p2) in a.polygon.edges {
            let d = p2 - p1
            let length = d.length
            guard length > 1e-9 else { continue }
            let u = d * (1 / length)
            for (q1, q2) in b.polygon.edges {
                // Collinear: both ends of the other edge on this edge's line.
                let n = PlanePoint(x: -u.y, y: u.x)
                guard abs((q1 - p1).dot(n)) < 0.02, abs((q2 - p1).dot(n)) < 0.02 else { continue }
                let t1 = (q1 - p1).dot(u)
                let t2 = (q2 - p1).dot(u)
                let low = max(0, min(t1, t2))
                let high = min(length, max(t1, t2))
                guard high - low > 0.3 else { continue }
                if high - low > (best?.1 ?? 0) { best = (p1 + u * ((low + high) / 2), high - low) }
            }
        }
        return best?.0
    }
}
