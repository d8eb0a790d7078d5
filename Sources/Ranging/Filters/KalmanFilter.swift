/// A constant-velocity Kalman filter for irregularly timed measurements (`kalman`), with
/// measurement noise from FoM / NLoS and an innovation gate that rejects outliers and re-locks
/// after a real step.
///
/// State: value p and rate v, covariance P (2×2). Between measurements the state is predicted
/// over the real elapsed time dt with continuous white-noise acceleration of spectral density
/// q (``Parameters/processNoise``):
/// `p += v·dt`, `P = F P Fᵀ + q·[[dt³/3, dt²/2], [dt²/2, dt]]`.
///
/// Measurement noise: `σ = measurementNoise · (NLoS ? nonLineOfSightFactor : 1) /
/// max(weight, minimumWeight)`, weight = FoM / 100 (1 when unknown); `R = σ²`.
///
/// Gate: with innovation `y = z − p` and `S = P₀₀ + R`, a measurement with `y² > gate²·S` is
/// rejected and the prediction is returned. Rejected measurements that follow each other and
/// agree (each within ``Parameters/relockSpread`` of the previous rejected one) are a real step,
/// not a spike: after ``Parameters/relockCount`` of them the filter re-initialises at the latest
/// one. Isolated spikes and bursts of up to `relockCount − 1` samples are removed (the bundled
/// Hanyang traces hold bursts of 3 consistent outliers, hence the default 4). Because P grows
/// with dt, a measurement after a gap is judged with a wider gate.
public struct KalmanFilter: RangeFilter {
    /// Parameters of the Kalman filter (unit = metres for distance, degrees for angles).
    public struct Parameters: Sendable, Hashable {
        /// σ of a line-of-sight measurement with full confidence, unit (> 0).
        public var measurementNoise: Double
        /// Spectral density q of the white-noise acceleration, unit²/s³ (≥ 0). Larger follows
        /// accelerations faster, smooths less.
        public var processNoise: Double
        /// Multiplier of σ for measurements flagged NLoS (≥ 1).
        public var nonLineOfSightFactor: Double
        /// Lower bound of the weight (FoM / 100) when scaling σ, 0 < minimumWeight ≤ 1.
        public var minimumWeight: Double
        /// Innovation gate in standard deviations (> 0); `.infinity` disables gating.
        public var gate: Double
        /// Consecutive agreeing rejected measurements that trigger a re-lock (≥ 1).
        public var relockCount: Int
        /// Largest difference between consecutive rejected measurements that still agree, unit.
        public var relockSpread: Double
        /// σ of the rate at (re)initialisation, unit/s (> 0).
        public var initialRateNoise: Double

        /// Creates parameters; values outside their ranges are clamped to the nearest valid one.
        public init(
            measurementNoise: Double, processNoise: Double, nonLineOfSightFactor: Double = 3,
            minimumWeight: Double = 0.1, gate: Double = 4, relockCount: Int = 4, relockSpread: Double,
            initialRateNoise: Double
        ) {
            self.measurementNoise = measurementNoise > 0 ? measurementNoise : 1e-3
            self.processNoise = max(processNoise, 0)
            self.nonLineOfSightFactor = max(nonLineOfSightFactor, 1)
            self.minimumWeight = min(max(minimumWeight, 1e-3), 1)
            self.gate = gate > 0 ? gate : .infinity
            self.relockCount = max(relockCount, 1)
            self.relockSpread = max(relockSpread, 0)
            self.initialRateNoise = initialRateNoise > 0 ? initialRateNoise : 1
        }

