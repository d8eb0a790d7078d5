/// A change of zone at a time (seconds), from one zone index to another.
public struct ZoneTransition: Sendable, Hashable {
    /// Time of the first sample in the new zone, seconds.
    public var time: Double
    /// The zone left.
    public var from: Int
    /// The zone entered.
    public var to: Int

    /// Creates a transition.
    public init(time: Double, from: Int, to: Int) {
        self.time = time
        self.from = from
        self.to = to
    }
}

/// The benchmark metrics (`specs/filters.md`, "Metrics"), as pure functions over per-sample
/// series: `times[i]`, `outputs[i]` (smoothed distance, `nil` if none), `truths[i]` (ground truth,
/// `nil` if unknown), reported and truth zones.
public enum BenchMetrics {
    /// Truth that stays within this many metres of a segment's first value counts as static.
    public static let staticTolerance = 0.02
    /// Static segments shorter than this (seconds) are not used for jitter.
    public static let minimumStaticDuration = 2.0
    /// Samples this long (seconds) after a static segment starts are excluded from jitter (the
    /// filter settles after the move), unless the segment starts the trace.
    public static let settlingTime = 1.0
    /// Lag search range, seconds.
    public static let lagRange: ClosedRange<Double> = -1...3
    /// Reversals within this many seconds are flaps.
    public static let flapWindow = 2.0
    /// A reported transition matches a truth crossing from this long before it ...
    public static let latencyLead = 1.0
    /// ... to this long after it (seconds).
    public static let latencyWindow = 5.0

    /// Accuracy of `outputs` against `truths` over the samples that have both.
    /// - Returns: RMSE, mean error, RMSE after removing the mean, and the median and 95th
    ///   percentile of the absolute error (linear interpolation between order statistics); `nil` if
    ///   no sample has both.
    public static func errorStatistics(outputs: [Double?], truths: [Double?])
        -> (rmse: Double, bias: Double, rmseDebiased: Double, p50: Double, p95: Double)?
    {
        var errors: [Double] = []
        errors.reserveCapacity(outputs.count)
        for (output, truth) in zip(outputs, truths) {
            if let output, let truth { errors.append(output - truth) }
        }
        guard !errors.isEmpty else { return nil }
        let n = Double(errors.count)
        let bias = errors.reduce(0, +) / n
        let meanSquare = errors.reduce(0) { $0 + $1 * $1 } / n
        let variance = errors.reduce(0) { $0 + ($1 - bias) * ($1 - bias) } / n
        let absolute = errors.map { abs($0) }.sorted()
        return (meanSquare.squareRoot(), bias, variance.squareRoot(), percentile(absolute, 0.5), percentile(absolute, 0.95))
    }

