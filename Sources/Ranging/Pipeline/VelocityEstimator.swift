/// Differentiates a smoothed signal through a first-order low-pass filter (1 Hz cutoff by
/// default), time-aware: used for the velocity of filters without a rate model.
@usableFromInline
struct VelocityEstimator: Sendable {
    private let tau: Double
    private var lastValue: Double?
    private var lastTime = 0.0
    private(set) var rate: Double?

    /// - Parameter cutoff: Hz.
    @usableFromInline
    init(cutoff: Double = 1) {
        self.tau = 1 / (2 * Double.pi * cutoff)
    }

    @usableFromInline
    mutating func update(_ value: Double, at time: Double) -> Double? {
        defer {
            lastValue = value
            lastTime = time
        }
        guard let lastValue else { return nil }
        let dt = time - lastTime
        guard dt > 0 else { return rate }
        let raw = (value - lastValue) / dt
        guard raw.isFinite else { return rate }
        let alpha = 1 / (1 + tau / dt)
        let smoothed = rate.map { alpha * raw + (1 - alpha) * $0 } ?? raw
        rate = smoothed
        return smoothed
    }

    mutating func reset() {
        lastValue = nil
        rate = nil
    }
}
