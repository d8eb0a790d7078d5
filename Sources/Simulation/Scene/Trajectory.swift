/// How a device moves: positions at keyframe times, linearly interpolated, and how it is
/// oriented. A pure function of time: ``pose(at:)`` depends on nothing else.
///
/// Before the first keyframe the device holds the first position, after the last it holds the
/// last one, so every trajectory is defined for all times.
public struct Trajectory: Sendable, Hashable {
    /// A position at a time.
    public struct Keyframe: Sendable, Hashable {
        /// Time, seconds.
        public var time: Double
        /// Position, metres.
        public var position: SceneVector

        /// Creates a keyframe (seconds, metres).
        public init(time: Double, position: SceneVector) {
            self.time = time
            self.position = position
        }
    }

    /// How the device's orientation follows its motion.
    public enum Orientation: Sendable, Hashable {
        /// Always the same yaw, pitch and roll (degrees): a device on a desk or a wall.
        case fixed(yaw: Double, pitch: Double, roll: Double)
        /// Level, heading along the horizontal direction of travel; while standing, the last
        /// heading (or `initialYaw` before the first move): a device carried by a walker.
        case facingTravel(initialYaw: Double)
        /// Level, heading toward a point: a device held toward the host.
        case facing(SceneVector)
    }

    /// The keyframes, strictly increasing in time (at least one).
    public let keyframes: [Keyframe]
    /// How orientation follows the motion.
    public let orientation: Orientation
    /// Heading of each segment for `.facingTravel` (carried forward over standing segments).
    private let segmentYaws: [Double]

    /// Creates a trajectory.
    ///
    /// - Throws: ``SceneError`` (`invalidParameter`) when there is no keyframe, a time or
    ///   coordinate is not finite, or times do not strictly increase.
    public init(keyframes: [Keyframe], orientation: Orientation = .facingTravel(initialYaw: 0)) throws(SceneError) {
        guard !keyframes.isEmpty else {
            throw .invalid("trajectory keyframe count", 0, "at least 1")
        }
        for (index, keyframe) in keyframes.enumerated() {
            guard keyframe.time.isFinite, keyframe.position.isFinite else {
                throw .invalid("trajectory keyframe \(index) time or position", keyframe.time, "finite numbers")
            }
            if index > 0 && keyframe.time <= keyframes[index - 1].time {
                throw .invalid(
                    "trajectory keyframe \(index) time", keyframe.time,
                    "greater than keyframe \(index - 1) time \(keyframes[index - 1].time)")
            }
        }
        self.init(unchecked: keyframes, orientation: orientation)
    }

    /// For keyframes already validated (or built valid by this module): no checks.
    init(unchecked keyframes: [Keyframe], orientation: Orientation) {
        self.keyframes = keyframes
        self.orientation = orientation
        var yaws: [Double] = []
        var lastYaw: Double
        if case .facingTravel(let initialYaw) = orientation { lastYaw = initialYaw } else { lastYaw = 0 }
        for index in keyframes.indices.dropLast() {
            let step = keyframes[index + 1].position - keyframes[index].position
            if step.horizontalLength > 1e-9 {
                lastYaw = SceneMath.degrees(SceneMath.atan2(step.x, step.y))
            }
            yaws.append(lastYaw)
        }
        segmentYaws = yaws
    }

    /// A device that never moves.
    public static func stationary(at position: SceneVector, yaw: Double = 0, pitch: Double = 0, roll: Double = 0)
        -> Trajectory
    {
        Trajectory(
            unchecked: [Keyframe(time: 0, position: position)], orientation: .fixed(yaw: yaw, pitch: pitch, roll: roll))
    }

    /// Time of the last keyframe, seconds (the device holds still afterwards).
    public var endTime: Double { keyframes[keyframes.count - 1].time }

    /// Index of the segment `keyframes[i] ... keyframes[i + 1]` holding `time`, or `nil` before
    /// the first or after the last keyframe.
    private func segment(at time: Double) -> Int? {
        guard keyframes.count > 1, time > keyframes[0].time, time < endTime else { return nil }
        var low = 0
        var high = keyframes.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if keyframes[middle].time <= time { low = middle } else { high = middle }
        }
        return low
    }

    /// Position at `time` (seconds), metres.
    public func position(at time: Double) -> SceneVector {
        guard let index = segment(at: time) else {
            return time <= keyframes[0].time ? keyframes[0].position : keyframes[keyframes.count - 1].position
        }
        let start = keyframes[index]
        let end = keyframes[index + 1]
        let fraction = (time - start.time) / (end.time - start.time)
        return start.position + (end.position - start.position) * fraction
    }

    /// Pose at `time` (seconds).
    public func pose(at time: Double) -> ScenePose {
        let position = position(at: time)
        switch orientation {
        case .fixed(let yaw, let pitch, let roll):
            return ScenePose(position: position, yaw: yaw, pitch: pitch, roll: roll)
        case .facingTravel(let initialYaw):
            let yaw: Double
            if let index = segment(at: time) {
                yaw = segmentYaws[index]
            } else {
                yaw = time <= keyframes[0].time ? initialYaw : (segmentYaws.last ?? initialYaw)
            }
            return ScenePose(position: position, yaw: yaw)
        case .facing(let point):
            let offset = point - position
            let yaw = offset.horizontalLength > 1e-9 ? SceneMath.degrees(SceneMath.atan2(offset.x, offset.y)) : 0
            return ScenePose(position: position, yaw: yaw)
        }
    }
}
