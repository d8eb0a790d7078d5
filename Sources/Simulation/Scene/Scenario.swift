/// A named motion scenario for the simulator: the host stands still and each accessory moves on a
/// trajectory that is a pure function of time (and, for the random walk, of a seed).
///
/// Frame: the host is at the origin, ``hostHeight`` above the floor, facing north (+y), so an
/// accessory's bearing from north is its true azimuth. Accessories are carried at
/// ``accessoryHeight`` and face their direction of travel (the host, before they first move or
/// when they only stand). Distances a scenario names are true 3-D distances from the host.
///
/// With several accessories, accessory `i` (0-based) follows the same shape turned by a bearing
/// offset (0°, +35°, -35°, +70°, -70°, ...) and, for walking scenarios, started later (see
/// ``trajectory(forAccessory:seed:)``), so their events do not coincide.
///
/// ```swift
/// let scenario = try Scenario.named("demo")
/// var scene = try scenario.makeScene(accessories: 2, seed: 42)
/// let round = try scene.measure(from: .host, to: .accessory(0), at: 12.5)
/// ```
public struct Scenario: Sendable, Hashable {
    /// Height of the host's antenna above the floor, metres (a dev kit on a desk).
    public static let hostHeight = 0.8
    /// Height of a carried accessory, metres (in a hand or pocket).
    public static let accessoryHeight = 1.0
    /// Bearing step between accessories, degrees.
    public static let accessoryBearingStep = 35.0

    enum Kind: Sendable, Hashable {
        case walkIn(from: Double, to: Double, speed: Double)
        case walkOut(from: Double, to: Double, speed: Double)
        case stand(distance: Double)
        case randomWalk(RandomWalk)
        case demo
    }

    /// Name used on the command line (`walk-in`, `demo`, ...).
    public let name: String
    /// One-line description.
    public let summary: String
    let kind: Kind

    private init(name: String, summary: String, kind: Kind) {
        self.name = name
        self.summary = summary
        self.kind = kind
    }

    // MARK: Catalogue

    /// Walks in from 8 m to 0.5 m at 1 m/s after 2 s, then stands.
    public static let walkIn = Scenario(
        name: "walk-in", summary: "stand at 8 m for 2 s, walk in at 1 m/s to 0.5 m, stand",
        kind: .walkIn(from: 8, to: 0.5, speed: 1))
    /// Stands at 2 m.
    public static let stand = Scenario(
        name: "stand", summary: "stand still at 2 m, straight ahead", kind: .stand(distance: 2))
    /// Walks out from 0.5 m to 8 m at 1 m/s after 2 s, then stands.
    public static let walkOut = Scenario(
        name: "walk-out", summary: "stand at 0.5 m for 2 s, walk out at 1 m/s to 8 m, stand",
        kind: .walkOut(from: 0.5, to: 8, speed: 1))
    /// A 120 s seeded random walk between 0.5 m and 6 m.
    public static let randomWalk = Scenario(
        name: "random-walk", summary: "wander for 120 s between 0.5 m and 6 m at 0.5-1.3 m/s with pauses (seeded)",
        kind: .randomWalk(.standard))
    /// The demo: crosses 3 m and 1.5 m in both directions and hovers around 3 m (see
    /// ``demoWaypoints``).
    public static let demo = Scenario(
        name: "demo",
        summary: "60 s: walk in past 3 m and 1.5 m, step back, sway around 3 m, come close again, walk away",
        kind: .demo)

    /// Every named scenario, in the order the CLI lists them.
    public static let catalogue: [Scenario] = [.demo, .walkIn, .stand, .walkOut, .randomWalk]

    /// The names of the catalogue.
    public static var names: [String] { catalogue.map(\.name) }

    /// The catalogue scenario called `name` (case-insensitive).
    ///
    /// - Throws: ``SceneError`` (`unknownScenario`) listing the available names.
    public static func named(_ name: String) throws(SceneError) -> Scenario {
        guard let scenario = catalogue.first(where: { $0.name == name.lowercased() }) else {
            throw SceneError(.unknownScenario(name: name, available: names))
        }
        return scenario
    }

    // MARK: Parameterised scenarios

    private static let distanceRange = 0.3...100.0
    private static let speedRange = 0.1...3.0