        /// Tuned on the bundled traces for metres at 5–10 Hz (see `specs/filters.md`):
        /// distance σ 0.05 m, q 0.1 m²/s³, gate 4 σ, NLoS ×3, re-lock after 4 agreeing samples
        /// within 0.5 m, initial rate σ 1 m/s. Angles: σ 5°, q 300 °²/s³, re-lock spread 20°,
        /// initial rate σ 30 °/s (not tuned on data: no bundled trace has angles).
        public static func standard(for domain: FilterDomain) -> Parameters {
            switch domain {
            case .distance:
                Parameters(
                    measurementNoise: 0.05, processNoise: 0.1, nonLineOfSightFactor: 3, minimumWeight: 0.1,
                    gate: 4, relockCount: 4, relockSpread: 0.5, initialRateNoise: 1)
            case .angle:
                Parameters(
                    measurementNoise: 5, processNoise: 300, nonLineOfSightFactor: 3, minimumWeight: 0.1,
                    gate: 4, relockCount: 4, relockSpread: 20, initialRateNoise: 30)
            }
        }
    }

    /// The parameters in use.
    public let parameters: Parameters
    private var initialized = false
    private var position = 0.0
    private var velocity = 0.0
    private var p00 = 0.0
    private var p01 = 0.0
    private var p11 = 0.0
    private var lastTime = 0.0
    private var gate: InnovationGate

    /// Creates the filter.
    public init(_ parameters: Parameters) {
        self.parameters = parameters
        gate = InnovationGate(parameters)
    }

    /// Number of consecutive measurements rejected by the gate so far (0 after an accepted one).
    public var consecutiveRejections: Int { gate.rejectedRun }

    /// The rate estimate after the last update, unit/s; `nil` before the first measurement.
    public private(set) var rate: Double?

    /// The current variance of the value estimate, unit²; `nil` before the first measurement.
    public var variance: Double? { initialized ? p00 : nil }

    @inline(__always)
    private mutating func initialize(at value: Double, time: Double, variance: Double) {
        initialized = true
        position = value
        velocity = 0
        p00 = variance
        p01 = 0
        p11 = parameters.initialRateNoise * parameters.initialRateNoise
        lastTime = time
        gate.reset()
    }

    /// Predicts to `input.time`, gates and (if accepted) corrects; returns the estimate.
    @inline(__always)
    public mutating func update(_ input: FilterInput) -> Double {
        let z = input.value
        let r = gate.measurementVariance(input)
        guard initialized else {
            initialize(at: z, time: input.time, variance: r)
            rate = velocity
            return z
        }
        // Predict over the elapsed time (a time that does not advance predicts nothing).
        let dt = max(input.time - lastTime, 0)
        if input.time > lastTime { lastTime = input.time }
        if dt > 0 {
            let q = parameters.processNoise
            let dt2 = dt * dt
            position += velocity * dt
            p00 += dt * (2 * p01 + dt * p11) + q * dt2 * dt * (1.0 / 3.0)
            p01 += dt * p11 + q * dt2 * 0.5
            p11 += q * dt
        }
        // Gate.
        let innovation = z - position
        let s = p00 + r
        switch gate.judge(z, innovation: innovation, variance: s) {
        case .accept: break
        case .reject:
            rate = velocity
            return position
        case .relock:
            initialize(at: z, time: lastTime, variance: r)
            rate = velocity
            return z
        }
        // Correct.
        let inverseS = 1 / s
        let k0 = p00 * inverseS
        let k1 = p01 * inverseS
        position += k0 * innovation
        velocity += k1 * innovation
        let newP00 = (1 - k0) * p00
        let newP01 = (1 - k0) * p01
        let newP11 = p11 - k1 * p01
        p00 = newP00
        p01 = newP01
        p11 = newP11
        // An absurd time gap (≈ 1e100 s) overflows the covariance: start over rather than carry
        // NaN forever.
        guard position.isFinite, p00.isFinite, p11.isFinite else {
            initialize(at: z, time: lastTime, variance: r)
            rate = velocity
            return z
        }
        rate = velocity
        return position
    }

    /// Forgets the state (the next measurement initialises the filter).
    public mutating func reset() {
        initialized = false
        gate.reset()
        rate = nil
    }
}
