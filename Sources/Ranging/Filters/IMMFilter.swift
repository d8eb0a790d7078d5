import RealModule

/// An interacting multiple model filter (`imm`, the default): it knows whether the accessory is
/// still or moving, learns how noisy the measurements are, and treats any measurement as possibly
/// an outlier. Every parameter is in seconds and the value's unit (metres or degrees), none in
/// samples, so the filter behaves alike at 2, 10 and 100 Hz.
///
/// Two Kalman filters run side by side on the same measurements, mixed by the probability of each
/// model; the output is the probability-weighted mean of their estimates.
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
/// predicts and corrects with the measurement; the probabilities are updated with the likelihood
/// of each model's innovation.
///
/// **Measurement noise** (learned): `R = σ²·f²` with the sample's factor
/// `f = (NLoS ? nonLineOfSightFactor : 1) / max(weight, minimumWeight)` (weight = FoM / 100, 1 when
/// unknown) and σ² a running estimate of the measurements' scatter from second differences (the
/// distance of each measurement from the line through the previous two, which a constant speed
/// does not change; see `learnNoise`) less what the moving model's own acceleration noise
/// explains (so the motion between 2 Hz samples is not taken for noise), each term capped at
/// (4 σ)² so outliers do not inflate it,
/// averaged with the time constant ``Parameters/noiseTimeConstant`` and kept within
/// [``Parameters/measurementNoise``, ``Parameters/maximumNoise``]. A device noisier than the
/// standard 5 cm therefore does not look "moving" at rest, and is smoothed as much as it needs.
///
/// **Outliers** (probabilistic data association, Bar-Shalom's PDAF with one measurement): every
/// measurement is a true one with probability `1 − ε` (Gaussian, variance S of the model's
/// innovation) or an outlier with probability ε (``Parameters/outlierProbability``), spread evenly
/// over ``Parameters/outlierSpread``; ε itself is learned (the running mean over
/// ``Parameters/outlierTimeConstant`` seconds of each measurement's posterior probability of being
/// an outlier, within its bounds), so clean data is not shrunk as if it held spikes and heavy-tailed
/// data is distrusted more. Each model is corrected in proportion to the posterior
/// probability β that the measurement is true, and its covariance grows by `β(1 − β)·(K y)²` when
/// in doubt: a spike of many σ moves nothing, a doubtful sample moves the estimate a little and
/// widens it, so the next good samples are accepted again (a hard gate that has once followed a
/// spike can lock out the truth; this cannot). The model probabilities use the same mixture
/// likelihood, so a spike does not make "still" look "moving".
///
/// **Re-lock**: measurements that are more likely outliers than not (β < ½ for the mixture), follow
/// each other, agree (each within ``Parameters/relockSpread`` of the previous one) and span at
/// least ``Parameters/relockTime`` seconds (and two samples) are a real jump: the filter restarts
/// at the latest one. Shorter bursts of agreeing outliers are removed.
///
/// Cost: two 2-state corrections, three `exp`-family calls; no allocation.
public struct IMMFilter: RangeFilter {
    /// Parameters (unit = metres for distance, degrees for angles; times in seconds).
    public struct Parameters: Sendable, Hashable {
        /// Smallest σ of a line-of-sight measurement with full confidence, unit (> 0): the noise
        /// estimate starts here and never goes below it.
        public var measurementNoise: Double
        /// Largest σ the noise estimate may reach, unit (≥ ``measurementNoise``; equal = fixed noise).
        public var maximumNoise: Double
        /// Time constant of the noise estimate, seconds (> 0).
        public var noiseTimeConstant: Double
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
        /// Probability that a measurement is an outlier at (re)start, 0 ≤ ε < 1 (0 = no outlier
        /// model); afterwards it is learned within [``minimumOutlierProbability``,
        /// ``maximumOutlierProbability``] unless ``outlierTimeConstant`` is 0.
        public var outlierProbability: Double
        /// Smallest learned outlier probability (0 ≤ value ≤ ``outlierProbability``).
        public var minimumOutlierProbability: Double
        /// Largest learned outlier probability (``outlierProbability`` ≤ value < 1).
        public var maximumOutlierProbability: Double
        /// Time constant of the learned outlier probability, seconds (≥ 0; 0 = fixed at
        /// ``outlierProbability``).
        public var outlierTimeConstant: Double
        /// Width over which outliers are spread evenly, unit (> 0): the outlier density is its inverse.
        public var outlierSpread: Double
        /// Shortest run of agreeing outliers (seconds, ≥ 0) that is a real jump and re-locks.
        public var relockTime: Double
        /// Largest difference between consecutive outliers that still agree, unit (≥ 0).
        public var relockSpread: Double
        /// σ of the rate at (re)initialisation, unit/s (> 0).
        public var initialRateNoise: Double

