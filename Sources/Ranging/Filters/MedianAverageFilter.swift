/// Android's `MedAvgFilter` (AOSP `packages/modules/Uwb`, `correction/filtering`), the `median3`
/// filter: keep the last `windowSize` samples, sort them by value, drop the outer ones and
/// average the rest weighted by confidence.
///
/// Per update with `n` samples in the window (n ≤ `windowSize`):
/// `throwAway = round(n · (1 − inlierFraction) / 2)` (Java rounding, half up), reduced by one
/// when `2 · throwAway ≥ n`; the result is Σ v·w / Σ w over the remaining sorted samples, w =
/// ``FilterInput/weight``. `inlierFraction` 0 is a median, 1 a mean. Android's defaults are a
/// distance window of 3 with fraction 0 (median of 3; mean of 2 while only 2 samples exist) and an
/// angle window of 5 with fraction 0.5 (mean of the middle 3).
///
/// Differences from Android, on purpose: Android sorts a freshly allocated copy on every add;
/// this one sorts into scratch storage allocated at init (no allocation per sample). Android
/// feeds distance with weight 1 and drops angle samples whose FoM is 0; the pipeline feeds the
/// sample's FoM / 100 for both, floored at 0.01 so no measurement is dropped.
/// Android also returns the weighted mean timestamp; this filter returns values only.
public struct MedianAverageFilter: RangeFilter {
    /// Parameters of the median-average filter.
    public struct Parameters: Sendable, Hashable {
        /// Number of samples kept, 1 ... 255 (clamped).
        public var windowSize: Int
        /// Fraction of the window averaged, 0 ... 1 (clamped): 0 = median, 1 = mean.
        public var inlierFraction: Double

        /// Creates parameters; values outside the documented ranges are clamped.
        public init(windowSize: Int, inlierFraction: Double) {
            self.windowSize = min(max(windowSize, 1), 255)
            self.inlierFraction = min(max(inlierFraction, 0), 1)
        }

        /// Android's defaults: distance window 3 / 0 % inliers, angle window 5 / 50 % inliers.
        public static func standard(for domain: FilterDomain) -> Parameters {
            switch domain {
            case .distance: Parameters(windowSize: 3, inlierFraction: 0)
            case .angle: Parameters(windowSize: 5, inlierFraction: 0.5)
            }
        }
    }

    struct Weighted: Sendable {
        var value: Double
        var weight: Double
    }

    /// The parameters in use.
    public let parameters: Parameters
    private var window: SampleWindow<Weighted>
    private var scratch: [Weighted]

    /// Creates the filter; its window and scratch storage are allocated here, once.
    public init(_ parameters: Parameters) {
        self.parameters = parameters
        self.window = SampleWindow(capacity: parameters.windowSize, filler: Weighted(value: 0, weight: 0))
        self.scratch = Array(repeating: Weighted(value: 0, weight: 0), count: parameters.windowSize)
    }

    /// Adds the sample to the window and returns the weighted average of its middle part.
    public mutating func update(_ input: FilterInput) -> Double {
        window.append(Weighted(value: input.value, weight: input.weight))
        let n = window.count
        let cut = parameters.inlierFraction
        var throwAway = Int((Double(n) * (1 - cut) / 2 + 0.5).rounded(.down))
        if 2 * throwAway >= n { throwAway -= 1 }
        throwAway = max(throwAway, 0)
        let window = self.window
        return scratch.withUnsafeMutableBufferPointer { buffer in
            for i in 0..<n { buffer[i] = window[i] }
            // Insertion sort by value: the window is small.
            if n > 1 {
                for i in 1..<n {
                    let key = buffer[i]
                    var j = i - 1
                    while j >= 0 && buffer[j].value > key.value {
                        buffer[j + 1] = buffer[j]
                        j -= 1
                    }
                    buffer[j + 1] = key
                }
            }
            var weightedSum = 0.0
            var weightSum = 0.0
            var plainSum = 0.0
            for i in throwAway..<(n - throwAway) {
                weightedSum += buffer[i].value * buffer[i].weight
                weightSum += buffer[i].weight
                plainSum += buffer[i].value
            }
            if weightSum > 0 { return weightedSum / weightSum }
            return plainSum / Double(n - 2 * throwAway)
        }
    }

    /// Empties the window.
    public mutating func reset() {
        window.removeAll()
    }
}
