/// Decides when a distance is worth publishing: at most once per ``minimumInterval`` seconds,
/// and only when it moved at least ``step`` metres from the last published value (a still
/// accessory publishes nothing). Times are the events' clock, so a replay at full speed is
/// throttled in trace time. No allocation.
public struct DistanceThrottle: Sendable, Hashable {
    /// Seconds between two publications, at least (1 / rate).
    public var minimumInterval: Double
    /// Metres the distance must move.
    public var step: Double
    private var lastTime: Double?
    private var lastDistance: Double?

    /// - Parameters:
    ///   - rate: publications per second, at most (> 0).
    ///   - step: metres (≥ 0).
    public init(rate: Double, step: Double) {
        minimumInterval = rate > 0 ? 1 / rate : 0
        self.step = step
    }

    /// `true` if `distance` at `time` should be published now (then call ``published(_:at:)``).
    public func shouldPublish(_ distance: Double?, at time: Double) -> Bool {
        guard let distance else { return false }
        if let lastTime, time - lastTime < minimumInterval { return false }
        if let lastDistance, abs(distance - lastDistance) < step { return false }
        return true
    }

    /// Records a publication (also one made for another reason, such as a zone change).
    public mutating func published(_ distance: Double?, at time: Double) {
        lastTime = time
        if let distance { lastDistance = distance }
    }

    /// Forgets the last value (after `lost`, the next distance is published at once).
    public mutating func reset() {
        lastTime = nil
        lastDistance = nil
    }
}
