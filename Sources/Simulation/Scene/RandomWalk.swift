/// A bounded, seeded random walk around a centre: a person wandering in a room with the
/// accessory. ``trajectory(seed:)`` turns it into a ``Trajectory``, so the walk is a pure
/// function of time and seed.
///
/// The walker repeatedly picks a target uniformly (by area) in the annulus
/// `minimumRadius ... maximumRadius` around `center`, walks to it in a straight line at a speed
/// drawn from `speeds`, then, with probability `pauseProbability`, stands for a time drawn from
/// `pauses`. A leg whose straight line would pass closer than `minimumRadius` to the centre is
/// redrawn (up to 32 times, then the walker moves radially), so the whole path stays inside the
/// annulus. The walk starts at a random point of the annulus and lasts at least `duration`.
public struct RandomWalk: Sendable, Hashable {
    /// Centre of the annulus (its `z` is ignored), metres.
    public let center: SceneVector
    /// Height of the walker's device, metres.
    public let height: Double
    /// Closest horizontal distance to the centre, metres.
    public let minimumRadius: Double
    /// Farthest horizontal distance from the centre, metres.
    public let maximumRadius: Double
    /// Walking speeds, m/s.
    public let speeds: ClosedRange<Double>
    /// Standing times, seconds.
    public let pauses: ClosedRange<Double>
    /// Probability of standing after each leg.
    public let pauseProbability: Double
    /// Minimum length of the generated walk, seconds.
    public let duration: Double

    /// Creates a random walk description.
    ///
    /// - Throws: ``SceneError`` (`invalidParameter`) unless `0 ≤ minimumRadius < maximumRadius`,
    ///   speeds are positive, pauses are non-negative, `pauseProbability` is in 0 ... 1 and
    ///   `duration` is positive and at most 86400 s.
    public init(
        center: SceneVector = .zero,
        height: Double = Scenario.accessoryHeight,
        minimumRadius: Double = 0.5,
        maximumRadius: Double = 6,
        speeds: ClosedRange<Double> = 0.5...1.3,
        pauses: ClosedRange<Double> = 0.5...4,
        pauseProbability: Double = 0.5,
        duration: Double = 120
    ) throws(SceneError) {
        guard minimumRadius >= 0, minimumRadius.isFinite else {
            throw .invalid("random walk minimumRadius", minimumRadius, "≥ 0 m")
        }
        guard maximumRadius > minimumRadius, maximumRadius.isFinite else {
            throw .invalid("random walk maximumRadius", maximumRadius, "greater than minimumRadius \(minimumRadius) m")
        }
        guard speeds.lowerBound > 0, speeds.upperBound.isFinite else {
            throw .invalid("random walk minimum speed", speeds.lowerBound, "> 0 m/s")
        }
        guard pauses.lowerBound >= 0, pauses.upperBound.isFinite else {
            throw .invalid("random walk minimum pause", pauses.lowerBound, "≥ 0 s")
        }
        guard (0...1).contains(pauseProbability) else {
            throw .invalid("random walk pauseProbability", pauseProbability, "0 ... 1")
        }
        guard duration > 0, duration <= 86_400 else {
            throw .invalid("random walk duration", duration, "0 < duration ≤ 86400 s")
        }
        guard height.isFinite, center.isFinite else {
            throw .invalid("random walk height", height, "a finite number of metres")
        }
        self.init(
            unchecked: center, height: height, minimumRadius: minimumRadius, maximumRadius: maximumRadius,
            speeds: speeds, pauses: pauses, pauseProbability: pauseProbability, duration: duration)
    }

    private init(
        unchecked center: SceneVector, height: Double, minimumRadius: Double, maximumRadius: Double,
        speeds: ClosedRange<Double>, pauses: ClosedRange<Double>, pauseProbability: Double, duration: Double
    ) {
        self.center = center
        self.height = height
        self.minimumRadius = minimumRadius
        self.maximumRadius = maximumRadius
        self.speeds = speeds
        self.pauses = pauses
        self.pauseProbability = pauseProbability
        self.duration = duration
    }

    /// The defaults: around the origin at ``Scenario/accessoryHeight``, 0.5-6 m, 0.5-1.3 m/s,
    /// pauses of 0.5-4 s after half the legs, 120 s.
    public static let standard = RandomWalk(
        unchecked: .zero, height: Scenario.accessoryHeight, minimumRadius: 0.5, maximumRadius: 6, speeds: 0.5...1.3,
        pauses: 0.5...4, pauseProbability: 0.5, duration: 120)

    /// The same walk around another centre and at another height (both finite).
    func recentred(at center: SceneVector, height: Double) -> RandomWalk {
        RandomWalk(
            unchecked: center, height: height, minimumRadius: minimumRadius, maximumRadius: maximumRadius,
            speeds: speeds, pauses: pauses, pauseProbability: pauseProbability, duration: duration)
    }

    /// The walk for `seed`: the same seed always gives the same trajectory. The walker faces
    /// its direction of travel.
    public func trajectory(seed: UInt64) -> Trajectory {
        var random = SimulationRandom(seed: SimulationRandom.derivedSeed(seed, "random-walk"))
        var time = 0.0
        var current = randomPoint(&random)
        var keyframes = [Trajectory.Keyframe(time: 0, position: current)]
        while time < duration {
            let target = nextTarget(from: current, &random)
            let legLength = (target - current).length
            let speed = random.uniform(in: speeds)
            time += max(legLength / speed, 0.05)
            keyframes.append(.init(time: time, position: target))
            current = target
            if random.bernoulli(pauseProbability) {
                let pause = random.uniform(in: pauses)
                if pause > 0 {
                    time += pause
                    keyframes.append(.init(time: time, position: current))
                }
            }
        }
        return Trajectory(unchecked: keyframes, orientation: .facingTravel(initialYaw: 0))
    }

    private func randomPoint(_ random: inout SimulationRandom) -> SceneVector {
        let inner = minimumRadius * minimumRadius
        let outer = maximumRadius * maximumRadius
        let radius = (inner + (outer - inner) * random.uniform()).squareRoot()
        let bearing = random.uniform(in: -180...180)
        return SceneVector.polar(from: center, horizontal: radius, bearing: bearing, z: height)
    }

    private func nextTarget(from current: SceneVector, _ random: inout SimulationRandom) -> SceneVector {
        for _ in 0..<32 {
            let candidate = randomPoint(&random)
            if horizontalDistanceToCenter(from: current, to: candidate) >= minimumRadius {
                return candidate
            }
        }
        // Move radially: a radial segment never comes closer than its nearer end.
        let offset = current - center
        let radius = random.uniform(in: minimumRadius...maximumRadius)
        let scale = offset.horizontalLength > 0 ? radius / offset.horizontalLength : 0
        return SceneVector(x: center.x + offset.x * scale, y: center.y + offset.y * scale, z: height)
    }

    /// Smallest horizontal distance between the centre and the segment `start ... end`.
    private func horizontalDistanceToCenter(from start: SceneVector, to end: SceneVector) -> Double {
        let (ax, ay) = (start.x - center.x, start.y - center.y)
        let (dx, dy) = (end.x - start.x, end.y - start.y)
        let lengthSquared = dx * dx + dy * dy
        let fraction = lengthSquared > 0 ? SceneMath.clamp(-(ax * dx + ay * dy) / lengthSquared, 0...1) : 0
        let (px, py) = (ax + fraction * dx, ay + fraction * dy)
        return (px * px + py * py).squareRoot()
    }
}
