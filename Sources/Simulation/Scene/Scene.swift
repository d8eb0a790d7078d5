/// A shared simulated space: named devices moving on trajectories, and one radio link per pair
/// of devices with its own NLoS state and random stream.
///
/// The virtual UWB subsystem asks, at each ranging round, for the true geometry between two
/// devices (``geometry(from:to:at:)``) and for what a UWB subsystem would report
/// (``measure(from:to:at:)``). The scene is a value; whoever shares it between devices (the
/// virtual UWBS) keeps it in one actor.
///
/// Determinism: a link's random stream is seeded from the scene seed and the two device names
/// (not from Swift's per-process random hashing), so the same seed, devices and sequence of
/// calls give the same measurements on every run. A link is shared by both directions (the
/// radio channel is reciprocal): measuring B from A and A from B advance the same stream.
public struct Scene: Sendable {
    /// The noise every link uses.
    public let noise: NoiseModel
    /// The seed all link streams derive from.
    public let seed: UInt64
    private var trajectories: [SceneDeviceID: Trajectory] = [:]
    private var links: [LinkKey: RadioChannel] = [:]

    private struct LinkKey: Hashable {
        var first: SceneDeviceID
        var second: SceneDeviceID
        init(_ a: SceneDeviceID, _ b: SceneDeviceID) {
            (first, second) = a < b ? (a, b) : (b, a)
        }
    }

    /// An empty scene.
    ///
    /// - Throws: ``SceneError`` when ``NoiseModel/validate()`` rejects `noise`.
    public init(noise: NoiseModel = .default, seed: UInt64 = 0) throws(SceneError) {
        try noise.validate()
        self.noise = noise
        self.seed = seed
    }

    /// Puts `device` on `trajectory`, replacing its previous one (its links keep their state).
    public mutating func place(_ device: SceneDeviceID, on trajectory: Trajectory) {
        trajectories[device] = trajectory
    }

    /// Removes `device` and its links.
    public mutating func remove(_ device: SceneDeviceID) {
        trajectories[device] = nil
        links = links.filter { $0.key.first != device && $0.key.second != device }
    }

    /// The devices in the scene, sorted by name.
    public var devices: [SceneDeviceID] { trajectories.keys.sorted() }

    /// The trajectory of `device`, `nil` if it is not in the scene.
    public func trajectory(of device: SceneDeviceID) -> Trajectory? {
        trajectories[device]
    }

    /// Pose of `device` at `time` (seconds).
    ///
    /// - Throws: ``SceneError`` (`unknownDevice`) if the device is not in the scene.
    public func pose(of device: SceneDeviceID, at time: Double) throws(SceneError) -> ScenePose {
        guard let trajectory = trajectories[device] else {
            throw SceneError(.unknownDevice(name: device.name, known: devices.map(\.name)))
        }
        return trajectory.pose(at: time)
    }

    /// True distance and direction of `target` seen from `observer` at `time`, in the observer's
    /// frame (see ``RelativeGeometry``).
    ///
    /// - Throws: ``SceneError`` (`unknownDevice`) if either device is not in the scene.
    public func geometry(from observer: SceneDeviceID, to target: SceneDeviceID, at time: Double) throws(SceneError)
        -> RelativeGeometry
    {
        RelativeGeometry(from: try pose(of: observer, at: time), to: try pose(of: target, at: time).position)
    }

    /// One ranging round at `time`: the true geometry of `target` from `observer` and what the
    /// observer's UWB subsystem reports, with the link's noise and NLoS state.
    ///
    /// - Throws: ``SceneError`` (`unknownDevice`) if either device is not in the scene.
    public mutating func measure(from observer: SceneDeviceID, to target: SceneDeviceID, at time: Double)
        throws(SceneError)
        -> SimulatedMeasurement
    {
        let truth = try geometry(from: observer, to: target, at: time)
        let key = LinkKey(observer, target)
        var channel: RadioChannel
        if let existing = links[key] {
            channel = existing
        } else {
            let linkSeed = SimulationRandom.derivedSeed(seed, "link|\(key.first.name)|\(key.second.name)")
            channel = try RadioChannel(model: noise, seed: linkSeed)
        }
        let measurement = channel.measure(truth, at: time)
        links[key] = channel
        return measurement
    }

    /// One two-way round at `time` between `a` and `b`: what `a`'s UWB subsystem reports of `b`,
    /// then what `b`'s reports of `a`. The same as ``measure(from:to:at:)`` from `a` to `b` and
    /// then from `b` to `a` (the same values, the link's stream advanced the same way), with each
    /// pose computed and the link looked up once: the virtual UWBS measures both sides of every
    /// round.
    ///
    /// - Throws: ``SceneError`` (`unknownDevice`) if either device is not in the scene.
    public mutating func measureExchange(_ a: SceneDeviceID, _ b: SceneDeviceID, at time: Double)
        throws(SceneError) -> (SimulatedMeasurement, SimulatedMeasurement)
    {
        let poseA = try pose(of: a, at: time)
        let poseB = try pose(of: b, at: time)
        let truthAB = RelativeGeometry(from: poseA, to: poseB.position)
        let truthBA = RelativeGeometry(from: poseB, to: poseA.position)
        let key = LinkKey(a, b)
        if let index = links.index(forKey: key) {
            // In place: the channel (with its noise model) is neither copied out nor written back.
            let first = links.values[index].measure(truthAB, at: time)
            return (first, links.values[index].measure(truthBA, at: time))
        }
        let linkSeed = SimulationRandom.derivedSeed(seed, "link|\(key.first.name)|\(key.second.name)")
        var channel = try RadioChannel(model: noise, seed: linkSeed)
        let first = channel.measure(truthAB, at: time)
        let second = channel.measure(truthBA, at: time)
        links[key] = channel
        return (first, second)
    }

    /// A trace of `target` seen from `observer`: one round at `start + k · interval` for every
    /// `k ≥ 0` with `k · interval < duration` (a round that would fall on `start + duration`,
    /// within a billionth of an interval, is left out).
    ///
    /// - Throws: ``SceneError``: `unknownDevice`; `invalidParameter` unless `interval > 0`,
    ///   `duration ≥ 0` and the trace has at most 10,000,000 rounds.
    public mutating func trace(
        from observer: SceneDeviceID, to target: SceneDeviceID, interval: Double, duration: Double, start: Double = 0
    ) throws(SceneError) -> [SimulatedMeasurement] {
        guard interval > 0, interval.isFinite else {
            throw .invalid("trace interval", interval, "> 0 s")
        }
        guard duration >= 0, duration.isFinite, duration / interval <= 10_000_000 else {
            throw .invalid("trace duration", duration, "0 ... \(interval * 10_000_000) s (at most 10,000,000 rounds)")
        }
        var count = Int((duration / interval).rounded(.down))
        if Double(count) * interval < duration - interval * 1e-9 {
            count += 1
        }
        var trace: [SimulatedMeasurement] = []
        trace.reserveCapacity(count)
        for index in 0..<count {
            trace.append(try measure(from: observer, to: target, at: start + Double(index) * interval))
        }
        return trace
    }
}
