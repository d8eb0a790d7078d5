public import Positioning

/// One fused output as published: time, position, room, presence.
public struct FusedSample: Sendable {
    public var time: Double
    public var point: PlanePoint?
    public var room: String?
    public var presence: Presence

    public init(time: Double, point: PlanePoint?, room: String?, presence: Presence) {
        self.time = time
        self.point = point
        self.room = room
        self.presence = presence
    }
}

/// The figures of specs/house.md from fused outputs and the truth.
public struct HouseScore: CustomStringConvertible, Sendable {
    public init() {}
    public var errors: [Double] = []
    public var roomRight = 0
    public var roomChecked = 0
    public var crossings = 0
    public var flaps = 0
    public var missedChanges = 0
    public var awayDelay: Double?

    public var p95: Double {
        guard !errors.isEmpty else { return .infinity }
        let sorted = errors.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
    }
    public var median: Double { errors.isEmpty ? .infinity : errors.sorted()[errors.count / 2] }
    public var roomShare: Double { roomChecked == 0 ? 0 : Double(roomRight) / Double(roomChecked) }

    public var description: String {
        "p50 \(median) m, p95 \(p95) m over \(errors.count) positions; room right \(roomRight)/\(roomChecked) (\(roomShare)) outside 0.5 s after \(crossings) crossings; flaps \(flaps), missed changes \(missedChanges); not_home \(awayDelay.map { "\($0) s" } ?? "never") after leaving"
    }

    /// Scores `samples` (in time order) against the truth: `truthPoint(t)` (nil once gone),
    /// `truthRoom(t)` (a room, nil for none, "not_home" once gone); `leave` the time it left.
    public static func score(
        _ samples: [FusedSample], truthPoint: (Double) -> PlanePoint?, truthRoom: (Double) -> String?, leave: Double
    ) -> HouseScore {
        var score = HouseScore()
        let fixes = samples.filter { $0.point != nil && $0.presence == .home }
        guard let first = fixes.first else { return score }
        for sample in fixes where sample.time < leave {
            if let point = sample.point, let truth = truthPoint(sample.time) { score.errors.append(point.distance(to: truth)) }
        }
        // True room changes at 10 ms resolution.
        var changes: [(time: Double, room: String?)] = []
        var t = first.time
        var previous = truthRoom(t)
        while t < leave {
            t += 0.01
            let room = truthRoom(t)
            if room != previous { changes.append((t, room)) }
            previous = room
        }
        score.crossings = changes.count
        // The fused room as a step function of time.
        var index = 0
        var fusedRoom: String? = first.room
        t = first.time + 0.5
        while t < leave - 0.05 {
            while index < samples.count, samples[index].time <= t {
                if samples[index].presence == .home, samples[index].point != nil { fusedRoom = samples[index].room }
                index += 1
            }
            let afterCrossing = changes.contains { t >= $0.time && t < $0.time + 0.5 }
            if !afterCrossing {
                score.roomChecked += 1
                if fusedRoom == truthRoom(t) { score.roomRight += 1 }
            }
            t += 0.05
        }
        // Flaps: fused room changes that no true change explains.
        var fusedChanges: [(time: Double, room: String?)] = []
        var last: String?? = .none
        for sample in fixes where sample.time < leave {
            if let known = last, known == sample.room { continue }
            if last != nil { fusedChanges.append((sample.time, sample.room)) }
            last = .some(sample.room)
        }
        var used = Set<Int>()
        for change in fusedChanges {
            if let match = changes.indices.first(where: { !used.contains($0) && changes[$0].room == change.room && changes[$0].time >= change.time - 3 && changes[$0].time <= change.time + 0.5 }) {
                used.insert(match)
            } else {
                score.flaps += 1
            }
        }
        score.missedChanges = changes.count - used.count
        if let away = samples.first(where: { $0.presence == .notHome && $0.time >= first.time }) {
            score.awayDelay = away.time - leave
        }
        return score
    }
}