    /// Stands at `from` for 2 s, walks in at `speed` to `to`, stands.
    ///
    /// - Throws: ``SceneError`` (`invalidParameter`) unless `0.3 ≤ to < from ≤ 100` m and
    ///   `0.1 ≤ speed ≤ 3` m/s.
    public static func walkIn(from: Double, to: Double, speed: Double = 1) throws(SceneError) -> Scenario {
        try check(from: from, to: to, speed: speed, approaching: true)
        return Scenario(
            name: "walk-in", summary: "stand at \(from) m for 2 s, walk in at \(speed) m/s to \(to) m, stand",
            kind: .walkIn(from: from, to: to, speed: speed))
    }

    /// Stands at `from` for 2 s, walks out at `speed` to `to`, stands.
    ///
    /// - Throws: ``SceneError`` (`invalidParameter`) unless `0.3 ≤ from < to ≤ 100` m and
    ///   `0.1 ≤ speed ≤ 3` m/s.
    public static func walkOut(from: Double, to: Double, speed: Double = 1) throws(SceneError) -> Scenario {
        try check(from: from, to: to, speed: speed, approaching: false)
        return Scenario(
            name: "walk-out", summary: "stand at \(from) m for 2 s, walk out at \(speed) m/s to \(to) m, stand",
            kind: .walkOut(from: from, to: to, speed: speed))
    }

    /// Stands still at `distance`.
    ///
    /// - Throws: ``SceneError`` (`invalidParameter`) unless `0.3 ≤ distance ≤ 100` m.
    public static func stand(distance: Double) throws(SceneError) -> Scenario {
        guard distanceRange.contains(distance) else {
            throw .invalid("stand distance", distance, "0.3 ... 100 m")
        }
        return Scenario(name: "stand", summary: "stand still at \(distance) m", kind: .stand(distance: distance))
    }

    /// A random walk with the given parameters (its centre is replaced by the host's position).
    public static func randomWalk(_ walk: RandomWalk) -> Scenario {
        Scenario(
            name: "random-walk",
            summary:
                "wander for \(walk.duration) s between \(walk.minimumRadius) m and \(walk.maximumRadius) m (seeded)",
            kind: .randomWalk(walk))
    }

    private static func check(from: Double, to: Double, speed: Double, approaching: Bool) throws(SceneError) {
        for (name, value) in [("from", from), ("to", to)] where !distanceRange.contains(value) {
            throw .invalid("walk \(name) distance", value, "0.3 ... 100 m")
        }
        if approaching ? to >= from : to <= from {
            throw .invalid(
                "walk to distance", to, approaching ? "less than from (\(from) m)" : "more than from (\(from) m)")
        }
        guard speedRange.contains(speed) else {
            throw .invalid("walk speed", speed, "0.1 ... 3 m/s")
        }
    }

    // MARK: Trajectories

    /// The host: at the origin, ``hostHeight`` up, facing north.
    public var hostPose: ScenePose { ScenePose(position: SceneVector(x: 0, y: 0, z: Self.hostHeight)) }

    /// The host's (stationary) trajectory.
    public var hostTrajectory: Trajectory { .stationary(at: hostPose.position) }

    /// The demo's waypoints for accessory 0: (time s, true distance m, bearing °). Straight
    /// legs between them; thresholds crossed (true distance): 3 m eight times (in at ~6.6 s, six
    /// times while swaying 2.88 ↔ 3.12 m between 19 s and 37 s, out at ~48 s) and 1.5 m four
    /// times (in ~8 s, out ~15 s, in ~41 s, out ~47 s).
    public static let demoWaypoints: [(time: Double, distance: Double, bearing: Double)] = [
        (0, 6, 30), (3, 6, 30),  // stand far, front right
        (9, 1, 10),  // walk in past 3 m and 1.5 m
        (14, 1, 10),  // stand close
        (17, 2.2, 0),  // step back past 1.5 m
        (19, 2.88, 0),  // approach the 3 m threshold
        (22, 3.12, 0), (25, 2.88, 0), (28, 3.12, 0), (31, 2.88, 0), (34, 3.12, 0), (37, 2.88, 0),  // sway
        (42, 1.2, -20),  // come close again, past 1.5 m
        (46, 1.2, -20),  // stand
        (54, 7, -40),  // walk away past 1.5 m and 3 m
        (60, 7, -40),  // stand far, front left
    ]

