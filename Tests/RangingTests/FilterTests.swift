import Ranging
import Testing
import NearbyTestSupport

/// Feeds values (1 s apart, weight 1 unless given) and returns the outputs.
func run<F: RangeFilter>(_ filter: inout F, _ values: [Double], weights: [Double]? = nil, times: [Double]? = nil) -> [Double] {
    values.indices.map { i in
        filter.update(FilterInput(value: values[i], time: times?[i] ?? Double(i), weight: weights?[i] ?? 1))
    }
}

func expectClose(_ actual: [Double], _ expected: [Double], tolerance: Double = 1e-9, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.count == expected.count, sourceLocation: sourceLocation)
    for (a, e) in zip(actual, expected) {
        #expect(abs(a - e) <= tolerance, "got \(actual), expected \(expected)", sourceLocation: sourceLocation)
    }
}

/// After 2 s at 2 m, a 2.1 m measurement moves a filter from `make` less when its FoM is 30
/// or it is flagged NLoS than with full confidence.
func expectFoMAndNLoSWeighting<F: RangeFilter>(
    minimumCorrection: Double = 0.01, sourceLocation: SourceLocation = #_sourceLocation, _ make: () -> F
) {
    func firstCorrection(_ weight: Double, nlos: Bool) -> Double {
        var filter = make()
        for i in 0...20 { _ = filter.update(FilterInput(value: 2, time: Double(i) * 0.1)) }
        return filter.update(FilterInput(value: 2.1, time: 2.1, weight: weight, isNonLineOfSight: nlos)) - 2
    }
    let full = firstCorrection(1, nlos: false)
    let lowFoM = firstCorrection(0.3, nlos: false)
    let nlos = firstCorrection(1, nlos: true)
    #expect(full > minimumCorrection, sourceLocation: sourceLocation)
    #expect(lowFoM > 0 && lowFoM < full / 2, sourceLocation: sourceLocation)
    #expect(nlos > 0 && nlos < full / 2, sourceLocation: sourceLocation)
}

