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
    /// The window in arrival order (to know which sample leaves).
    private var window: SampleWindow<Double>
    /// The same samples kept sorted, updated incrementally (one removal, one insertion).
    private var sorted: [Double]
    private var replaced = false

    /// Creates the filter; window storage is allocated here, once.
    public init(_ parameters: Parameters) {
        self.parameters = parameters
        self.window = SampleWindow(capacity: parameters.windowSize, filler: 0)
        self.sorted = []
        self.sorted.reserveCapacity(parameters.windowSize)
    }

    /// `true` if the last ``update(_:)`` replaced its sample by the window median.
    public var replacedLastSample: Bool { replaced }

    /// Returns the sample, or the window median if the sample is an outlier.
    ///
    /// Cost O(window): the sorted copy is maintained by one removal and one insertion, and the
    /// MAD is found by merging the deviations below and above the median (both already ordered)
    /// instead of sorting them.
    public mutating func update(_ input: FilterInput) -> Double {
        let x = input.value
        if window.count == window.capacity, let oldest = window.first {
            remove(oldest)
        }
        window.append(x)
        insert(x)
        let n = sorted.count
        guard n >= 3 else {
            replaced = false
            return x
        }
        let parameters = self.parameters
        let (median, isOutlier) = sorted.withUnsafeBufferPointer { v -> (Double, Bool) in
            let mid = n / 2
            let median = n % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2
            // Deviations below the median grow leftwards, above it rightwards: merge them in
            // ascending order up to the middle rank(s).
            var left = (n - 1) / 2
            var right = left + 1
            let lowRank = (n - 1) / 2
            let highRank = n / 2
            var lowValue = 0.0
            var current = 0.0
            for rank in 0...highRank {
                let takeLeft: Bool
                if left < 0 {
                    takeLeft = false
                } else if right >= n {
                    takeLeft = true
                } else {
                    takeLeft = median - v[left] <= v[right] - median
                }
                if takeLeft {
                    current = median - v[left]
                    left -= 1
                } else {
                    current = v[right] - median
                    right += 1
                }
                if rank == lowRank { lowValue = current }
            }
            let mad = (lowValue + current) / 2
            let sigma = max(1.4826 * mad, parameters.minimumDeviation)
            return (median, abs(x - median) > parameters.threshold * sigma)
        }
        replaced = isOutlier
        return isOutlier ? median : x
    }

    private mutating func insert(_ x: Double) {
        sorted.append(x)
        var j = sorted.count - 1
        while j > 0 && sorted[j - 1] > x {
            sorted[j] = sorted[j - 1]
            j -= 1
        }
        sorted[j] = x
    }

    private mutating func remove(_ x: Double) {
        if let index = sorted.firstIndex(where: { $0 == x || ($0.isNaN && x.isNaN) }) {
            sorted.remove(at: index)
        } else {
            sorted.removeLast()
        }
    }

    /// Empties the window.
    public mutating func reset() {
        window.removeAll()
        sorted.removeAll(keepingCapacity: true)
        replaced = false
    }
}
