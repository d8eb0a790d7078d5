/// The state of one simulated UWB link: its random stream and its line-of-sight / NLoS
/// condition. ``measure(_:at:)`` turns true geometry into one reported ranging round using a
/// ``NoiseModel``.
///
/// NLoS is a two-state Markov chain in continuous time: from line of sight the link enters a
/// burst with probability `1 - exp(-Δt / meanLineOfSightDuration)` over the time `Δt` since the
/// previous round, and leaves it with `1 - exp(-Δt / meanNonLineOfSightDuration)`; so burst
/// lengths do not depend on the ranging interval. Each burst draws its own positive bias. The
/// link starts in line of sight. Reported values are quantised as UCI carries them (1 cm,
/// 1/128°, 0.5 dB), so encoding them to a SESSION_INFO_NTF and decoding loses nothing.
public struct RadioChannel: Sendable {
    /// The noise parameters.
    public let model: NoiseModel
    private var random: SimulationRandom
    private var lastTime: Double?
    /// `true` while the link is in an NLoS burst.
    public private(set) var isNonLineOfSight = false
    /// Extra path length of the current burst, metres (0 in line of sight).
    public private(set) var burstBias = 0.0

    /// A link in line of sight whose random stream starts from `seed`.
    ///
    /// - Throws: ``SceneError`` when ``NoiseModel/validate()`` rejects `model`.
    public init(model: NoiseModel, seed: UInt64) throws(SceneError) {
        try model.validate()
        self.model = model
        self.random = SimulationRandom(seed: seed)
    }

    /// One ranging round at `time` (seconds) for the true geometry `truth`.
    ///
    /// Rounds should come in increasing time; a round at an earlier time than the previous one
    /// is measured without advancing the NLoS chain.
    public mutating func measure(_ truth: RelativeGeometry, at time: Double) -> SimulatedMeasurement {
        advanceCondition(to: time)
        let nlos = isNonLineOfSight
        var measurement = SimulatedMeasurement(
            time: time, truth: truth, isNonLineOfSightTruth: nlos, isOutlier: false,
            status: SimulatedMeasurement.statusRXTimeout, distance: nil, azimuth: nil, elevation: nil,
            azimuthFigureOfMerit: nil, elevationFigureOfMerit: nil, reportedNonLineOfSight: nil, rssi: nil)
        if random.bernoulli(dropoutProbability(distance: truth.distance, nlos: nlos)) {
            return measurement
        }

        // Range.
        let sigma = nlos ? model.nonLineOfSightSigma : model.rangeSigma + model.rangeSigmaPerMetre * truth.distance
        var range = truth.distance + model.rangeBias + model.rangeBiasPerMetre * truth.distance
        range += random.gaussian(mean: nlos ? burstBias : 0, sigma: sigma)
        if random.bernoulli(model.outlierProbability) {
            range += random.uniform(in: model.outlierError)
            measurement.isOutlier = true
        }
        range = Self.quantise(range, stepsPerUnit: 100)
        measurement.distance = range
        measurement.status = range < 0 ? 0x1B : 0x00

        // RSSI, log-distance path loss with shadowing.
        var rssi = model.rssiAtOneMetre - 10 * model.pathLossExponent * SceneMath.log10(max(truth.distance, 0.1))
        rssi -= nlos ? model.nonLineOfSightExtraLoss : 0
        rssi += random.gaussian(mean: 0, sigma: model.rssiSigma)
        rssi = Self.quantise(SceneMath.clamp(rssi, -127.5...0), stepsPerUnit: 2)
        measurement.rssi = rssi

        // NLoS flag as a real detector reports it.
        measurement.reportedNonLineOfSight = random.bernoulli(
            nlos ? model.nonLineOfSightDetectionProbability : model.falseNonLineOfSightProbability)

        // Angles and their figures of merit.
        let signalQuality = SceneMath.clamp(
            (rssi - model.figureOfMeritFloorRSSI) / (model.figureOfMeritFullRSSI - model.figureOfMeritFloorRSSI),
            0.2...1)
        let conditionFactor = nlos ? model.nonLineOfSightFigureOfMeritFactor : 1
        let angleFactor = nlos ? model.nonLineOfSightAngleSigmaFactor : 1
        let offAxis = max(SceneMath.cos(degrees: truth.azimuth) * SceneMath.cos(degrees: truth.elevation), 0.25)
        let isRear = !truth.isInFront
        if model.angles != .none {
            var azimuth = truth.azimuth
            if isRear && model.mirrorsRearAzimuth {
                azimuth = (azimuth >= 0 ? 180 : -180) - azimuth
            }
            azimuth += random.gaussian(mean: 0, sigma: model.azimuthSigma * angleFactor / offAxis)
            measurement.azimuth = SceneMath.wrappedDegrees(
                Self.quantise(SceneMath.wrappedDegrees(azimuth), stepsPerUnit: 128))
            let geometryQuality = isRear ? 0.3 : max(SceneMath.cos(degrees: truth.azimuth), 0.15)
            measurement.azimuthFigureOfMerit = figureOfMerit(signalQuality * geometryQuality * conditionFactor)
        }
        if model.angles == .azimuthAndElevation {
            let elevation =
                truth.elevation + random.gaussian(mean: 0, sigma: model.elevationSigma * angleFactor / offAxis)
            measurement.elevation = Self.quantise(SceneMath.clamp(elevation, -90...90), stepsPerUnit: 128)
            let geometryQuality = (isRear ? 0.3 : 1) * max(SceneMath.cos(degrees: truth.elevation), 0.15)
            measurement.elevationFigureOfMerit = figureOfMerit(signalQuality * geometryQuality * conditionFactor)
        }
        return measurement
    }

    private mutating func advanceCondition(to time: Double) {
        defer { lastTime = max(lastTime ?? time, time) }
        guard let lastTime, time > lastTime, model.meanNonLineOfSightDuration > 0 else { return }
        let elapsed = time - lastTime
        if isNonLineOfSight {
            if random.bernoulli(1 - SceneMath.exp(-elapsed / model.meanNonLineOfSightDuration)) {
                isNonLineOfSight = false
                burstBias = 0
            }
        } else {
            let enter =
                model.meanLineOfSightDuration > 0 ? 1 - SceneMath.exp(-elapsed / model.meanLineOfSightDuration) : 1
            if random.bernoulli(enter) {
                isNonLineOfSight = true
                burstBias = random.exponential(mean: model.nonLineOfSightBiasMean)
            }
        }
    }

    private func dropoutProbability(distance: Double, nlos: Bool) -> Double {
        let base = nlos ? model.nonLineOfSightDropoutProbability : model.dropoutProbability
        let rangeFactor = SceneMath.clamp(
            (distance - model.reliableRange) / (model.maximumRange - model.reliableRange), 0...1)
        return base + (1 - base) * rangeFactor
    }

    private mutating func figureOfMerit(_ quality: Double) -> UInt8 {
        let value = 100 * quality + random.gaussian(mean: 0, sigma: model.figureOfMeritJitter)
        return UInt8(SceneMath.clamp(value.rounded(), 1...100))
    }

    /// `value` rounded to a multiple of `1 / stepsPerUnit`, computed as a decoder computes
    /// `raw / stepsPerUnit`, so both give the identical `Double`.
    private static func quantise(_ value: Double, stepsPerUnit: Double) -> Double {
        (value * stepsPerUnit).rounded() / stepsPerUnit
    }
}