    /// Start delay of accessory `index` in walking scenarios, seconds.
    public func startDelay(forAccessory index: Int) -> Double {
        switch kind {
        case .walkIn, .walkOut: 3 * Double(max(index, 0))
        case .demo: 5 * Double(max(index, 0))
        case .stand, .randomWalk: 0
        }
    }

    /// Bearing offset of accessory `index`, degrees: 0, +35, -35, +70, -70, ...
    public static func bearingOffset(forAccessory index: Int) -> Double {
        let index = max(index, 0)
        let step = Double((index + 1) / 2) * accessoryBearingStep
        return index % 2 == 1 ? step : -step
    }

    /// How long accessory `index`'s motion lasts (it stands still afterwards), seconds.
    public func duration(forAccessory index: Int = 0) -> Double {
        let delay = startDelay(forAccessory: index)
        switch kind {
        case .walkIn(let from, let to, let speed), .walkOut(let from, let to, let speed):
            return delay + 2 + abs(from - to) / speed + 3
        case .stand:
            return 30
        case .randomWalk(let walk):
            return walk.duration
        case .demo:
            return delay + (Self.demoWaypoints.last?.time ?? 0)
        }
    }

    /// How long the scenario lasts with `accessories` accessories, seconds.
    public func duration(accessories: Int) -> Double {
        (0..<max(accessories, 1)).map { duration(forAccessory: $0) }.max() ?? 0
    }

    /// Trajectory of accessory `index` (0-based). `seed` only matters for the random walk (each
    /// accessory draws its own walk from it).
    public func trajectory(forAccessory index: Int, seed: UInt64 = 0) -> Trajectory {
        let delay = startDelay(forAccessory: index)
        let offset = Self.bearingOffset(forAccessory: index)
        let host = hostPose.position
        func point(_ distance: Double, _ bearing: Double) -> SceneVector {
            let rise = Self.accessoryHeight - Self.hostHeight
            let horizontal = max(distance * distance - rise * rise, 0).squareRoot()
            return SceneVector.polar(
                from: host, horizontal: horizontal, bearing: bearing + offset, z: Self.accessoryHeight)
        }
        // Before its first move an accessory faces the host (from bearing b, the host is at b + 180°).
        let firstBearing = kind == .demo ? (Self.demoWaypoints.first?.bearing ?? 0) : 0
        let facingHost = Trajectory.Orientation.facingTravel(initialYaw: firstBearing + offset + 180)
        switch kind {
        case .walkIn(let from, let to, let speed), .walkOut(let from, let to, let speed):
            let walk = abs(from - to) / speed
            return Trajectory(
                unchecked: [
                    .init(time: delay, position: point(from, 0)),
                    .init(time: delay + 2, position: point(from, 0)),
                    .init(time: delay + 2 + walk, position: point(to, 0)),
                ], orientation: facingHost)
        case .stand(let distance):
            let position = point(distance, 0)
            return Trajectory(unchecked: [.init(time: 0, position: position)], orientation: .facing(host))
        case .randomWalk(let walk):
            return walk.recentred(at: host, height: Self.accessoryHeight).trajectory(
                seed: SimulationRandom.derivedSeed(seed, "accessory-\(index)"))
        case .demo:
            return Trajectory(
                unchecked: Self.demoWaypoints.map {
                    .init(time: delay + $0.time, position: point($0.distance, $0.bearing))
                },
                orientation: facingHost)
        }
    }

    /// A scene with the host and `accessories` accessories (named ``SceneDeviceID/host`` and
    /// ``SceneDeviceID/accessory(_:)``) on this scenario's trajectories.
    ///
    /// - Throws: ``SceneError``: `invalidParameter` unless `1 ≤ accessories ≤ 16`; errors of
    ///   ``NoiseModel/validate()``.
    public func makeScene(accessories: Int = 1, noise: NoiseModel = .default, seed: UInt64 = 0) throws(SceneError)
        -> Scene
    {
        guard (1...16).contains(accessories) else {
            throw .invalid("accessory count", Double(accessories), "1 ... 16")
        }
        var scene = try Scene(noise: noise, seed: seed)
        scene.place(.host, on: hostTrajectory)
        for index in 0..<accessories {
            scene.place(.accessory(index), on: trajectory(forAccessory: index, seed: seed))
        }
        return scene
    }
}