        /// Creates parameters; values outside their ranges are clamped to the nearest valid one.
        public init(
            measurementNoise: Double, maximumNoise: Double? = nil, noiseTimeConstant: Double = 3, stillNoise: Double,
            movingNoise: Double, stillToMoving: Double = 0.1, movingToStill: Double = 0.1,
            initialStillProbability: Double = 0.9, nonLineOfSightFactor: Double = 3, minimumWeight: Double = 0.1,
            outlierProbability: Double = 0.05, minimumOutlierProbability: Double? = nil,
            maximumOutlierProbability: Double? = nil, outlierTimeConstant: Double = 0, outlierSpread: Double,
            relockTime: Double = 0.5, relockSpread: Double, initialRateNoise: Double
        ) {
            self.measurementNoise = measurementNoise > 0 ? measurementNoise : 1e-3
            self.maximumNoise = max(maximumNoise ?? 10 * self.measurementNoise, self.measurementNoise)
            self.noiseTimeConstant = noiseTimeConstant > 0 ? noiseTimeConstant : 3
            self.stillNoise = max(stillNoise, 0)
            self.movingNoise = max(movingNoise, 0)
            self.stillToMoving = stillToMoving > 0 ? stillToMoving : 1e-6
            self.movingToStill = movingToStill > 0 ? movingToStill : 1e-6
            self.initialStillProbability = min(max(initialStillProbability, 1e-3), 1 - 1e-3)
            self.nonLineOfSightFactor = max(nonLineOfSightFactor, 1)
            self.minimumWeight = min(max(minimumWeight, 1e-3), 1)
            self.outlierProbability = min(max(outlierProbability, 0), 0.99)
            self.minimumOutlierProbability = min(max(minimumOutlierProbability ?? self.outlierProbability, 0), self.outlierProbability)
            self.maximumOutlierProbability = min(max(maximumOutlierProbability ?? self.outlierProbability, self.outlierProbability), 0.99)
            self.outlierTimeConstant = outlierTimeConstant.isFinite ? max(outlierTimeConstant, 0) : 0
            self.outlierSpread = outlierSpread > 0 ? outlierSpread : 1
            self.relockTime = max(relockTime, 0)
            self.relockSpread = max(relockSpread, 0)
            self.initialRateNoise = initialRateNoise > 0 ? initialRateNoise : 1
        }

