import Ranging

/// Builds the synthetic traces of `data/synthetic/` from the real Hanyang static LOS traces
/// (their README documents the recipe). Deterministic: same input, same bytes.
enum SyntheticTraces {
    static let losStatic = [2, 4, 6, 8, 10].map { "data/hanyang/static/los_h100_\($0)m.csv" }

    /// Real noise: the residuals (measured − truth) of every static LOS trace, each trace's mean
    /// removed, concatenated with their real inter-sample intervals (time starts at 0).
    static func debiasedNoise() throws -> [(time: Double, residual: Double)] {
        var result: [(Double, Double)] = []
        var offset = 0.0
        for path in losStatic {
            let records = try TraceFiles.records(path)
            let residuals = records.map { $0.sample.distance! - $0.truth! }
            let mean = residuals.reduce(0, +) / Double(residuals.count)
            let times = records.map(\.sample.timestamp)
            for (t, r) in zip(times, residuals) { result.append((offset + t, r - mean)) }
            let lastInterval = times[times.count - 1] - times[times.count - 2]
            offset += times[times.count - 1] + lastInterval
        }
        return result
    }

    static func round4(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }

    static func csv(_ rows: [(time: Double, distance: Double, truth: Double)]) -> String {
        let writer = TraceWriter()
        var text = writer.header + "\n"
        for row in rows {
            let sample = RangeSample(
                timestamp: round4(row.time), distance: round4(row.distance), isNonLineOfSight: false, status: 0)
            text += writer.line(for: sample, truth: round4(row.truth)) + "\n"
        }
        return text
    }

    /// Truth 1.5 m (the near/mid boundary) throughout; measured = 1.5 m + de-biased real noise.
    static func hover() throws -> String {
        csv(try debiasedNoise().map { ($0.time, 1.5 + $0.residual, 1.5) })
    }

    /// The real 2 m trace followed by the real 4 m trace (measured values and timestamps kept, the
    /// second shifted to follow the first by its last interval): a 2 m → 4 m step across 3 m.
    static func step() throws -> String {
        let first = try TraceFiles.records("data/hanyang/static/los_h100_2m.csv")
        let second = try TraceFiles.records("data/hanyang/static/los_h100_4m.csv")
        let lastInterval = first[first.count - 1].sample.timestamp - first[first.count - 2].sample.timestamp
        let offset = first[first.count - 1].sample.timestamp + lastInterval
        var rows = first.map { ($0.sample.timestamp, $0.sample.distance!, $0.truth!) }
        rows += second.map { (offset + $0.sample.timestamp, $0.sample.distance!, $0.truth!) }
        return csv(rows)
    }

    /// Truth walks 4 m → 1 m → 4 m twice (first at 0.5 m/s, then at 1 m/s), crossing 3 m and
    /// 1.5 m in both directions; measured = truth + de-biased real noise.
    static func walk() throws -> String {
        // (duration s, target m): hold segments keep the distance, ramps move linearly.
        let plan: [(Double, Double)] = [
            (6, 4), (6, 1), (8, 1), (6, 4), (6, 4),  // 0.5 m/s
            (3, 1), (8, 1), (3, 4), (100, 4),  // 1 m/s, then hold to the end
        ]
        func truth(at t: Double) -> Double {
            var start = 0.0
            var from = 4.0
            for (duration, target) in plan {
                if t <= start + duration { return from + (target - from) * (t - start) / duration }
                start += duration
                from = target
            }
            return from
        }
        return csv(try debiasedNoise().map { ($0.time, truth(at: $0.time) + $0.residual, truth(at: $0.time)) })
    }

    /// File name → content of every synthetic trace.
    static func all() throws -> [(name: String, content: String)] {
        [("hover_1p5m.csv", try hover()), ("step_2m_4m.csv", try step()), ("walk_4m_1m.csv", try walk())]
    }
}
