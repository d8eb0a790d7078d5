import Ranging
import Simulation
import Testing

/// Noise statistics over many rounds with fixed seeds: bias, sigma, dropouts, bursts, angles,
/// FoM, RSSI, determinism.
@Suite struct SceneNoiseTests {
    static func statistics(_ values: [Double]) -> (mean: Double, sigma: Double) {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return (mean, variance.squareRoot())
    }

    static func rounds(
        _ model: NoiseModel, _ truth: RelativeGeometry, count: Int, interval: Double = 0.1, seed: UInt64 = 1
    ) throws -> [SimulatedMeasurement] {
        var channel = try RadioChannel(model: model, seed: seed)
        return (0..<count).map { channel.measure(truth, at: Double($0) * interval) }
    }

    static let ahead5m = RelativeGeometry(distance: 5, azimuth: 0, elevation: 0)

    @Test func prngMatchesTheReferenceAlgorithm() {
        // xoshiro256** seeded by SplitMix64 (values from an independent implementation).
        var zero = SimulationRandom(seed: 0)
        #expect(
            [zero.next(), zero.next(), zero.next()] == [
                0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0,
            ])
        var answer = SimulationRandom(seed: 42)
        #expect(
            [answer.next(), answer.next(), answer.next()] == [
                0x1578_0B2E_0C2E_C716, 0x6104_D986_6D11_3A7E, 0xAE17_5332_39E4_99A1,
            ])
        #expect(SimulationRandom.derivedSeed(7, "link|accessory-1|host") == 0x4C4D_0E39_9819_3046)
    }

    @Test func gaussianAndExponentialDraws() {
        var random = SimulationRandom(seed: 11)
        let normal = (0..<100_000).map { _ in random.gaussian() }
        let (mean, sigma) = Self.statistics(normal)
        #expect(abs(mean) < 0.01)
        #expect(abs(sigma - 1) < 0.01)
        let exponential = (0..<100_000).map { _ in random.exponential(mean: 0.25) }
        #expect(abs(Self.statistics(exponential).mean - 0.25) < 0.005)
        #expect(exponential.allSatisfy { $0 >= 0 })
        let uniform = (0..<100_000).map { _ in random.uniform() }
        #expect(uniform.allSatisfy { $0 >= 0 && $0 < 1 })
    }

    @Test func lineOfSightRangeBiasAndSigma() throws {
        let model = NoiseModel.lineOfSight
        for distance in [2.0, 5.0, 10.0] {
            let truth = RelativeGeometry(distance: distance, azimuth: 0, elevation: 0)
            let errors = try Self.rounds(model, truth, count: 20_000).compactMap { $0.distance.map { $0 - distance } }
            #expect(errors.count == 20_000)  // no dropouts in this model
            let (bias, sigma) = Self.statistics(errors)
            let expectedBias = model.rangeBias + model.rangeBiasPerMetre * distance
            let expectedSigma = model.rangeSigma + model.rangeSigmaPerMetre * distance
            #expect(abs(bias - expectedBias) < 0.002, "bias at \(distance) m: \(bias)")
            #expect(abs(sigma / expectedSigma - 1) < 0.05, "sigma at \(distance) m: \(sigma)")
        }
    }

    @Test func valuesAreQuantisedAsUCICarriesThem() throws {
        for round in try Self.rounds(.default, Self.ahead5m, count: 2_000) where round.isValid {
            let distance = try #require(round.distance)
            #expect((distance * 100).rounded() / 100 == distance)
            if let azimuth = round.azimuth { #expect((azimuth * 128).rounded() / 128 == azimuth) }
            if let elevation = round.elevation { #expect((elevation * 128).rounded() / 128 == elevation) }
            if let rssi = round.rssi { #expect((rssi * 2).rounded() / 2 == rssi) }
        }
    }

    @Test func dropoutsHaveStatusRXTimeoutAndNoValues() throws {
        var model = NoiseModel.lineOfSight
        model.dropoutProbability = 0.05
        let rounds = try Self.rounds(model, Self.ahead5m, count: 20_000)
        let dropouts = rounds.filter { !$0.isValid }
        #expect(abs(Double(dropouts.count) / 20_000 - 0.05) < 0.006)
        for dropout in dropouts {
            #expect(dropout.status == 0x21)
            #expect(dropout.distance == nil && dropout.azimuth == nil && dropout.elevation == nil)
            #expect(dropout.azimuthFigureOfMerit == nil && dropout.rssi == nil && dropout.reportedNonLineOfSight == nil)
            let sample = dropout.rangeSample(timestamp: 1)
            #expect(sample.status == 0x21 && sample.distance == nil && !sample.isValid)
        }
        // Beyond the reliable range the dropout rate climbs to 1 at the maximum range.
        let far = RelativeGeometry(distance: 42.5, azimuth: 0, elevation: 0)
        let farRate = Double(try Self.rounds(model, far, count: 10_000).filter { !$0.isValid }.count) / 10_000
        #expect(abs(farRate - (0.05 + 0.95 * 0.5)) < 0.02)
        let beyond = RelativeGeometry(distance: 70, azimuth: 0, elevation: 0)
        #expect(try Self.rounds(model, beyond, count: 500).allSatisfy { !$0.isValid })
    }

    @Test func nonLineOfSightBurstsFollowTheMarkovModel() throws {
        let model = NoiseModel.default
        let interval = 0.1
        let rounds = try Self.rounds(model, Self.ahead5m, count: 50_000, interval: interval, seed: 2024)
        // Time share and mean burst / gap lengths.
        let nlosShare = Double(rounds.filter(\.isNonLineOfSightTruth).count) / Double(rounds.count)
        let expectedShare =
            model.meanNonLineOfSightDuration / (model.meanNonLineOfSightDuration + model.meanLineOfSightDuration)
        #expect(abs(nlosShare - expectedShare) < 0.025, "NLoS share \(nlosShare)")
        var bursts: [Double] = []
        var gaps: [Double] = []
        var runStart = 0
        for index in 1...rounds.count {
            if index == rounds.count || rounds[index].isNonLineOfSightTruth != rounds[runStart].isNonLineOfSightTruth {
                let length = Double(index - runStart) * interval
                if runStart > 0 && index < rounds.count {  // whole runs only
                    if rounds[runStart].isNonLineOfSightTruth { bursts.append(length) } else { gaps.append(length) }
                }
                runStart = index
            }
        }
        #expect(bursts.count > 150)
        #expect(abs(Self.statistics(bursts).mean / model.meanNonLineOfSightDuration - 1) < 0.2)
        #expect(abs(Self.statistics(gaps).mean / model.meanLineOfSightDuration - 1) < 0.2)

        // During bursts: positive bias, larger sigma, the flag mostly set, lower FoM, more dropouts.
        let valid = rounds.filter { $0.isValid && !$0.isOutlier }
        let los = valid.filter { !$0.isNonLineOfSightTruth }
        let nlos = valid.filter(\.isNonLineOfSightTruth)
        let losErrors = Self.statistics(los.compactMap { $0.distance.map { $0 - 5 } })
        let nlosErrors = Self.statistics(nlos.compactMap { $0.distance.map { $0 - 5 } })
        #expect(nlosErrors.mean - losErrors.mean > 0.15, "NLoS excess bias \(nlosErrors.mean - losErrors.mean)")
        #expect(nlosErrors.sigma > 2 * losErrors.sigma)
        let flagged = Double(nlos.filter { $0.reportedNonLineOfSight == true }.count) / Double(nlos.count)
        #expect(abs(flagged - model.nonLineOfSightDetectionProbability) < 0.03)
        let falseFlags = Double(los.filter { $0.reportedNonLineOfSight == true }.count) / Double(los.count)
        #expect(abs(falseFlags - model.falseNonLineOfSightProbability) < 0.005)
        let losFoM = Self.statistics(los.compactMap { $0.azimuthFigureOfMerit.map(Double.init) }).mean
        let nlosFoM = Self.statistics(nlos.compactMap { $0.azimuthFigureOfMerit.map(Double.init) }).mean
        #expect(nlosFoM < 0.6 * losFoM)
        let nlosDropouts =
            Double(rounds.filter { $0.isNonLineOfSightTruth && !$0.isValid }.count)
            / Double(rounds.filter(\.isNonLineOfSightTruth).count)
        #expect(abs(nlosDropouts - model.nonLineOfSightDropoutProbability) < 0.02)
    }

    @Test func burstLengthsDoNotDependOnTheRangingInterval() throws {
        for interval in [0.05, 0.2] {
            let rounds = try Self.rounds(
                .default, Self.ahead5m, count: Int(5_000 / interval), interval: interval, seed: 9)
            let share = Double(rounds.filter(\.isNonLineOfSightTruth).count) / Double(rounds.count)
            #expect(abs(share - 2.0 / 22.0) < 0.025, "NLoS share at \(interval) s: \(share)")
        }
    }

    @Test func outliersArePositiveAndRare() throws {
        let rounds = try Self.rounds(.default, Self.ahead5m, count: 50_000, seed: 77)
        let valid = rounds.filter(\.isValid)
        let outliers = valid.filter(\.isOutlier)
        #expect(abs(Double(outliers.count) / Double(valid.count) - 0.004) < 0.0015)
        for outlier in outliers {
            #expect((outlier.distance ?? 0) - 5 > 0.6)
        }
    }

    @Test func angleNoiseGrowsOffAxis() throws {
        let model = NoiseModel.lineOfSight
        for (azimuth, expected) in [(0.0, 3.0), (60.0, 6.0)] {
            let truth = RelativeGeometry(distance: 3, azimuth: azimuth, elevation: 0)
            let rounds = try Self.rounds(model, truth, count: 20_000)
            let azimuthErrors = Self.statistics(rounds.compactMap { $0.azimuth.map { $0 - azimuth } })
            #expect(abs(azimuthErrors.mean) < 0.1)
            #expect(
                abs(azimuthErrors.sigma / expected - 1) < 0.05, "azimuth sigma at \(azimuth)°: \(azimuthErrors.sigma)")
            let elevationErrors = Self.statistics(rounds.compactMap { $0.elevation })
            #expect(abs(elevationErrors.sigma / (5 * expected / 3) - 1) < 0.05)
        }
    }

    @Test func rearTargetsAreMirroredWithALowFigureOfMerit() throws {
        let behind = RelativeGeometry(distance: 3, azimuth: 150, elevation: 0)
        let rounds = try Self.rounds(.lineOfSight, behind, count: 5_000)
        let azimuths = Self.statistics(rounds.compactMap(\.azimuth))
        #expect(abs(azimuths.mean - 30) < 0.5)
        let fom = Self.statistics(rounds.compactMap { $0.azimuthFigureOfMerit.map(Double.init) }).mean
        #expect(fom < 35)
        var model = NoiseModel.lineOfSight
        model.mirrorsRearAzimuth = false
        let unmirrored = try Self.rounds(model, behind, count: 2_000).compactMap(\.azimuth)
        #expect(abs(Self.statistics(unmirrored).mean - 150) < 1)
    }

    @Test func idealModelReportsTheTruth() throws {
        let truth = RelativeGeometry(distance: 3.217, azimuth: -41.3, elevation: 12.9)
        for round in try Self.rounds(.ideal, truth, count: 200) {
            #expect(round.status == 0)
            #expect(round.distance == 3.22)
            #expect(round.azimuth == (-41.3 * 128).rounded() / 128)
            #expect(round.elevation == (12.9 * 128).rounded() / 128)
            #expect(round.reportedNonLineOfSight == false)
        }
        let ahead = try Self.rounds(.ideal, RelativeGeometry(distance: 1, azimuth: 0, elevation: 0), count: 1)[0]
        #expect(ahead.azimuthFigureOfMerit == 100 && ahead.elevationFigureOfMerit == 100)
        #expect(ahead.rssi == -65)
        let far = try Self.rounds(.ideal, RelativeGeometry(distance: 10, azimuth: 0, elevation: 0), count: 1)[0]
        #expect(far.rssi == -85)  // 20 dB per decade
    }

    @Test func angleReportingFollowsTheAntennaConfiguration() throws {
        var model = NoiseModel.ideal
        model.angles = .none
        let none = try Self.rounds(model, Self.ahead5m, count: 1)[0]
        #expect(none.azimuth == nil && none.elevation == nil && none.azimuthFigureOfMerit == nil)
        #expect(none.rangeSample(timestamp: 0).figureOfMerit == nil)
        model.angles = .azimuth
        let azimuthOnly = try Self.rounds(model, Self.ahead5m, count: 1)[0]
        #expect(azimuthOnly.azimuth == 0 && azimuthOnly.elevation == nil)
    }

    @Test func nonFiniteGeometryNeverTraps() throws {
        var channel = try RadioChannel(model: .default, seed: 4)
        for distance in [Double.nan, .infinity, -.infinity, -3] {
            for azimuth in [Double.nan, 0, .infinity] {
                let round = channel.measure(RelativeGeometry(distance: distance, azimuth: azimuth, elevation: .nan), at: 1)
                let fields = round.uciFields
                #expect(fields.azimuthFigureOfMerit <= 100 && fields.elevationFigureOfMerit <= 100)
                _ = (fields.azimuthQ9_7, fields.elevationQ9_7, fields.rssiQ7_1)
                #expect(round.rangeSample(timestamp: 0).status == round.status)
            }
        }
    }

    @Test func invalidNoiseParametersAreNamed() {
        var model = NoiseModel()
        model.dropoutProbability = 1.5
        let error = #expect(throws: SceneError.self) { try Scene(noise: model) }
        #expect(error?.description == "dropoutProbability 1.5 is out of range, expected a probability 0 ... 1")
        model = NoiseModel()
        model.rangeSigma = -1
        #expect(throws: SceneError.self) { try RadioChannel(model: model, seed: 0) }
        model = NoiseModel()
        model.maximumRange = 10
        #expect(throws: SceneError.self) { try model.validate() }
    }
}
