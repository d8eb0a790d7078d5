/// The measurement model, outlier gate and re-lock rule of ``KalmanFilter``.
///
/// - Measurement variance: `σ = measurementNoise · (NLoS ? nonLineOfSightFactor : 1) /
///   max(weight, minimumWeight)` (weight = FoM / 100, 1 when unknown), `R = σ²`.
/// - Gate: a measurement with innovation y and innovation variance S is rejected if
///   `y² > gate²·S`.
/// - Re-lock: rejected measurements that follow each other and agree (each within
///   `relockSpread` of the previous rejected one) are a real step, not a spike; the
///   `relockCount`-th of them tells the filter to restart there.
struct InnovationGate: Sendable {
    /// Parameters that carry the measurement model and the gate (``KalmanFilter/Parameters``).
    protocol Settings {
        var measurementNoise: Double { get }
        var nonLineOfSightFactor: Double { get }
        var minimumWeight: Double { get }
        var gate: Double { get }
        var relockCount: Int { get }
        var relockSpread: Double { get }
    }

    /// The verdict on one measurement.
    enum Verdict {
        /// Inside the gate: correct with it.
        case accept
        /// Outside the gate: keep the prediction.
        case reject
        /// Outside the gate, and the last `relockCount` rejected measurements agree: restart here.
        case relock
    }

    let measurementNoise: Double
    let nonLineOfSightFactor: Double
    let minimumWeight: Double
    let gateSquared: Double
    let relockCount: Int
    let relockSpread: Double
    /// Consecutive rejected measurements so far.
    private(set) var rejectedRun = 0
    private var lastRejected = 0.0

    init(_ settings: some Settings) {
        measurementNoise = settings.measurementNoise
        nonLineOfSightFactor = settings.nonLineOfSightFactor
        minimumWeight = settings.minimumWeight
        gateSquared = settings.gate * settings.gate
        relockCount = settings.relockCount
        relockSpread = settings.relockSpread
    }

    /// R for `input`, unit².
    @inline(__always)
    func measurementVariance(_ input: FilterInput) -> Double {
        var sigma = measurementNoise
        if input.weight < 1 { sigma /= max(input.weight, minimumWeight) }
        if input.isNonLineOfSight { sigma *= nonLineOfSightFactor }
        return sigma * sigma
    }

    /// Judges measurement `value` with innovation `innovation` and innovation variance `s`.
    @inline(__always)
    mutating func judge(_ value: Double, innovation: Double, variance s: Double) -> Verdict {
        guard innovation * innovation > gateSquared * s else {
            rejectedRun = 0
            return .accept
        }
        if rejectedRun > 0 && abs(value - lastRejected) <= relockSpread {
            rejectedRun += 1
        } else {
            rejectedRun = 1
        }
        lastRejected = value
        if rejectedRun >= relockCount {
            rejectedRun = 0
            return .relock
        }
        return .reject
    }

    /// Forgets the run of rejected measurements.
    mutating func reset() {
        rejectedRun = 0
    }
}

extension KalmanFilter.Parameters: InnovationGate.Settings {}
