import RealModule

/// An interacting multiple model filter (`imm`, the default): it knows whether the accessory is
/// still or moving. Two Kalman filters run side by side on the same measurements, mixed by the
/// probability of each model; the output is the probability-weighted mean of their estimates.
///
/// - **still** (S): the value stays put. State p, variance P; between measurements p is unchanged
///   and `P += q_S·dt` (``Parameters/stillNoise``, a slow random walk). At rest it averages every
///   measurement since the accessory stopped: a running mean, far smoother than any fixed window.
/// - **moving** (M): constant velocity with white-noise acceleration of spectral density q_M
///   (``Parameters/movingNoise``), exactly the ``KalmanFilter``'s model:
///   `p += v·dt`, `P = F P Fᵀ + q_M·[[dt³/3, dt²/2], [dt²/2, dt]]`.
///
/// Each step (Blom and Bar-Shalom's IMM): the model probabilities are propagated through a
/// continuous-time Markov chain (S → M at ``Parameters/stillToMoving`` per second, M → S at
/// ``Parameters/movingToStill``: `P(switch in dt) = 1 − e^(−rate·dt)`); each model starts from the
/// probability-weighted mix of both estimates (S carries velocity 0 with no uncertainty); each
/// predicts and corrects with the measurement; the probabilities are updated with the Gaussian
/// likelihood of each model's innovation. A still accessory therefore makes S dominant within a
/// few samples (output ≈ running mean); the first samples of a movement make M dominant (output ≈
/// constant-velocity track, no lag).
///
/// Measurement noise, gate and re-lock are the ``KalmanFilter``'s:
/// `σ = measurementNoise · (NLoS ? nonLineOfSightFactor : 1) / max(weight, minimumWeight)`
/// (weight = FoM / 100, 1 when unknown). A measurement whose innovation against the *moving*
/// model's prediction exceeds `gate·√S_M` is rejected and the mixed prediction is returned (the
/// moving model is the wider of the two, so a real movement is never rejected for being
/// inconsistent with "still"). ``Parameters/relockCount`` consecutive rejected measurements that
/// agree (each within ``Parameters/relockSpread`` of the previous one) are a real step: the filter
/// restarts at the latest one. Bursts of up to `relockCount − 1` outliers are removed.
///
/// Cost: two 2-state corrections, one `exp` for the likelihood ratio and two for the switching
/// probabilities; no allocation.
public struct IMMFilter: RangeFilter {
    /// Parameters (unit = metres for distance, degrees for angles).
    public struct Parameters: Sendable, Hashable {
        /// σ of a line-of-sight measurement with full confidence, unit (> 0).
        public var measurementNoise: Double
        /// Random-walk density of the still model, unit²/s (≥ 0): how far a "still" value may
        /// drift. Smaller averages longer at rest.
        public var stillNoise: Double
        /// White-noise acceleration density of the moving model, unit²/s³ (≥ 0).
        public var movingNoise: Double
        /// Rate of switching from still to moving, 1/s (> 0).
        public var stillToMoving: Double
        /// Rate of switching from moving to still, 1/s (> 0).
        public var movingToStill: Double
        /// Probability of "still" at (re)initialisation, 0 < p < 1.
        public var initialStillProbability: Double
        /// Multiplier of σ for measurements flagged NLoS (≥ 1).
        public var nonLineOfSightFactor: Double
        /// Lower bound of the weight (FoM / 100) when scaling σ, 0 < minimumWeight ≤ 1.
        public var minimumWeight: Double
        /// Innovation gate in standard deviations of the moving model (> 0); `.infinity` disables it.
        public var gate: Double
        /// Consecutive agreeing rejected measurements that trigger a re-lock (≥ 1).
        public var relockCount: Int
        /// Largest difference between consecutive rejected measurements that still agree, unit.
        public var relockSpread: Double
        /// σ of the rate at (re)initialisation, unit/s (> 0).
        public var initialRateNoise: Double

        /// Creates parameters; values outside their ranges are clamped to the nearest valid one.
        public init(
            measurementNoise: Double, stillNoise: Double, movingNoise: Double, stillToMoving: Double = 0.1,
            movingToStill: Double = 0.1, initialStillProbability: Double = 0.9, nonLineOfSightFactor: Double = 3,
            minimumWeight: Double = 0.1, gate: Double = 4, relockCount: Int = 4, relockSpread: Double,
            initialRateNoise: Double
        ) {
            self.measurementNoise = measurementNoise > 0 ? measurementNoise : 1e-3
            self.stillNoise = max(stillNoise, 0)
            self.movingNoise = max(movingNoise, 0)
            self.stillToMoving = stillToMoving > 0 ? stillToMoving : 1e-6
            self.movingToStill = movingToStill > 0 ? movingToStill : 1e-6
            self.initialStillProbability = min(max(initialStillProbability, 1e-3), 1 - 1e-3)
            self.nonLineOfSightFactor = max(nonLineOfSightFactor, 1)
            self.minimumWeight = min(max(minimumWeight, 1e-3), 1)
            self.gate = gate > 0 ? gate : .infinity
            self.relockCount = max(relockCount, 1)
            self.relockSpread = max(relockSpread, 0)
            self.initialRateNoise = initialRateNoise > 0 ? initialRateNoise : 1
        }