        /// Chosen on the tuning data (see `specs/filters.md` §6.14; before, §6.10 and §6.11).
        /// Distance: σ from 0.03 m (at least) to 0.25 m (at most), learned over 1.5 s; still
        /// 6e-7 m²/s, moving 0.8 m²/s³; switching still → moving 0.05 /s, moving → still 0.005 /s
        /// (which model holds is decided by the measurements, hardly by the prior); P(still) 0.9 at
        /// start; NLoS ×2; outliers 3 % at start, learned over 300 s within 3–12 %, spread over
        /// 10 m; re-lock after 0.5 s of outliers within 0.5 m of each other; initial rate σ 1 m/s.
        /// Angles (not tuned: no public trace with angles and truth was available): σ 5° to 10°,
        /// still 0.1 °²/s, moving 10⁴ °²/s³ (the first distance values, scaled by (5° / 0.05 m)²),
        /// switching 0.1 /s both ways, NLoS ×3, outliers 5 % at start, learned over 60 s within
        /// 5–10 %, spread over 180°, re-lock spread 20°, initial rate σ 30 °/s.
        public static func standard(for domain: FilterDomain) -> Parameters {
            switch domain {
            case .distance:
                Parameters(
                    measurementNoise: 0.03, maximumNoise: 0.25, noiseTimeConstant: 1.5, stillNoise: 6e-7, movingNoise: 0.8,
                    stillToMoving: 0.05, movingToStill: 0.005, initialStillProbability: 0.9, nonLineOfSightFactor: 2,
                    minimumWeight: 0.1, outlierProbability: 0.03, minimumOutlierProbability: 0.03,
                    maximumOutlierProbability: 0.12, outlierTimeConstant: 300, outlierSpread: 10, relockTime: 0.5,
                    relockSpread: 0.5, initialRateNoise: 1)
            case .angle:
                Parameters(
                    measurementNoise: 5, maximumNoise: 10, noiseTimeConstant: 3, stillNoise: 0.1, movingNoise: 10_000,
                    stillToMoving: 0.1, movingToStill: 0.1, initialStillProbability: 0.9, nonLineOfSightFactor: 3,
                    minimumWeight: 0.1, outlierProbability: 0.05, minimumOutlierProbability: 0.05,
                    maximumOutlierProbability: 0.1, outlierTimeConstant: 60, outlierSpread: 180, relockTime: 0.5,
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
    // Noise estimate: σ² of a full-confidence line-of-sight measurement, and what it learns from.
    private var noise: Double
    private var noiseSamples = 0.0
    private var previousValue = 0.0
    private var previousTime = -Double.infinity
    private var previousFactor = 1.0
    private var olderValue = 0.0
    private var olderTime = -Double.infinity
    private var olderFactor = 1.0
    // The current run of outliers.
    private var outlierRun = 0
    private var outlierRunStart = 0.0
    private var lastOutlier = 0.0
    // The learned outlier probability and 1 / spread.
    private var outliers: Double
    private let inverseSpread: Double

    /// Creates the filter.
    public init(_ parameters: Parameters) {
        self.parameters = parameters
        noise = parameters.measurementNoise * parameters.measurementNoise
        outliers = parameters.outlierProbability
        inverseSpread = 1 / parameters.outlierSpread
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

    /// The learned σ of a full-confidence line-of-sight measurement, unit
    /// (``Parameters/measurementNoise`` ... ``Parameters/maximumNoise``).
    public var measurementNoise: Double { noise.squareRoot() }

    /// Number of consecutive agreeing measurements judged more likely outliers than not (0 after a
    /// likely true one).
    public var consecutiveOutliers: Int { outlierRun }

    /// The outlier probability in use: learned as the running mean of the posterior probability
    /// that a measurement is an outlier (``Parameters/outlierTimeConstant``), kept within
    /// [``Parameters/minimumOutlierProbability``, ``Parameters/maximumOutlierProbability``].
    public var outlierProbability: Double { outliers }

    /// Posterior probability that the last measurement was a true one (mixture of both models).
    public private(set) var lastInlierProbability = 1.0

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
        outlierRun = 0
        lastInlierProbability = 1
        rate = 0
        return value
    }

    /// Learns the measurement noise from `value` and the two measurements before it (before the
    /// filter uses `value`): the distance of `value` from the straight line through the previous
    /// two, `e = z_k − z_{k−1} − (z_{k−1} − z_{k−2})·ρ` with `ρ = dt_k / dt_{k−1}`, has variance
    /// `R_k + (1 + ρ)²·R_{k−1} + ρ²·R_{k−2}` whatever the (constant) speed. Second differences need
    /// no estimate of the speed, so the noise estimate cannot feed on the filter's own belief (a
    /// first difference compensated with the filter's rate counts unseen motion as noise, which
    /// makes motion look even less likely).
    @inline(__always)
    private mutating func learnNoise(_ value: Double, time: Double, factor: Double) {
        let dt = time - previousTime
        let dtBefore = previousTime - olderTime
        let e = value - previousValue - (previousValue - olderValue) * (dtBefore > 0 ? dt / dtBefore : 0)
        let rho = dtBefore > 0 ? dt / dtBefore : .infinity
        let weight = factor * factor + (1 + rho) * (1 + rho) * previousFactor * previousFactor + rho * rho * olderFactor * olderFactor
        olderValue = previousValue
        olderTime = previousTime
        olderFactor = previousFactor
        previousValue = value
        previousTime = time
        previousFactor = factor
        // Only measurements less than a time constant apart, at comparable intervals, say something
        // about the noise.
        let limit = parameters.noiseTimeConstant
        guard initialized, dt > 0, dtBefore > 0, dt <= limit, dtBefore <= limit, rho <= 4 else { return }
        // The moving model's own white-noise acceleration moves a second difference too (variance
        // ≈ q_M·(2/3)·dt³ for equal steps): that part is motion, not measurement noise. Without it
        // the motion between 2 Hz samples counted as noise and the filter smoothed (and lagged)
        // more at low rates.
        let motion = parameters.movingNoise * (1.0 / 3.0) * dt * dtBefore * (dt + dtBefore)
        var sample = e * e - motion
        if sample < 0 { sample = 0 }
        sample /= weight
        let cap = 16 * noise
        if sample > cap { sample = cap }
        // An exponential average with time constant T, which starts as the mean of what it has
        // seen (the prior counts as 5 measurements).
        var gain = -Double.expMinusOne(-dt / parameters.noiseTimeConstant)
        let start = 1 / (noiseSamples + 6)
        if gain < start { gain = start }
        noiseSamples += 1
        noise += gain * (sample - noise)
        let low = parameters.measurementNoise * parameters.measurementNoise
        let high = parameters.maximumNoise * parameters.maximumNoise
        if noise < low { noise = low } else if noise > high { noise = high }
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

    /// Mixes, predicts to `input.time` and corrects both models in proportion to the probability
    /// that the measurement is a true one; returns the probability-weighted estimate.
    public mutating func update(_ input: FilterInput) -> Double {
        let z = input.value
        var factor = 1.0
        if input.weight < 1 { factor /= max(input.weight, parameters.minimumWeight) }
        if input.isNonLineOfSight { factor *= parameters.nonLineOfSightFactor }
        learnNoise(z, time: input.time, factor: factor)
        let r = noise * factor * factor
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

        // Likelihoods: a true measurement N(y; 0, S) with probability 1 − ε, an outlier with
        // density ε / spread. Both Gaussians are scaled by √(2π)·e^(m/2), m the smaller of the two
        // normalised squared innovations, so the larger one is exactly 1/√S (no underflow unless
        // the measurement is hopeless for both models).
        let yS = z - sp
        let sS = sv + r
        let yM = z - mp
        let sM = m00 + r
        let inverseS = 1 / sS
        let inverseM = 1 / sM
        let dS2 = yS * yS * inverseS
        let dM2 = yM * yM * inverseM
        let m = min(dS2, dM2)
        let epsilon = outliers
        let inlier = 1 - epsilon
        let gaussianS = inlier * inverseS.squareRoot() * (dS2 == m ? 1 : Double.exp(-0.5 * (dS2 - m)))
        let gaussianM = inlier * inverseM.squareRoot() * (dM2 == m ? 1 : Double.exp(-0.5 * (dM2 - m)))
        // 2.5066… = √(2π); beyond e^700 the outlier term dominates whatever the density.
        let clutter = epsilon * inverseSpread * 2.5066282746310002 * Double.exp(0.5 * min(m, 1400))
        let likelihoodS = gaussianS + clutter
        let likelihoodM = gaussianM + clutter
        let betaS = likelihoodS > 0 ? gaussianS / likelihoodS : 0
        let betaM = likelihoodM > 0 ? gaussianM / likelihoodM : 0
        let evidence = predictedStill * likelihoodS + predictedMoving * likelihoodM
        let beta = evidence > 0 ? (predictedStill * gaussianS + predictedMoving * gaussianM) / evidence : 0
        lastInlierProbability = beta
        learnOutliers(1 - beta, dt: dt)

        // Runs of agreeing likely outliers: a real jump once they last relockTime.
        if beta < 0.5 {
            if outlierRun > 0 && abs(z - lastOutlier) <= parameters.relockSpread {
                outlierRun += 1
            } else {
                outlierRun = 1
                outlierRunStart = lastTime
            }
            lastOutlier = z
            if outlierRun >= 2 && lastTime - outlierRunStart >= parameters.relockTime {
                return initialize(at: z, time: lastTime, variance: r)
            }
        } else {
            outlierRun = 0
        }

        // Corrections, each in proportion to β, with the PDA spread term β(1 − β)(K y)².
        let kS = sv * inverseS
        let stepS = kS * yS
        sp += betaS * stepS
        sv += -betaS * kS * sv + betaS * (1 - betaS) * stepS * stepS
        let k0 = m00 * inverseM
        let k1 = m01 * inverseM
        let step0 = k0 * yM
        let step1 = k1 * yM
        mp += betaM * step0
        mv += betaM * step1
        let spread = betaM * (1 - betaM)
        let n00 = m00 - betaM * k0 * m00 + spread * step0 * step0
        let n01 = m01 - betaM * k0 * m01 + spread * step0 * step1
        let n11 = m11 - betaM * k1 * m01 + spread * step1 * step1

        // Model probabilities from the mixture likelihoods.
        var newStill = evidence > 0 ? predictedStill * likelihoodS / evidence : predictedStill
        if !(newStill >= 1e-6) { newStill = 1e-6 }  // also catches NaN
        if newStill > 1 - 1e-6 { newStill = 1 - 1e-6 }

        // An absurd time gap (≈ 1e100 s) overflows the covariances: start over rather than carry
        // NaN forever.
        guard sp.isFinite, sv.isFinite, mp.isFinite, n00.isFinite, n11.isFinite else {
            return initialize(at: z, time: lastTime, variance: r)
        }
        return store(still: newStill, value: sp, variance: sv, position: mp, velocity: mv, covariance: (n00, n01, n11))
    }

    /// Learns the outlier probability: an exponential average (time constant
    /// ``Parameters/outlierTimeConstant``) of each measurement's posterior probability of being an
    /// outlier, within its bounds. Clean data lowers ε, so moderate innovations of real motion are
    /// no longer shrunk as possible outliers (less lag); heavy-tailed data raises it.
    @inline(__always)
    private mutating func learnOutliers(_ posterior: Double, dt: Double) {
        let time = parameters.outlierTimeConstant
        guard time > 0, parameters.outlierProbability > 0 else { return }
        var gain = dt / time
        if gain > 1 { gain = 1 }
        outliers += gain * (posterior - outliers)
        if outliers < parameters.minimumOutlierProbability {
            outliers = parameters.minimumOutlierProbability
        } else if outliers > parameters.maximumOutlierProbability {
            outliers = parameters.maximumOutlierProbability
        }
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

    /// Forgets the state (the next measurement initialises the filter and the noise estimate).
    public mutating func reset() {
        initialized = false
        outlierRun = 0
        rate = nil
        noise = parameters.measurementNoise * parameters.measurementNoise
        noiseSamples = 0
        outliers = parameters.outlierProbability
        previousTime = -Double.infinity
        olderTime = -Double.infinity
        lastInlierProbability = 1
    }
}
