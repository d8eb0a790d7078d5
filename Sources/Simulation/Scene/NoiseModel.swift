/// How a simulated UWB link turns true geometry into what a UWB subsystem reports: range noise
/// and bias, non-line-of-sight bursts, dropouts, outliers, angle noise, figure of merit and RSSI.
/// All parameters are plain values with realistic defaults (see `specs/simulation.md` for where
/// each default comes from); ``RadioChannel`` applies them.
///
/// Units: metres, seconds, degrees, dBm; probabilities 0 ... 1.
public struct NoiseModel: Sendable, Hashable {
    /// Which angles the simulated UWB subsystem reports.
    public enum AngleReporting: Sendable, Hashable {
        /// No antenna array: distance only.
        case none
        /// Two antennas: azimuth only.
        case azimuth
        /// Three antennas: azimuth and elevation.
        case azimuthAndElevation
    }

    // Range in line of sight.
    /// Range noise standard deviation at 0 m, metres.
    public var rangeSigma = 0.03
    /// Growth of the range noise standard deviation per metre of distance.
    public var rangeSigmaPerMetre = 0.001
    /// Constant range bias, metres (antenna-delay calibration error).
    public var rangeBias = -0.03
    /// Range bias per metre of distance (clock / antenna-delay scale error).
    public var rangeBiasPerMetre = 0.01

    // Non-line-of-sight bursts: a two-state Markov chain in continuous time.
    /// Mean time in line of sight between bursts, seconds.
    public var meanLineOfSightDuration = 20.0
    /// Mean burst duration, seconds; 0 disables NLoS.
    public var meanNonLineOfSightDuration = 2.0
    /// Mean extra path length of a burst, metres: each burst draws its bias from an exponential
    /// distribution with this mean (positive: a blocked direct path is always longer).
    public var nonLineOfSightBiasMean = 0.25
    /// Range noise standard deviation during a burst, metres (replaces the line-of-sight one).
    public var nonLineOfSightSigma = 0.08
    /// Probability that the UWB subsystem flags an NLoS measurement as NLoS.
    public var nonLineOfSightDetectionProbability = 0.8
    /// Probability that it flags a line-of-sight measurement as NLoS.
    public var falseNonLineOfSightProbability = 0.02
    /// Multiplies angle noise during a burst.
    public var nonLineOfSightAngleSigmaFactor = 3.0
    /// Multiplies the figure of merit during a burst.
    public var nonLineOfSightFigureOfMeritFactor = 0.5
    /// Extra path loss during a burst, dB.
    public var nonLineOfSightExtraLoss = 6.0

    // Dropouts and outliers.
    /// Probability that a round fails (status 0x21 RX_TIMEOUT, no values) in line of sight.
    public var dropoutProbability = 0.01
    /// Probability that a round fails during a burst.
    public var nonLineOfSightDropoutProbability = 0.1
    /// Distance up to which the dropout probability is not raised, metres.
    public var reliableRange = 25.0
    /// Distance at which every round fails, metres (linear increase from ``reliableRange``).
    public var maximumRange = 60.0
    /// Probability that a valid measurement is a gross outlier (a wrong first path).
    public var outlierProbability = 0.004
    /// Range of the positive error of an outlier, metres.
    public var outlierError: ClosedRange<Double> = 1...8

    // Angles.
    /// Which angles are reported.
    public var angles = AngleReporting.azimuthAndElevation
    /// Azimuth noise standard deviation at boresight, degrees; grows off axis as
    /// `1 / max(cos(azimuth)·cos(elevation), 0.25)`.
    public var azimuthSigma = 3.0
    /// Elevation noise standard deviation at boresight, degrees (same growth).
    public var elevationSigma = 5.0
    /// Whether a target behind the antenna array (|azimuth| > 90°) is reported at the mirrored
    /// front azimuth, as a two-antenna phase-difference array does (front/back ambiguity).
    public var mirrorsRearAzimuth = true

    // Figure of merit and RSSI.
    /// Standard deviation of the jitter added to the figure of merit (0-100 scale).
    public var figureOfMeritJitter = 3.0
    /// RSSI at 1 m in line of sight, dBm.
    public var rssiAtOneMetre = -65.0
    /// Path-loss exponent of the log-distance model.
    public var pathLossExponent = 2.0
    /// Shadowing standard deviation of the RSSI, dB.
    public var rssiSigma = 2.0
    /// RSSI at which the figure of merit stops improving, dBm.
    public var figureOfMeritFullRSSI = -75.0
    /// RSSI at which the figure of merit bottoms out, dBm.
    public var figureOfMeritFloorRSSI = -100.0

    /// The defaults above: a hand-carried accessory indoors, with body-shadowing bursts.
    public init() {}

    /// The defaults (``init()``).
    public static let `default` = NoiseModel()