        /// Chosen on the tuning half of the bundled traces (see `specs/filters.md` §6):
        /// distance σ 0.05 m, still 1e-5 m²/s, moving 1 m²/s³, switching 0.1 /s both ways,
        /// P(still) 0.9 at start, NLoS ×3, gate 4 σ, re-lock after 4 agreeing samples within
        /// 0.5 m, initial rate σ 1 m/s. Angles (not tuned: no public trace with angles and truth
        /// was available): σ 5°, still 0.1 °²/s, moving 10⁴ °²/s³ (the distance values scaled
        /// by (5° / 0.05 m)²), re-lock spread 20°, initial rate σ 30 °/s.
        public static func standard(for domain: FilterDomain) -> Parameters {
            switch domain {
            case .distance:
                Parameters(
                    measurementNoise: 0.05, stillNoise: 1e-5, movingNoise: 1, stillToMoving: 0.1, movingToStill: 0.1,
                    initialStillProbability: 0.9, nonLineOfSightFactor: 3, minimumWeight: 0.1, gate: 4, relockCount: 4,
                    relockSpread: 0.5, initialRateNoise: 1)
            case .angle:
                Parameters(
                    measurementNoise: 5, stillNoise: 0.1, movingNoise: 10_000, stillToMoving: 0.1, movingToStill: 0.1,
                    initialStillProbability: 0.9, nonLineOfSightFactor: 3, minimumWeight: 0.1, gate: 4, relockCount: 4,
                    relockSpread: 20, initialRateNoise: 30)
            }
        }
    }

    /// The parameters in use.
    public let parameters: Parameters
    private var initialized = false
    private var lastTime = 0.0
    /// Probability of the still model after the last update.
    private var still = 0.0
    // Still model: value and variance.
    private var stillValue = 0.0
    private var stillVariance = 0.0
    // Moving model: value, rate, covariance.
    private var position = 0.0
    private var velocity = 0.0
    private var p00 = 0.0
    private var p01 = 0.0
    private var p11 = 0.0
    private var gate: InnovationGate

    /// Creates the filter.
    public init(_ parameters: Parameters) {
        self.parameters = parameters
        gate = InnovationGate(parameters)
    }

    /// The rate estimate after the last update (the moving model's rate × its probability),
    /// unit/s; `nil` before the first measurement.
    public private(set) var rate: Double?

    /// Variance of the output estimate after the last update (the mixture's: each model's variance
    /// plus the spread between them), unit²; `nil` before the first measurement.
    public var variance: Double? {
        guard initialized else { return nil }
        let output = estimate
        let ds = stillValue - output
        let dm = position - output
        return still * (stillVariance + ds * ds) + (1 - still) * (p00 + dm * dm)
    }

    /// Probability that the accessory is still (0 ... 1) after the last update; `nil` before the
    /// first measurement.
    public var stillProbability: Double? { initialized ? still : nil }

    /// Number of consecutive measurements rejected by the gate so far (0 after an accepted one).
    public var consecutiveRejections: Int { gate.rejectedRun }

    @inline(__always)
    private var estimate: Double { still * stillValue + (1 - still) * position }

    @inline(__always)
    private mutating func initialize(at value: Double, time: Double, variance: Double) -> Double {
        initialized = true
        lastTime = time
        still = parameters.initialStillProbability
        stillValue = value
        stillVariance = variance
        position = value
        velocity = 0
        p00 = variance
        p01 = 0
        p11 = parameters.initialRateNoise * parameters.initialRateNoise
        gate.reset()
        rate = 0
        return value
    }

    /// Stores the state after a step and returns the estimate.
    @inline(__always)
    private mutating func store(
        still mu: Double, value: Double, variance: Double, position p: Double, velocity v: Double,
        covariance c: (Double, Double, Double)
    ) -> Double {
        still = mu
        stillValue = value
        stillVariance = variance
        position = p
        velocity = v
        (p00, p01, p11) = c
        rate = (1 - mu) * v
        return estimate
    }