    /// The `p`-quantile (0 ... 1) of sorted values, interpolating linearly between order statistics.
    public static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = p * Double(sorted.count - 1)
        let lower = Int(rank.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = rank - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    /// `true` if the known truths never differ by more than ``staticTolerance`` (a static trace).
    public static func isStatic(truths: [Double?]) -> Bool {
        var low = Double.infinity
        var high = -Double.infinity
        for truth in truths {
            guard let truth else { continue }
            low = min(low, truth)
            high = max(high, truth)
        }
        return high - low <= staticTolerance
    }

    /// Static segments of the truth: maximal runs of consecutive samples with truth that stay
    /// within ``staticTolerance`` of the run's first truth value and last at least
    /// ``minimumStaticDuration``. Returns index ranges.
    public static func staticSegments(times: [Double], truths: [Double?]) -> [Range<Int>] {
        var segments: [Range<Int>] = []
        var start: Int?
        var reference = 0.0
        func close(_ end: Int) {
            if let s = start, end - s >= 2, times[end - 1] - times[s] >= minimumStaticDuration {
                segments.append(s..<end)
            }
        }
        for i in truths.indices {
            guard let truth = truths[i] else {
                close(i)
                start = nil
                continue
            }
            if start != nil, abs(truth - reference) <= staticTolerance { continue }
            close(i)
            start = i
            reference = truth
        }
        close(truths.count)
        return segments
    }

    /// Jitter: the pooled standard deviation of `outputs` about each static segment's mean
    /// output, skipping the first ``settlingTime`` of segments that do not start the trace;
    /// `nil` if the truth has no static segment.
    public static func jitter(times: [Double], outputs: [Double?], truths: [Double?]) -> Double? {
        let firstTruth = truths.firstIndex { $0 != nil }
        var sumSquares = 0.0
        var degreesOfFreedom = 0
        for segment in staticSegments(times: times, truths: truths) {
            let settleUntil = segment.lowerBound == firstTruth ? -Double.infinity : times[segment.lowerBound] + settlingTime
            var values: [Double] = []
            for i in segment where times[i] >= settleUntil {
                if let output = outputs[i] { values.append(output) }
            }
            guard values.count >= 2 else { continue }
            let mean = values.reduce(0, +) / Double(values.count)
            sumSquares += values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            degreesOfFreedom += values.count - 1
        }
        guard degreesOfFreedom > 0 else { return nil }
        return (sumSquares / Double(degreesOfFreedom)).squareRoot()
    }

    /// Lag: the shift τ (seconds, within ``lagRange``) that minimises
    /// RMSE(output(t), truth(t − τ)), truth interpolated linearly; 0 if the truth never moves by
    /// more than ``staticTolerance``; `nil` without truth. Searched on a 50 ms grid, refined on a
    /// 5 ms grid.
    public static func lag(times: [Double], outputs: [Double?], truths: [Double?]) -> Double? {
        var truthTimes: [Double] = []
        var truthValues: [Double] = []
        for (t, truth) in zip(times, truths) {
            if let truth {
                truthTimes.append(t)
                truthValues.append(truth)
            }
        }
        guard let low = truthValues.min(), let high = truthValues.max() else { return nil }
        if high - low <= staticTolerance { return 0 }
        let paired = zip(outputs, truths).filter { $0.0 != nil && $0.1 != nil }.count
        guard paired > 0 else { return nil }

        func rmse(at tau: Double) -> Double {
            var j = 0
            var sum = 0.0
            var count = 0
            let first = truthTimes[0]
            let last = truthTimes[truthTimes.count - 1]
            for i in times.indices {
                guard let output = outputs[i] else { continue }
                let target = times[i] - tau
                if target < first || target > last { continue }
                while j + 1 < truthTimes.count && truthTimes[j + 1] < target { j += 1 }
                var truth = truthValues[j]
                if j + 1 < truthTimes.count {
                    let span = truthTimes[j + 1] - truthTimes[j]
                    if span > 0 {
                        let f = min(max((target - truthTimes[j]) / span, 0), 1)
                        truth += (truthValues[j + 1] - truthValues[j]) * f
                    } else {
                        truth = truthValues[j + 1]
                    }
                }
                let e = output - truth
                sum += e * e
                count += 1
            }
            // Shifts that leave less than half of the paired samples comparable are not trusted.
            return count * 2 >= paired ? (sum / Double(count)).squareRoot() : .infinity
        }
        func search(_ from: Double, _ to: Double, step: Double, best: (tau: Double, rmse: Double)) -> (tau: Double, rmse: Double) {
            var best = best
            let steps = Int(((to - from) / step).rounded())
            for k in 0...steps {
                let tau = from + Double(k) * step
                let value = rmse(at: tau)
                if value < best.rmse || (value == best.rmse && abs(tau) < abs(best.tau)) { best = (tau, value) }
            }
            return best
        }
        let coarse = search(lagRange.lowerBound, lagRange.upperBound, step: 0.05, best: (0, rmse(at: 0)))
        guard coarse.rmse.isFinite else { return nil }
        let fine = search(
            max(coarse.tau - 0.05, lagRange.lowerBound), min(coarse.tau + 0.05, lagRange.upperBound), step: 0.005,
            best: coarse)
        return (fine.tau * 1000).rounded() / 1000
    }

    /// The changes in a zone series, skipping `nil` (no zone): `A, nil, B` is one change A → B.
    public static func transitions(times: [Double], zones: [Int?]) -> [ZoneTransition] {
        var result: [ZoneTransition] = []
        var previous: Int?
        for (t, zone) in zip(times, zones) {
            guard let zone else { continue }
            if let previous, previous != zone { result.append(ZoneTransition(time: t, from: previous, to: zone)) }
            previous = zone
        }
        return result
    }

    /// Fraction of samples with truth whose reported zone equals the truth zone (a sample with
    /// no reported zone counts as wrong); `nil` without truth.
    public static func zoneAccuracy(reported: [Int?], truth: [Int?]) -> Double? {
        var total = 0
        var correct = 0
        for (r, t) in zip(reported, truth) {
            guard let t else { continue }
            total += 1
            if r == t { correct += 1 }
        }
        return total > 0 ? Double(correct) / Double(total) : nil
    }

    /// Flaps: pairs of consecutive reported transitions A → B, B → A no more than ``flapWindow``
    /// apart, unless the truth also goes A → B → A with both of its transitions within
    /// ``flapWindow`` before the first to ``flapWindow`` after the second. Without truth
    /// (`truth == nil`) every such reversal counts.
    public static func flaps(reported: [ZoneTransition], truth: [ZoneTransition]?) -> Int {
        guard reported.count >= 2 else { return 0 }
        var count = 0
        for k in 0..<(reported.count - 1) {
            let first = reported[k]
            let second = reported[k + 1]
            guard second.from == first.to, second.to == first.from, second.time - first.time <= flapWindow else { continue }
            var explained = false
            if let truth, truth.count >= 2 {
                for m in 0..<(truth.count - 1) {
                    let a = truth[m]
                    let b = truth[m + 1]
                    if a.from == first.from, a.to == first.to, b.from == first.to, b.to == first.from,
                       a.time >= first.time - flapWindow, b.time <= second.time + flapWindow
                    {
                        explained = true
                        break
                    }
                }
            }
            if !explained { count += 1 }
        }
        return count
    }

    /// Zone latency: for each truth transition A → B at time t, the first reported A → B
    /// transition not matched yet within [t − ``latencyLead``, t + ``latencyWindow``]; the mean
    /// of (reported − truth) over matched crossings, `nil` if none matched.
    public static func zoneLatency(reported: [ZoneTransition], truth: [ZoneTransition]) -> Double? {
        var used = [Bool](repeating: false, count: reported.count)
        var sum = 0.0
        var matched = 0
        for crossing in truth {
            for k in reported.indices where !used[k] {
                let candidate = reported[k]
                guard candidate.from == crossing.from, candidate.to == crossing.to else { continue }
                if candidate.time < crossing.time - latencyLead { continue }
                if candidate.time > crossing.time + latencyWindow { break }
                used[k] = true
                sum += candidate.time - crossing.time
                matched += 1
                break
            }
        }
        return matched > 0 ? sum / Double(matched) : nil
    }
}
