/// The "N-period" exponential moving average of thotro/arduino-dw1000 (`ema`):
/// `k = 2 / (N + 1)`, `out = value · k + previous · (1 − k)`; the first value passes through.
///
/// Not time-aware (one step per sample), as the original. N = 15 gives k = 0.125; its group
/// delay is (1 − k) / k = 7 samples.
public struct ExponentialMovingAverageFilter: RangeFilter {
    /// Parameters of the EMA.
    public struct Parameters: Sendable, Hashable {
        /// Number of periods N ≥ 1 (clamped); N = 1 passes every value through.
        public var periods: Int

        /// Creates parameters; `periods` is clamped to ≥ 1.
        public init(periods: Int) {
            self.periods = max(periods, 1)
        }

        /// The smoothing factor k = 2 / (N + 1).
        public var smoothingFactor: Double { 2 / Double(periods + 1) }

        /// arduino-dw1000's N = 15, for distance and angles alike.
        public static func standard(for domain: FilterDomain) -> Parameters {
            Parameters(periods: 15)
        }
    }

    /// The parameters in use.
    public let parameters: Parameters
    private let k: Double
    private var previous: Double?

    /// Creates the filter.
    public init(_ parameters: Parameters) {
        self.parameters = parameters
        self.k = parameters.smoothingFactor
    }

    /// Returns `value · k + previous · (1 − k)`, or the value itself the first time.
    @inline(__always)
    public mutating func update(_ input: FilterInput) -> Double {
        guard let previous else {
            self.previous = input.value
            return input.value
        }
        let output = input.value * k + previous * (1 - k)
        self.previous = output
        return output
    }

    /// Forgets the previous output.
    public mutating func reset() {
        previous = nil
    }
}