    /// No noise at all: true distances and angles (quantised to UCI's 1 cm and 1/128°), no NLoS,
    /// dropouts or outliers, RSSI from the path-loss model alone, FoM from the angle off
    /// boresight alone (100 straight ahead). For tests that need exact values.
    public static let ideal: NoiseModel = {
        var model = NoiseModel()
        model.rangeSigma = 0
        model.rangeSigmaPerMetre = 0
        model.rangeBias = 0
        model.rangeBiasPerMetre = 0
        model.meanNonLineOfSightDuration = 0
        model.falseNonLineOfSightProbability = 0
        model.dropoutProbability = 0
        model.nonLineOfSightDropoutProbability = 0
        model.reliableRange = 1_000
        model.maximumRange = 2_000
        model.outlierProbability = 0
        model.azimuthSigma = 0
        model.elevationSigma = 0
        model.mirrorsRearAzimuth = false
        model.figureOfMeritJitter = 0
        model.rssiSigma = 0
        model.figureOfMeritFloorRSSI = -200
        model.figureOfMeritFullRSSI = -150
        return model
    }()

    /// Gaussian noise and bias only (no bursts, dropouts or outliers): a clear line of sight.
    public static let lineOfSight: NoiseModel = {
        var model = NoiseModel()
        model.meanNonLineOfSightDuration = 0
        model.falseNonLineOfSightProbability = 0
        model.dropoutProbability = 0
        model.outlierProbability = 0
        return model
    }()

    /// Checks every parameter.
    ///
    /// - Throws: ``SceneError`` (`invalidParameter`) naming the first parameter outside its range:
    ///   standard deviations, durations and jitter must be finite and ≥ 0, probabilities in
    ///   0 ... 1, `0 ≤ reliableRange < maximumRange`, outlier errors ≥ 0, the FoM RSSI floor below
    ///   its full-scale RSSI, RSSI values and biases finite.
    public func validate() throws(SceneError) {
        let nonNegative: [(String, Double)] = [
            ("rangeSigma", rangeSigma), ("rangeSigmaPerMetre", rangeSigmaPerMetre),
            ("meanLineOfSightDuration", meanLineOfSightDuration),
            ("meanNonLineOfSightDuration", meanNonLineOfSightDuration),
            ("nonLineOfSightBiasMean", nonLineOfSightBiasMean), ("nonLineOfSightSigma", nonLineOfSightSigma),
            ("nonLineOfSightAngleSigmaFactor", nonLineOfSightAngleSigmaFactor),
            ("nonLineOfSightFigureOfMeritFactor", nonLineOfSightFigureOfMeritFactor),
            ("nonLineOfSightExtraLoss", nonLineOfSightExtraLoss), ("reliableRange", reliableRange),
            ("azimuthSigma", azimuthSigma), ("elevationSigma", elevationSigma),
            ("figureOfMeritJitter", figureOfMeritJitter), ("pathLossExponent", pathLossExponent),
            ("rssiSigma", rssiSigma), ("outlierError lower bound", outlierError.lowerBound),
        ]
        for (name, value) in nonNegative where !(value >= 0 && value.isFinite) {
            throw .invalid(name, value, "a finite value ≥ 0")
        }
        let probabilities: [(String, Double)] = [
            ("nonLineOfSightDetectionProbability", nonLineOfSightDetectionProbability),
            ("falseNonLineOfSightProbability", falseNonLineOfSightProbability),
            ("dropoutProbability", dropoutProbability),
            ("nonLineOfSightDropoutProbability", nonLineOfSightDropoutProbability),
            ("outlierProbability", outlierProbability),
        ]
        for (name, value) in probabilities where !(0...1).contains(value) {
            throw .invalid(name, value, "a probability 0 ... 1")
        }
        let finite: [(String, Double)] = [
            ("rangeBias", rangeBias), ("rangeBiasPerMetre", rangeBiasPerMetre), ("rssiAtOneMetre", rssiAtOneMetre),
            ("outlierError upper bound", outlierError.upperBound), ("figureOfMeritFullRSSI", figureOfMeritFullRSSI),
            ("figureOfMeritFloorRSSI", figureOfMeritFloorRSSI),
        ]
        for (name, value) in finite where !value.isFinite {
            throw .invalid(name, value, "a finite number")
        }
        guard maximumRange > reliableRange, maximumRange.isFinite else {
            throw .invalid("maximumRange", maximumRange, "greater than reliableRange \(reliableRange) m")
        }
        guard figureOfMeritFloorRSSI < figureOfMeritFullRSSI else {
            throw .invalid(
                "figureOfMeritFloorRSSI", figureOfMeritFloorRSSI,
                "below figureOfMeritFullRSSI \(figureOfMeritFullRSSI) dBm")
        }
    }
}
