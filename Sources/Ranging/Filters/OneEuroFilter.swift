/// The 1€ filter (Casiez, Roussel, Vogel, CHI 2012; reference implementation casiez/OneEuroFilter):
/// a low-pass filter whose cutoff rises with the speed of the signal, so it smooths jitter when
/// still and lags little when moving (`one-euro`).
///
/// Per sample x at time t:
/// 1. `freq = 1 / (t − t_prev)` when a previous time exists and t advanced (else the last
///    frequency, initially ``Parameters/frequency``);
/// 2. `α(fc) = 1 / (1 + τ / Te)`, τ = 1 / (2π·fc), Te = 1 / freq;
/// 3. `dx = (x − previous filtered x) · freq` (0 on the first sample);
/// 4. `edx = LPF(dx, α(derivativeCutoff))`, `cutoff = minimumCutoff + beta · |edx|`;
/// 5. `out = LPF(x, α(cutoff))`; each low-pass filter passes its first value through.
///
/// This reproduces the reference vector `data/oneeuro/groundTruth.csv` within 1e-5
/// (tested). ``rate`` is `edx`, the smoothed speed in unit/s.
public struct OneEuroFilter: RangeFilter {
    /// Parameters of the 1€ filter.
    public struct Parameters: Sendable, Hashable {
        /// Cutoff frequency when the signal is still, Hz (> 0). Lower = smoother and laggier.
        public var minimumCutoff: Double
        /// Speed coefficient, 1 / unit (≥ 0): the cutoff rises by `beta` Hz per unit/s of speed.
        /// Higher = less lag when moving.
        public var beta: Double
        /// Cutoff of the speed estimate, Hz (> 0).
        public var derivativeCutoff: Double
        /// Sampling frequency assumed until two timestamps are known, Hz (> 0).
        public var frequency: Double

        /// Creates parameters; non-positive frequencies are replaced by 1 Hz, a negative beta by 0.
        public init(minimumCutoff: Double, beta: Double, derivativeCutoff: Double = 1, frequency: Double = 10) {
            self.minimumCutoff = minimumCutoff > 0 ? minimumCutoff : 1
            self.beta = max(beta, 0)
            self.derivativeCutoff = derivativeCutoff > 0 ? derivativeCutoff : 1
            self.frequency = frequency > 0 ? frequency : 1
        }

        /// Tuned on the bundled traces for metres at 5–10 Hz (see `specs/filters.md`): distance
        /// `minimumCutoff` 0.2 Hz, `beta` 3 /m, `derivativeCutoff` 1 Hz. Angles use the same
        /// cutoffs with `beta` 0.1 /° (scaled for degrees; not tuned on data: no bundled trace
        /// has angles).
        public static func standard(for domain: FilterDomain) -> Parameters {
            switch domain {
            case .distance: Parameters(minimumCutoff: 0.2, beta: 3, derivativeCutoff: 1, frequency: 10)
            case .angle: Parameters(minimumCutoff: 0.2, beta: 0.1, derivativeCutoff: 1, frequency: 10)
            }
        }
    }

    /// The parameters in use.
    public let parameters: Parameters
    private var frequency: Double
    private var lastTime: Double?
    private var filtered: Double?
    private var filteredSpeed = 0.0

    /// Creates the filter.
    public init(_ parameters: Parameters) {
        self.parameters = parameters
        self.frequency = parameters.frequency
    }

    /// α = 1 / (1 + τ / Te) with τ = 1 / (2π·cutoff) and Te = 1 / frequency, written with one
    /// division: 2π·cutoff / (2π·cutoff + frequency).
    @inline(__always)
    private func alpha(cutoff: Double) -> Double {
        let omega = 2 * Double.pi * cutoff
        return omega / (omega + frequency)
    }

    /// Filters one value (see the type's description for the steps).
    @inline(__always)
    public mutating func update(_ input: FilterInput) -> Double {
        let x = input.value
        if let lastTime, input.time > lastTime {
            let measured = 1 / (input.time - lastTime)
            if measured.isFinite { frequency = measured }
        }
        lastTime = input.time
        guard let previous = filtered else {
            filtered = x
            filteredSpeed = 0
            rate = 0
            return x
        }
        let dx = (x - previous) * frequency
        let ad = alpha(cutoff: parameters.derivativeCutoff)
        filteredSpeed = ad * dx + (1 - ad) * filteredSpeed
        let cutoff = parameters.minimumCutoff + parameters.beta * abs(filteredSpeed)
        let a = alpha(cutoff: cutoff)
        let output = a * x + (1 - a) * previous
        filtered = output
        rate = filteredSpeed
        return output
    }

    /// Forgets the state (the next value passes through).
    public mutating func reset() {
        frequency = parameters.frequency
        lastTime = nil
        filtered = nil
        filteredSpeed = 0
        rate = nil
    }

    /// The smoothed speed `edx` after the last update, unit/s; `nil` before the first sample.
    public private(set) var rate: Double?
}
