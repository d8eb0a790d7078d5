/// A causal Hampel outlier filter (`hampel`): a sample further than `threshold` robust standard
/// deviations from the median of the trailing window is replaced by that median; every other
/// sample passes unchanged. Compose it in front of any smoothing filter (`hampel+kalman`).
///
/// Window: the last `windowSize` raw samples including the current one (the textbook Hampel
/// window is centred, which needs future samples; a trailing window is the causal variant).
/// σ = max(1.4826 · MAD, ``Parameters/minimumDeviation``): the floor keeps quantised or very
/// quiet signals (MAD = 0) from turning every small change into an "outlier". With fewer than 3
/// samples nothing is judged. A real step passes after ⌈windowSize / 2⌉ samples at the new
/// level, when the median moves there.
public struct HampelFilter: RangeFilter {
    /// Parameters of the Hampel filter.
    public struct Parameters: Sendable, Hashable {
        /// Trailing window length including the current sample, 3 ... 255 (clamped).
        public var windowSize: Int
        /// Outlier threshold in robust standard deviations (> 0).
        public var threshold: Double
        /// Floor of the robust standard deviation, unit (≥ 0).
        public var minimumDeviation: Double

        /// Creates parameters; values outside their ranges are clamped.
        public init(windowSize: Int, threshold: Double = 3, minimumDeviation: Double) {
            self.windowSize = min(max(windowSize, 3), 255)
            self.threshold = threshold > 0 ? threshold : 3
            self.minimumDeviation = max(minimumDeviation, 0)
        }

        /// MathWorks' 7-sample window and 3 σ; σ floor 0.1 m for distance (tuned, see
        /// `specs/filters.md`: a lower floor flags real motion onsets), 5° for angles.
        public static func standard(for domain: FilterDomain) -> Parameters {
            switch domain {
            case .distance: Parameters(windowSize: 7, threshold: 3, minimumDeviation: 0.1)
            case .angle: Parameters(windowSize: 7, threshold: 3, minimumDeviation: 5)
            }
        }
    }

    /// The parameters in use.
    public let parameters: Parameters
    private var window: SampleWindow<Double>
    private var scratch: [Double]
    private var replaced = false

    /// Creates the filter; window and scratch storage are allocated here, once.
    public init(_ parameters: Parameters) {
        self.parameters = parameters
        self.window = SampleWindow(capacity: parameters.windowSize, filler: 0)
        self.scratch = Array(repeating: 0, count: parameters.windowSize)
    }

    /// `true` if the last ``update(_:)`` replaced its sample by the window median.
    public var replacedLastSample: Bool { replaced }

    /// Returns the sample, or the window median if the sample is an outlier.
    public mutating func update(_ input: FilterInput) -> Double {
        let x = input.value
        window.append(x)
        let n = window.count
        guard n >= 3 else {
            replaced = false
            return x
        }
        let window = self.window
        let parameters = self.parameters
        let (median, isOutlier) = scratch.withUnsafeMutableBufferPointer { buffer -> (Double, Bool) in
            for i in 0..<n { buffer[i] = window[i] }
            Sorting.insertionSort(buffer, count: n)
            let median = Sorting.medianOfSorted(buffer, count: n)
            for i in 0..<n { buffer[i] = abs(buffer[i] - median) }
            Sorting.insertionSort(buffer, count: n)
            let mad = Sorting.medianOfSorted(buffer, count: n)
            let sigma = max(1.4826 * mad, parameters.minimumDeviation)
            return (median, abs(x - median) > parameters.threshold * sigma)
        }
        replaced = isOutlier
        return isOutlier ? median : x
    }

    /// Empties the window.
    public mutating func reset() {
        window.removeAll()
        replaced = false
    }
}