    /// Mixes, predicts to `input.time`, gates and (if accepted) corrects both models; returns the
    /// probability-weighted estimate.
    public mutating func update(_ input: FilterInput) -> Double {
        let z = input.value
        let r = gate.measurementVariance(input)
        guard initialized else { return initialize(at: z, time: input.time, variance: r) }
        let dt = max(input.time - lastTime, 0)
        if input.time > lastTime { lastTime = input.time }

        // Model probabilities after the Markov transition.
        let leaveStill = Self.switchProbability(rate: parameters.stillToMoving, dt: dt)
        let leaveMoving =
            parameters.movingToStill == parameters.stillToMoving
            ? leaveStill : Self.switchProbability(rate: parameters.movingToStill, dt: dt)
        let mu = still
        let fromStillToStill = mu * (1 - leaveStill)
        let fromStillToMoving = mu * leaveStill
        let predictedStill = fromStillToStill + (1 - mu) * leaveMoving
        let predictedMoving = 1 - predictedStill

        // Mixing: the starting point of each model (S carries rate 0 with no rate variance).
        let wStill = predictedStill > 0 ? fromStillToStill / predictedStill : 1  // S's share in S
        let wMoving = predictedMoving > 0 ? fromStillToMoving / predictedMoving : 0  // S's share in M
        let s0 = wStill * stillValue + (1 - wStill) * position
        let dS = stillValue - s0
        let dM = position - s0
        var sv = wStill * (stillVariance + dS * dS) + (1 - wStill) * (p00 + dM * dM)
        var mp = wMoving * stillValue + (1 - wMoving) * position
        var mv = (1 - wMoving) * velocity
        let eSp = stillValue - mp
        let eSv = -mv
        let eMp = position - mp
        let eMv = velocity - mv
        var m00 = wMoving * (stillVariance + eSp * eSp) + (1 - wMoving) * (p00 + eMp * eMp)
        var m01 = wMoving * (eSp * eSv) + (1 - wMoving) * (p01 + eMp * eMv)
        var m11 = wMoving * (eSv * eSv) + (1 - wMoving) * (p11 + eMv * eMv)

        // Prediction.
        var sp = s0
        if dt > 0 {
            sv += parameters.stillNoise * dt
            let q = parameters.movingNoise
            let dt2 = dt * dt
            mp += mv * dt
            m00 += dt * (2 * m01 + dt * m11) + q * dt2 * dt * (1.0 / 3.0)
            m01 += dt * m11 + q * dt2 * 0.5
            m11 += q * dt
        }

        // Gate on the moving model (the wider one).
        let yM = z - mp
        let sM = m00 + r
        switch gate.judge(z, innovation: yM, variance: sM) {
        case .accept: break
        case .reject:  // keep both predictions
            return store(
                still: predictedStill, value: sp, variance: sv, position: mp, velocity: mv, covariance: (m00, m01, m11))
        case .relock:
            return initialize(at: z, time: lastTime, variance: r)
        }

        // Corrections.
        let yS = z - sp
        let sS = sv + r
        let inverseS = 1 / sS
        let kS = sv * inverseS
        sp += kS * yS
        sv *= 1 - kS
        let inverseM = 1 / sM
        let k0 = m00 * inverseM
        let k1 = m01 * inverseM
        mp += k0 * yM
        mv += k1 * yM
        let n00 = (1 - k0) * m00
        let n01 = (1 - k0) * m01
        let n11 = m11 - k1 * m01

        // Model probabilities from the innovation likelihoods:
        // L_M / L_S = √(S_S / S_M) · exp(−(y_M²/S_M − y_S²/S_S) / 2).
        let ratio = (sS * inverseM).squareRoot() * Double.exp(-0.5 * (yM * yM * inverseM - yS * yS * inverseS))
        var newStill = predictedStill / (predictedStill + predictedMoving * ratio)
        if !(newStill >= 1e-6) { newStill = 1e-6 }  // also catches NaN
        if newStill > 1 - 1e-6 { newStill = 1 - 1e-6 }

        // An absurd time gap (≈ 1e100 s) overflows the covariances: start over rather than carry
        // NaN forever.
        guard sp.isFinite, sv.isFinite, mp.isFinite, n00.isFinite, n11.isFinite else {
            return initialize(at: z, time: lastTime, variance: r)
        }
        return store(still: newStill, value: sp, variance: sv, position: mp, velocity: mv, covariance: (n00, n01, n11))
    }

    /// The probability of leaving a model within `dt` at switching `rate`: 1 − e^(−rate·dt).
    /// For the usual small rate·dt (0.01 at 0.1 /s and 100 ms) a 6-term series is exact to
    /// 1e-13 relative and saves a libm call per model per sample.
    @inline(__always)
    public static func switchProbability(rate: Double, dt: Double) -> Double {
        guard dt > 0 else { return 0 }
        let x = rate * dt
        guard x < 0.02 else { return -Double.expMinusOne(-x) }
        // x − x²/2 + x³/6 − x⁴/24 + x⁵/120 − x⁶/720 (Horner).
        return x * (1 - x * (0.5 - x * (1.0 / 6.0 - x * (1.0 / 24.0 - x * (1.0 / 120.0 - x * (1.0 / 720.0))))))
    }

    /// Forgets the state (the next measurement initialises the filter).
    public mutating func reset() {
        initialized = false
        gate.reset()
        rate = nil
    }
}
