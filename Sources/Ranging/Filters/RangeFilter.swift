/// One measurement handed to a ``RangeFilter``: a value with its time and quality.
///
/// The same filters smooth distances (metres) and angles (degrees): the unit of `value` is the
/// unit of the filter's parameters (see ``FilterDomain``).
public struct FilterInput: Sendable, Hashable {
    /// The measured value: metres for distance, degrees for angles.
    public var value: Double
    /// Time of the measurement in seconds (monotonic, any origin). Filters that use time
    /// (One-Euro, Kalman) treat a time that does not advance as "no time elapsed".
    public var time: Double
    /// Confidence of the measurement, 0 ... 1 (the UCI figure of merit / 100; 1 when unknown).
    public var weight: Double
    /// `true` if the measurement was flagged non-line-of-sight.
    public var isNonLineOfSight: Bool

    /// Creates a filter input.
    /// - Parameters:
    ///   - value: metres or degrees.
    ///   - time: seconds.
    ///   - weight: 0 ... 1, values outside are clamped.
    ///   - isNonLineOfSight: the NLoS flag, `false` when unknown.
    public init(value: Double, time: Double, weight: Double = 1, isNonLineOfSight: Bool = false) {
        self.value = value
        self.time = time
        self.weight = min(max(weight, 0), 1)
        self.isNonLineOfSight = isNonLineOfSight
    }
}

/// A one-dimensional smoothing filter: a value type whose state lives inline or in buffers
/// allocated once at initialisation, so ``update(_:)`` never allocates.
///
/// Conforming types: ``RawFilter``, ``MedianAverageFilter`` (`median3`),
/// ``MovingAverageFilter`` (`ma10`), ``ExponentialMovingAverageFilter`` (`ema`),
/// ``OneEuroFilter`` (`one-euro`), ``KalmanFilter`` (`kalman`), ``IMMFilter`` (`imm`, the
/// default), ``HampelFilter`` (`hampel`),
/// ``CircularFilter`` (angle wrapper) and ``ConfiguredFilter`` (run-time choice of the above).
public protocol RangeFilter: Sendable {
    /// Feeds one measurement and returns the filtered value (same unit as the input).
    mutating func update(_ input: FilterInput) -> Double

    /// Forgets all state: the next ``update(_:)`` behaves like the first one.
    mutating func reset()

    /// The filter's own estimate of the rate of change (unit per second) after the last update,
    /// or `nil` if the filter does not estimate one (only ``IMMFilter``, ``KalmanFilter`` and
    /// ``OneEuroFilter`` do).
    var rate: Double? { get }

    /// The filter's own variance of its estimate (unit²) after the last update, or `nil` if the
    /// filter has no uncertainty model (only ``IMMFilter`` and ``KalmanFilter`` have one).
    var variance: Double? { get }
}

extension RangeFilter {
    /// Filters without a rate model report none.
    public var rate: Double? { nil }

    /// Filters without an uncertainty model report none.
    public var variance: Double? { nil }
}

/// The identity filter (`raw`): returns every measurement unchanged.
public struct RawFilter: RangeFilter {
    /// Creates the identity filter.
    public init() {}

    /// Returns `input.value`.
    @inline(__always)
    public mutating func update(_ input: FilterInput) -> Double { input.value }

    /// No state to reset.
    public mutating func reset() {}
}
