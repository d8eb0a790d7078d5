/// A moving average of the last `windowSize` samples (`ma10`: the 10-sample average of Qorvo's
/// Nearby Interaction sample app).
///
/// Qorvo's app starts its circular buffer at zeros, so its first nine outputs are biased toward
/// 0 m; this filter averages only the samples received so far (the first output is the first
/// sample). Unweighted, as Qorvo's.
public struct MovingAverageFilter: RangeFilter {
    /// Parameters of the moving average.
    public struct Parameters: Sendable, Hashable {
        /// Number of samples averaged, 1 ... 1024 (clamped).
        public var windowSize: Int

        /// Creates parameters; the window size is clamped to 1 ... 1024.
        public init(windowSize: Int) {
            self.windowSize = min(max(windowSize, 1), 1024)
        }

        /// Qorvo's 10-sample window, for distance and angles alike.
        public static func standard(for domain: FilterDomain) -> Parameters {
            Parameters(windowSize: 10)
        }
    }

    /// The parameters in use.
    public let parameters: Parameters
    private var window: SampleWindow<Double>

    /// Creates the filter; the window is allocated here, once.
    public init(_ parameters: Parameters) {
        self.parameters = parameters
        self.window = SampleWindow(capacity: parameters.windowSize, filler: 0)
    }

    /// Adds the sample and returns the mean of the window. The sum is recomputed each time (no
    /// running sum that drifts with rounding).
    public mutating func update(_ input: FilterInput) -> Double {
        window.append(input.value)
        var sum = 0.0
        for i in 0..<window.count { sum += window[i] }
        return sum / Double(window.count)
    }

    /// Empties the window.
    public mutating func reset() {
        window.removeAll()
    }
}