/// Feeds 3 s at 2 m, then a spike, a burst of 3 agreeing outliers (as in the Hanyang traces) and a
/// real step to 4 m, and checks that a gated filter removes the first two and re-locks on the 4th
/// sample of the step. `rejections` reads the filter's count of consecutive rejections.
func expectGateRejectsSpikesAndBurstsButRelocks<F: RangeFilter>(
    _ filter: F, sourceLocation: SourceLocation = #_sourceLocation, rejections: (F) -> Int
) {
    var filter = filter
    var t = 0.0
    func feed(_ value: Double) -> Double {
        t += 0.1
        return filter.update(FilterInput(value: value, time: t))
    }
    for _ in 0..<30 { _ = feed(2.0) }
    #expect(abs(feed(19.0) - 2.0) < 0.01, sourceLocation: sourceLocation)  // a single NLoS spike
    #expect(rejections(filter) == 1, sourceLocation: sourceLocation)
    #expect(abs(feed(2.0) - 2.0) < 0.01, sourceLocation: sourceLocation)
    for _ in 0..<3 { #expect(abs(feed(-8.2) - 2.0) < 0.01, sourceLocation: sourceLocation) }
    #expect(abs(feed(2.0) - 2.0) < 0.01, sourceLocation: sourceLocation)
    // A real step to 4 m: held for 3 samples, re-locked on the 4th, tracked afterwards.
    for _ in 0..<3 { #expect(abs(feed(4.0) - 2.0) < 0.01, sourceLocation: sourceLocation) }
    #expect(feed(4.0) == 4.0, sourceLocation: sourceLocation)
    #expect(abs(feed(4.01) - 4.0) < 0.02, sourceLocation: sourceLocation)
    #expect(rejections(filter) == 0, sourceLocation: sourceLocation)
}

@Suite struct FilterMathTests {
    @Test func rawPassesEverything() {
        var filter = RawFilter()
        #expect(run(&filter, [1, -2, 19.5]) == [1, -2, 19.5])
    }

    @Test func median3IsAndroidsMedAvgWithWindow3() {
        var filter = MedianAverageFilter(.standard(for: .distance))
        // 1 sample: itself. 2 samples: FoM-weighted mean (1·1 + 3·0.5) / 1.5. Then medians of 3.
        let out = run(&filter, [1, 3, 2, 10, 2.5], weights: [1, 0.5, 1, 1, 1])
        expectClose(out, [1, (1 + 3 * 0.5) / 1.5, 2, 3, 2.5])
    }

    @Test func androidAngleWindowAveragesTheMiddleThreeOfFive() {
        var filter = MedianAverageFilter(.standard(for: .angle))
        // n=1: itself; n=2: both; n=3: median; n=4: middle 2; n=5: middle 3 weighted.
        let out = run(&filter, [40, 10, 30, 20, 50], weights: [1, 1, 1, 0.2, 1])
        let middle3 = (20 * 0.2 + 30 + 40) / 2.2
        expectClose(out, [40, 25, 30, (20 * 0.2 + 30) / 1.2, middle3])
    }

    @Test func medAvgInlierFractionOneIsTheMean() {
        var filter = MedianAverageFilter(MedianAverageFilter.Parameters(windowSize: 4, inlierFraction: 1))
        expectClose(run(&filter, [1, 2, 3, 10, 20]), [1, 1.5, 2, 4, 8.75])
    }

    @Test func ma10AveragesWhatItHasThenTheLastTen() {
        var filter = MovingAverageFilter(.standard(for: .distance))
        let out = run(&filter, (1...12).map(Double.init))
        expectClose(out, [1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6.5, 7.5])
    }

    @Test func emaIsTheFifteenPeriodForm() {
        var filter = ExponentialMovingAverageFilter(.standard(for: .distance))
        #expect(filter.parameters.smoothingFactor == 0.125)
        expectClose(run(&filter, [10, 2, 2]), [10, 9, 8.125])
        filter.reset()
        #expect(run(&filter, [4]) == [4])
    }

    @Test func oneEuroSecondRowByHand() {
        // filters.md: row 2 of the reference vector, dx = 1.2532, edx = 0.06236 → −0.0379872.
        var filter = OneEuroFilter(OneEuroFilter.Parameters(minimumCutoff: 1, beta: 0.1, derivativeCutoff: 1, frequency: 120))
        let out = run(&filter, [-0.0385099, -0.0280664], times: [0, 1.0 / 120])
        #expect(out[0] == -0.0385099)
        #expect(abs(out[1] - -0.0379872) < 5e-8)
        #expect(abs(filter.rate! - 0.06236) < 1e-5)
    }

    @Test func kalmanFirstStepsByHand() {
        let parameters = KalmanFilter.Parameters(
            measurementNoise: 0.1, processNoise: 1, gate: .infinity, relockSpread: 1, initialRateNoise: 1)
        var filter = KalmanFilter(parameters)
        #expect(filter.update(FilterInput(value: 1, time: 0)) == 1)
        #expect(abs(filter.variance! - 0.01) < 1e-15)
        // Predict 1 s: P00 = 0.01 + 1 + 1/3, P01 = 1 + 1/2, P11 = 2; S = P00 + 0.01.
        let p00 = 0.01 + 1 + 1.0 / 3
        let s = p00 + 0.01
        let out = filter.update(FilterInput(value: 1.2, time: 1))
        #expect(abs(out - (1 + p00 / s * 0.2)) < 1e-12)
        #expect(abs(filter.rate! - 1.5 / s * 0.2) < 1e-12)
        #expect(abs(filter.variance! - (1 - p00 / s) * p00) < 1e-12)
    }

    @Test func kalmanWeighsByFoMAndNLoS() {
        expectFoMAndNLoSWeighting { KalmanFilter(.standard(for: .distance)) }
    }

    @Test func kalmanGateRejectsSpikesAndBurstsButRelocksAfterAStep() {
        expectGateRejectsSpikesAndBurstsButRelocks(KalmanFilter(.standard(for: .distance))) { $0.consecutiveRejections }
    }

    @Test func kalmanFollowsARampWithItsVelocity() {
        var filter = KalmanFilter(.standard(for: .distance))
        var last = 0.0
        for i in 0...100 {
            let t = Double(i) * 0.1
            last = filter.update(FilterInput(value: 5 - 1.0 * t, time: t))
        }
        #expect(abs(last - (5 - 10)) < 0.01)
        #expect(abs(filter.rate! - -1.0) < 0.01)
    }

    @Test func hampelReplacesOutliersByTheWindowMedian() {
        var filter = HampelFilter(.standard(for: .distance))
        let out = run(&filter, [1.00, 1.02, 0.98, 1.01, 5.0, 0.99, 1.25, 1.5])
        // 5.0 is an outlier (window median 1.01). 1.25 deviates 0.24 m from the median 1.01: inside
        // the 3 × 0.1 m floor band, kept. 1.5 deviates 0.48 m from the median 1.02: replaced.
        expectClose(out, [1.00, 1.02, 0.98, 1.01, 1.01, 0.99, 1.25, 1.02])
        #expect(filter.replacedLastSample)
    }

    @Test func hampelUsesTheMADWhenTheSignalIsNoisy() {
        var filter = HampelFilter(HampelFilter.Parameters(windowSize: 5, threshold: 3, minimumDeviation: 0))
        // Window [0, 2, -2, 1, x > 2]: median 1, MAD 1 → σ 1.4826 → outlier if |x − 1| > 4.4478.
        expectClose(run(&filter, [0, 2, -2, 1, 5.4]), [0, 2, -2, 1, 5.4])
        filter.reset()
        expectClose(run(&filter, [0, 2, -2, 1, 5.5]), [0, 2, -2, 1, 1])
    }

    @Test func hampelMatchesAPlainSortingImplementation() {
        // Reference: sort the trailing window and the absolute deviations each time.
        func reference(_ values: [Double], window: Int, threshold: Double, floor: Double) -> [Double] {
            values.indices.map { i in
                let slice = Array(values[max(0, i - window + 1)...i])
                guard slice.count >= 3 else { return values[i] }
                func median(_ xs: [Double]) -> Double {
                    let s = xs.sorted()
                    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
                }
                let m = median(slice)
                let sigma = max(1.4826 * median(slice.map { abs($0 - m) }), floor)
                return abs(values[i] - m) > threshold * sigma ? m : values[i]
            }
        }
        var generator = SplitMix64(seed: 7)
        for window in [3, 4, 7, 8, 11] {
            // Noise with spikes, repeated values and a step.
            let values = (0..<400).map { i -> Double in
                let u = Double(generator.next() % 10_000) / 10_000
                let base = i < 200 ? 2.0 : 4.0
                if u > 0.97 { return base + 10 * u }
                return base + (u * 20).rounded() / 100
            }
            var filter = HampelFilter(HampelFilter.Parameters(windowSize: window, threshold: 3, minimumDeviation: 0.02))
            let out = run(&filter, values)
            #expect(out == reference(values, window: window, threshold: 3, floor: 0.02), "window \(window)")
        }
    }

    @Test func hampelComposesInFrontOfAnyFilter() throws {
        var chain = ConfiguredFilter(try FilterSpec(name: "hampel+ema"), domain: .distance)
        var plain = ConfiguredFilter(FilterSpec(.ema), domain: .distance)
        let values = [2.0, 2.0, 2.0, 2.0, 19.0, 2.0]
        let chained = run(&chain, values)
        let unchained = run(&plain, values)
        expectClose(chained, [2, 2, 2, 2, 2, 2])
        #expect(unchained[4] > 4)
    }

    @Test func circularFiltersAverageAcrossTheWrap() {
        var filter = CircularFilter(MovingAverageFilter(.standard(for: .angle)))
        let out = run(&filter, [170, -170, 175, -175])
        // Unwrapped: 170, 190, 175, 185 → means 170, 180, 178.33, 180 → wrapped to -180 ..< 180.
        expectClose(out, [170, -180, 178.33333333333334, -180])
        var kalman = CircularFilter(KalmanFilter(.standard(for: .angle)))
        let tracked = run(&kalman, [179, -179, 179, -179, 179, -179], times: [0, 0.1, 0.2, 0.3, 0.4, 0.5])
        #expect(tracked.allSatisfy { abs($0) > 178 })
    }

    @Test func absurdTimeGapsNeverProduceNaN() {
        var kalman = KalmanFilter(.standard(for: .distance))
        _ = kalman.update(FilterInput(value: 2, time: 0))
        _ = kalman.update(FilterInput(value: 2.1, time: 0.1))
        let afterGap = kalman.update(FilterInput(value: 3, time: 1e120))
        #expect(afterGap.isFinite)
        #expect(kalman.update(FilterInput(value: 3.01, time: 1e120 + 0.1)).isFinite)
        var euro = OneEuroFilter(.standard(for: .distance))
        _ = euro.update(FilterInput(value: 2, time: 0))
        let tiny = euro.update(FilterInput(value: 2, time: Double.leastNonzeroMagnitude))
        #expect(tiny == 2)
        #expect(euro.update(FilterInput(value: 2.5, time: 0.1)).isFinite)
    }

    @Test func resetForgetsState() {
        var kalman = KalmanFilter(.standard(for: .distance))
        _ = run(&kalman, [1, 1, 1])
        kalman.reset()
        #expect(kalman.update(FilterInput(value: 7, time: 10)) == 7)
        var median = MedianAverageFilter(.standard(for: .distance))
        _ = run(&median, [1, 1, 1])
        median.reset()
        #expect(median.update(FilterInput(value: 7, time: 10)) == 7)
        var euro = OneEuroFilter(.standard(for: .distance))
        _ = run(&euro, [1, 1, 1])
        euro.reset()
        #expect(euro.update(FilterInput(value: 7, time: 10)) == 7)
    }
}

@Suite struct FilterSpecTests {
    @Test func parsesEveryNameAndComposition() throws {
        #expect(try FilterSpec(name: "raw") == FilterSpec(.raw))
        #expect(try FilterSpec(name: "one-euro") == FilterSpec(.oneEuro))
        #expect(try FilterSpec(name: "hampel") == FilterSpec(.raw, hampel: true))
        #expect(try FilterSpec(name: "hampel+kalman") == FilterSpec(.kalman, hampel: true))
        #expect(try FilterSpec(name: "default") == FilterSpec.default)
        #expect(try FilterSpec(name: "hampel+default") == FilterSpec(FilterSpec.default.kind, hampel: true))
        for name in FilterSpec.acceptedNames where name != "default" {
            #expect(try FilterSpec(name: name).name == name)
        }
        #expect(try FilterSpec(name: "imm") == FilterSpec(.imm))
        #expect(FilterSpec.default == FilterSpec(.imm))
        #expect(FilterSpec.baselines.map(\.name) == ["raw", "median3", "ma10", "ema", "one-euro"])
        #expect(FilterSpec.benchmarkSet.map(\.name) == [
            "raw", "median3", "ma10", "ema", "one-euro", "kalman", "imm",
            "hampel", "hampel+median3", "hampel+ma10", "hampel+ema", "hampel+one-euro", "hampel+kalman", "hampel+imm",
        ])
    }

    @Test func unknownNamesListTheAcceptedOnes() {
        #expect(throws: FilterSpecError.self) { try FilterSpec(name: "kalmann") }
        let message = FilterSpecError(name: "kalmann").description
        #expect(message.contains("'kalmann'"))
        #expect(message.contains("median3") && message.contains("one-euro") && message.contains("hampel+kalman"))
        #expect(throws: FilterSpecError.self) { try FilterSpec(name: "hampel+hampel") }
        #expect(throws: FilterSpecError.self) { try FilterSpec(name: "") }
    }
}

/// The seeded generator of NearbyTestSupport.
typealias SplitMix64 = SeededGenerator
