import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import NearbyTestSupport
import Ranging
import Testing

@Suite struct BenchMetricsTests {
    @Test func errorStatisticsByHand() throws {
        // Errors 0, 1, 2, 3 (and a sample without output, one without truth: skipped).
        let stats = try #require(BenchMetrics.errorStatistics(outputs: [1, 2, 3, 4, nil, 9], truths: [1, 1, 1, 1, 1, nil]))
        #expect(abs(stats.rmse - (14.0 / 4).squareRoot()) < 1e-12)
        #expect(stats.bias == 1.5)
        #expect(abs(stats.rmseDebiased - 1.25.squareRoot()) < 1e-12)
        #expect(abs(stats.p95 - 2.85) < 1e-12)  // rank 0.95 · 3 = 2.85 between 2 and 3
        #expect(abs(stats.p50 - 1.5) < 1e-12)  // rank 0.5 · 3 = 1.5 between 1 and 2
        #expect(BenchMetrics.errorStatistics(outputs: [1, 2], truths: [nil, nil]) == nil)
    }

    @Test func jitterIsTheStdOfOutputOnStaticTruth() throws {
        let times = (0..<40).map { Double($0) * 0.1 }
        let outputs: [Double?] = (0..<40).map { $0 % 2 == 0 ? 1.9 : 2.1 }
        let jitter = try #require(BenchMetrics.jitter(times: times, outputs: outputs, truths: Array(repeating: 2.0, count: 40)))
        #expect(abs(jitter - (40 * 0.01 / 39).squareRoot()) < 1e-12)
        // A moving truth has no static segment.
        #expect(BenchMetrics.jitter(times: times, outputs: outputs, truths: times.map { 2 + $0 }) == nil)
        #expect(BenchMetrics.jitter(times: times, outputs: outputs, truths: Array(repeating: nil, count: 40)) == nil)
    }

    @Test func jitterSkipsTheSettlingAfterAStep() throws {
        // 2 m for 3 s, 4 m for 3 s; the output takes 0.5 s to follow (excluded), then is exact.
        let times = (0..<60).map { Double($0) * 0.1 }
        let truths: [Double?] = times.map { $0 < 3 ? 2 : 4 }
        let outputs: [Double?] = times.map { $0 < 3 ? 2 : ($0 < 3.5 ? 3 : 4) }
        #expect(BenchMetrics.staticSegments(times: times, truths: truths) == [0..<30, 30..<60])
        #expect(BenchMetrics.jitter(times: times, outputs: outputs, truths: truths) == 0)
    }

    @Test func lagFindsTheShift() throws {
        let times = (0..<600).map { Double($0) * 0.1 }
        let truths: [Double?] = times.map { 5 + 2 * sin($0 / 3) }
        let delayed: [Double?] = times.map { 5 + 2 * sin(($0 - 0.35) / 3) }
        #expect(BenchMetrics.lag(times: times, outputs: delayed, truths: truths) == 0.35)
        #expect(BenchMetrics.lag(times: times, outputs: truths, truths: truths) == 0)
        #expect(BenchMetrics.lag(times: times, outputs: delayed, truths: Array(repeating: 2, count: 600)) == 0)
        #expect(BenchMetrics.lag(times: times, outputs: delayed, truths: Array(repeating: nil, count: 600)) == nil)
    }

    @Test func transitionsFlapsAndLatency() {
        let times = [0.0, 1, 2, 3, 4, 5, 6, 7, 8, 20]
        let reported: [Int?] = [1, 1, 0, 1, nil, 1, 0, 0, 1, 2]
        let transitions = BenchMetrics.transitions(times: times, zones: reported)
        #expect(transitions == [
            ZoneTransition(time: 2, from: 1, to: 0), ZoneTransition(time: 3, from: 0, to: 1),
            ZoneTransition(time: 6, from: 1, to: 0), ZoneTransition(time: 8, from: 0, to: 1),
            ZoneTransition(time: 20, from: 1, to: 2),
        ])
        // Reversals within 2 s: 1→0→1 at 2 s/3 s and at 6 s/8 s. Without truth both count.
        #expect(BenchMetrics.flaps(reported: transitions, truth: nil) == 2)
        // Truth reverses around the first one, so only the second is a flap.
        let truth = [ZoneTransition(time: 1.8, from: 1, to: 0), ZoneTransition(time: 3.5, from: 0, to: 1)]
        #expect(BenchMetrics.flaps(reported: transitions, truth: truth) == 1)
        // Latency: 2 − 1.8 and 3 − 3.5 → mean −0.15 s.
        #expect(abs(BenchMetrics.zoneLatency(reported: transitions, truth: truth)! - -0.15) < 1e-12)
        #expect(BenchMetrics.zoneLatency(reported: [], truth: truth) == nil)
        #expect(BenchMetrics.zoneAccuracy(reported: [0, 1, nil, 1], truth: [0, 0, 1, 1]) == 0.5)
        #expect(BenchMetrics.zoneAccuracy(reported: [0], truth: [nil]) == nil)
    }
}

@Suite struct BenchRunnerTests {
    @Test func rawOnAStaticTraceMatchesAnIndependentComputation() throws {
        let records = try TraceFiles.records("data/hanyang/static/los_h100_2m.csv")
        let result = BenchRunner.quick().run(trace: "2m", records: records, filter: FilterSpec(.raw)).result
        let errors = records.map { $0.sample.distance! - 2.0 }
        let mean = errors.reduce(0, +) / Double(errors.count)
        let rmse = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        let distances = records.map { $0.sample.distance! }
        let mu = distances.reduce(0, +) / Double(distances.count)
        let std = (distances.map { ($0 - mu) * ($0 - mu) }.reduce(0, +) / Double(distances.count - 1)).squareRoot()
        #expect(result.samples == 89)
        #expect(abs(result.rmse! - rmse) < 1e-12)
        #expect(abs(result.bias! - mean) < 1e-12)
        #expect(abs(result.bias! - -0.069) < 0.001)  // the README's figure
        #expect(abs(result.jitter! - std) < 1e-12)
        #expect(result.lag == 0)
        #expect(result.zoneAccuracy == 1)
        #expect(result.zoneTransitions == 0 && result.truthZoneTransitions == 0 && result.zoneFlaps == 0)
        #expect(result.zoneLatency == nil)
        #expect(result.nanosecondsPerSample > 0)
    }

    @Test func theDefaultRejectsTheRealOutliersOfADynamicTrace() throws {
        let records = try TraceFiles.records("data/hanyang/dynamic/nlos_A_case1_A3.csv")
        let runner = BenchRunner.quick()
        let raw = runner.run(trace: "A3", records: records, filter: FilterSpec(.raw)).result
        let best = runner.run(trace: "A3", records: records, filter: .default).result
        #expect(raw.rmse! > 1.0)  // 23 outliers of up to 19 m
        #expect(best.rmse! < 0.25)
        #expect(best.lag! < 0.3)
    }

    @Test func tracesWithoutTruthHaveNullAccuracy() throws {
        let records = try TraceFiles.records("data/hanyang/static/los_h100_2m.csv").map {
            TraceRecord(sample: $0.sample, truth: nil)
        }
        let result = BenchRunner.quick().run(trace: "nt", records: records, filter: .default).result
        #expect(result.rmse == nil && result.bias == nil && result.rmseDebiased == nil && result.p95AbsoluteError == nil)
        #expect(result.jitter == nil && result.lag == nil && result.zoneAccuracy == nil)
        #expect(result.truthZoneTransitions == nil && result.zoneLatency == nil)
        #expect(result.samples == 89)
        let object = try JSONSerialization.jsonObject(with: Data(result.json.utf8)) as? [String: Any]
        #expect(object?["rmse_m"] is NSNull)
        #expect(object?["zone_transitions"] as? Int == 0)
    }

    @Test func jsonHasExactlyTheKeys() throws {
        let records = try TraceFiles.records("data/synthetic/step_2m_4m.csv")
        let results = FilterSpec.benchmarkSet.map { BenchRunner.quick().run(trace: "a \"quoted\" name", records: records, filter: $0).result }
        let json = BenchReport.json(results)
        #expect(json.hasSuffix("]}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let array = try #require(object["results"] as? [[String: Any]])
        #expect(array.count == FilterSpec.benchmarkSet.count)
        for entry in array {
            #expect(Set(entry.keys) == Set(BenchResult.jsonKeys))
            #expect(entry["trace"] as? String == "a \"quoted\" name")
        }
        #expect(BenchResult.jsonKeys.count == 17)
        let raw = array[0]
        #expect(raw["truth_static"] as? Bool == false)
        #expect(raw["filter"] as? String == "raw")
        #expect(raw["samples"] as? Int == 179)
        #expect(raw["truth_zone_transitions"] as? Int == 1)
        #expect((raw["rmse_m"] as? Double).map { abs($0 - results[0].rmse!) < 1e-6 } == true)
    }

    @Test func tableShowsEveryFilterAndMarksTheDefault() throws {
        let records = try TraceFiles.records("data/hanyang/static/los_h100_2m.csv")
        let results = [FilterSpec(.raw), .default].map { BenchRunner.quick().run(trace: "2m.csv", records: records, filter: $0).result }
        let table = BenchReport.table(trace: "2m.csv", records: records, results: results, zones: .standard)
        let lines = table.split(separator: "\n")
        #expect(lines[0] == "2m.csv: 89 samples over 12.7 s (6.9 Hz), truth 2.00 m (static); zones near < 1.5 m, mid < 3 m, far")
        #expect(lines[1].hasPrefix("filter") && lines[1].contains("rmse_m") && lines[1].contains("ns/sample"))
        #expect(lines[2].hasPrefix("raw ") && lines[2].contains("0.075") && lines[2].contains("-0.069"))
        #expect(lines[3].hasPrefix("\(FilterSpec.default.name) *"))
        #expect(lines.last == "* default filter")
    }
}

@Suite struct BenchPlotTests {
    @Test func plotHasTruthRawEveryFilterAndTheZones() throws {
        let records = try TraceFiles.records("data/synthetic/step_2m_4m.csv")
        let runner = BenchRunner.quick()
        let runs = FilterSpec.benchmarkSet.map { runner.run(trace: "step", records: records, filter: $0) }
        var plot = BenchPlot(zones: .standard)
        plot.addPanel(trace: "walk <1>", records: records, runs: runs)
        plot.addPanel(trace: "again", records: records, runs: Array(runs.prefix(2)))
        let svg = plot.svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.contains("walk &lt;1&gt;"))
        #expect(svg.components(separatedBy: "class=\"truth\"").count - 1 == 2)
        // The step spans 2 ... 4 m: only the 3 m boundary is in range, once per panel.
        #expect(svg.components(separatedBy: "class=\"zone-boundary\"").count - 1 == 2)
        #expect(svg.contains("mid &lt; 3 m") && !svg.contains("near &lt; 1.5 m"))
        // Every filter but raw is a line (raw is drawn as the sample dots).
        for spec in FilterSpec.benchmarkSet.dropFirst() {
            #expect(svg.contains("data-filter=\"\(spec.name)\""), "\(spec.name)")
        }
        #expect(svg.components(separatedBy: "<circle ").count - 1 >= 2 * records.count)
        // An error strip per panel with one line per filter.
        #expect(svg.components(separatedBy: "class=\"filter-error\"").count - 1 == (FilterSpec.benchmarkSet.count - 1) + 1)
        #expect(svg.contains(">error (m)</text>"))
        // The legend names the RMSE of each filter, best first.
        let best = runs.dropFirst().min { $0.result.rmse! < $1.result.rmse! }!
        #expect(svg.contains("\(best.filter.name)  RMSE "))
        // Well-formed XML.
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }
}

@Suite struct BenchSummaryTests {
    static func result(_ trace: String, _ filter: String, _ debiased: Double?, jitter: Double? = nil, lag: Double? = 0,
                       flaps: Int = 0, latency: Double? = nil) -> BenchResult {
        BenchResult(
            trace: trace, filter: filter, samples: 10, rmse: debiased, bias: 0, rmseDebiased: debiased,
            p95AbsoluteError: debiased, jitter: jitter, lag: lag, zoneAccuracy: 1, zoneTransitions: 0,
            truthZoneTransitions: 0, zoneFlaps: flaps, zoneLatency: latency, nanosecondsPerSample: 1)
    }

    @Test func winsRatiosAndGoalsByHand() throws {
        // Trace a (static): best baseline ema 0.010; imm 0.0102 (ratio 1.02, a win), jitter 0.011 (a miss).
        // Trace b (moving): best baseline raw 0.2; imm 0.1 (ratio 0.5) but 0.05 s more lag than raw and a flap.
        // Trace c has no truth: left out.
        var results: [BenchResult] = []
        for (name, value) in [("raw", 0.03), ("median3", 0.02), ("ma10", 0.012), ("ema", 0.010), ("one-euro", 0.015)] {
            results.append(Self.result("a", name, value, jitter: value))
        }
        results.append(Self.result("a", "imm", 0.0102, jitter: 0.011))
        results.append(Self.result("a", "kalman", 0.02, jitter: 0.02))
        for (name, value) in [("raw", 0.2), ("median3", 0.3), ("ma10", 0.5), ("ema", 0.6), ("one-euro", 0.25)] {
            results.append(Self.result("b", name, value, lag: 0.1, latency: 0.5))
        }
        results.append(Self.result("b", "imm", 0.1, lag: 0.15, flaps: 1, latency: 0.55))
        results.append(Self.result("b", "kalman", 0.5, lag: 0.1))
        results += ["raw", "median3", "ma10", "ema", "one-euro", "imm"].map { Self.result("c", $0, nil, lag: nil) }

        let summary = BenchSummary(results: results, defaultFilter: "imm")
        #expect(summary.traces.map(\.trace) == ["a", "b"])
        let a = summary.traces[0]
        #expect(a.isStatic && a.bestBaseline == "ema" && abs(a.ratio - 1.02) < 1e-12)
        #expect(a.misses == ["jitter 0.0110 m"])
        let b = summary.traces[1]
        #expect(!b.isStatic && b.bestBaseline == "raw" && abs(b.ratio - 0.5) < 1e-12)
        #expect(b.misses == ["lag +0.050 s", "1 flaps (truth never changes zone)"])
        let imm = try #require(summary.filters.first { $0.filter == "imm" })
        #expect(imm.traces == 2 && imm.wins == 2 && imm.best == 1)
        #expect(abs(imm.medianRatio - 0.76) < 1e-12 && abs(imm.worstRatio - 1.02) < 1e-12 && imm.worstTrace == "a")
        let kalman = try #require(summary.filters.first { $0.filter == "kalman" })
        #expect(kalman.wins == 0 && abs(kalman.worstRatio - 2.5) < 1e-12 && kalman.worstTrace == "b")
        #expect(summary.filters.first { $0.filter == "ema" }?.best == 1)
        #expect(summary.filters.map(\.filter) == ["raw", "median3", "ma10", "ema", "one-euro", "imm", "kalman"])

        let text = summary.text
        #expect(text.contains("imm *"))
        #expect(text.contains("missed: jitter 0.0110 m"))
        #expect(text.contains("goal met on 0 of 2 traces\n"))
        #expect(text.hasSuffix("cost of the default pipeline (filter + zones): median 1 ns/sample, largest 1 ns/sample (meaningful in a release build)\n"))
        #expect(summary.datasets.map(\.dataset) == ["."] && summary.datasets[0].traces == 2 && summary.datasets[0].goalMet == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(summary.json.utf8)) as? [String: Any])
        #expect(json["default"] as? String == "imm")
        let traces = try #require(json["traces"] as? [[String: Any]])
        #expect(traces.map { $0["goal_met"] as? Bool } == [false, false])
        #expect(traces[0]["best_baseline"] as? String == "ema")
        let filters = try #require(json["filters"] as? [[String: Any]])
        #expect(filters.count == 7 && filters[5]["wins"] as? Int == 2)
    }

    @Test func aTraceWithoutEveryBaselineIsLeftOut() {
        let results = [Self.result("a", "raw", 0.1), Self.result("a", "imm", 0.05)]
        let summary = BenchSummary(results: results, defaultFilter: "imm")
        #expect(summary.traces.isEmpty && summary.filters.isEmpty)
        #expect(BenchSummary.bestBaseline(in: results) == nil)
    }

    @Test func flapsAreJudgedAgainstTheBaselineWithTheFewest() {
        // Truth crosses a boundary (2 transitions): the default may flap as often as the baseline
        // with the fewest flaps (here ema: 1), not more.
        func run(_ filter: String, flaps: Int) -> BenchResult {
            var result = Self.result("walk", filter, 0.1, lag: 0.1, flaps: flaps)
            result.truthZoneTransitions = 2
            return result
        }
        let baselines = [("raw", 3), ("median3", 2), ("ma10", 2), ("ema", 1), ("one-euro", 3)].map { run($0.0, flaps: $0.1) }
        let one = BenchSummary(results: baselines + [run("imm", flaps: 1)], defaultFilter: "imm")
        #expect(one.traces[0].misses.isEmpty && one.traces[0].fewestBaselineFlaps == 1)
        let two = BenchSummary(results: baselines + [run("imm", flaps: 2)], defaultFilter: "imm")
        #expect(two.traces[0].misses == ["2 flaps (a baseline has 1)"])
    }

    @Test func dataSetsAreTheFirstDirectoryBelowTheSharedOneAndHeldOutIsApart() {
        let traces = ["data/hanyang/static/a.csv", "data/hanyang/dynamic/b.csv", "data/aau/c.csv", "data/labyrinth/d.csv"]
        let sets = BenchSummary.datasets(of: traces)
        #expect(sets["data/hanyang/static/a.csv"] == "data/hanyang" && sets["data/hanyang/dynamic/b.csv"] == "data/hanyang")
        #expect(sets["data/aau/c.csv"] == "data/aau" && sets["data/labyrinth/d.csv"] == "data/labyrinth")
        #expect(BenchSummary.datasets(of: ["mine/x.csv", "mine/y.csv"]) == ["mine/x.csv": "mine", "mine/y.csv": "mine"])
        #expect(BenchSummary.datasets(of: ["x.csv"]) == ["x.csv": "."])
        var results: [BenchResult] = []
        for (i, trace) in traces.enumerated() {
            for (name, value) in [("raw", 0.2), ("median3", 0.3), ("ma10", 0.5), ("ema", 0.6), ("one-euro", 0.25)] {
                results.append(Self.result(trace, name, value, lag: 0.1))
            }
            results.append(Self.result(trace, "imm", i == 3 ? 0.3 : 0.1, lag: 0.1))
        }
        let summary = BenchSummary(results: results, defaultFilter: "imm", heldOut: ["data/labyrinth/"])
        #expect(summary.datasets.map(\.dataset) == ["data/hanyang", "data/aau", "data/labyrinth"])
        #expect(summary.datasets.map(\.isHeldOut) == [false, false, true])
        #expect(summary.datasets.map(\.traces) == [2, 1, 1] && summary.datasets.map(\.goalMet) == [2, 1, 0])
        #expect(abs(summary.datasets[2].worstRatio - 1.5) < 1e-12)
        #expect(summary.text.contains("goal met on 3 of 3 tuned traces and on 0 of 1 held-out traces"))
        #expect(summary.text.contains("held-out"))
    }

    /// The goal of `specs/filters.md` §6 on every bundled trace, exactly as documented there
    /// (§6.14): met everywhere but on `nlos_h100_6m` (1.13× ema's debiased RMSE, an unlucky first
    /// sample), on the teleport step (held 0.5 s), by the lag of two drone traces, by 1.04× and
    /// 1.08× on `loiter_tag_a2` and `loiter_a2_tag`, and on two of the held-out 2 Hz Labyrinth
    /// traces (ratio 1.11× and 1.12×, 3 flaps on `a108` where a baseline has none; their lag is
    /// within raw + 0.02 s on all four since §6.14, it was up to raw + 0.07 s).
    @Test func theDefaultMeetsItsGoalOnTheBundledTracesAsDocumented() async throws {
        let traces = ["los_h100_2m", "los_h100_4m", "los_h100_6m", "los_h100_8m", "los_h100_10m"].map { "data/hanyang/static/\($0).csv" }
            + ["nlos_h100_4m", "nlos_h100_6m", "nlos_h100_8m", "nlos_h100_10m"].map { "data/hanyang/static/\($0).csv" }
            + ["A3", "A5", "A9", "A12"].flatMap { ["data/hanyang/dynamic/los_A_case1_\($0).csv", "data/hanyang/dynamic/nlos_A_case1_\($0).csv"] }
            + ["hover_1p5m", "step_2m_4m", "walk_4m_1m"].map { "data/synthetic/\($0).csv" }
            + ["fast_a5_t0", "mid_a5_t0"].map { "data/lias/\($0).csv" }
            + ["loiter_tag_a1", "loiter_tag_a2", "loiter_tag_a3", "loiter_a1_tag", "loiter_a2_tag", "loiter_a3_tag"].map { "data/aau/\($0).csv" }
            + ["static_a1_a2", "static_a1_a3", "static_a2_a3"].map { "data/aau/\($0).csv" }
            + ["a105", "a107", "a108", "a109"].map { "data/labyrinth/\($0).csv" }
        // About 25 s of CPU in a debug build: on a thread of its own, not the cooperative pool's.
        let results = try await onOwnThread {
            let runner = BenchRunner.quick()
            var results: [BenchResult] = []
            for trace in traces {
                let records = try TraceFiles.records(trace)
                for spec in FilterSpec.baselines + [.default] {
                    results.append(runner.run(trace: trace, records: records, filter: spec).result)
                }
            }
            return results
        }
        let summary = BenchSummary(results: results, heldOut: ["data/labyrinth"])
        #expect(summary.traces.count == traces.count)
        for row in summary.traces {
            let lagExcess = (row.result.lag ?? 0) - (row.raw?.lag ?? 0)
            switch row.trace {
            case "data/hanyang/static/nlos_h100_6m.csv":
                #expect(row.misses.count == 1 && row.ratio > 1.03 && row.ratio < 1.15, "\(row.misses)")
                #expect(row.result.jitter! <= 0.010)
            case "data/synthetic/step_2m_4m.csv":
                #expect(row.ratio > 5, "the teleport step is held for 0.5 s (the re-lock time)")
            case let trace where trace.hasPrefix("data/aau/loiter_"):
                // Only lag (within the metric's resolution on these traces, §6.7) and, on two, 1.04× / 1.08×.
                let limit = trace.hasSuffix("loiter_tag_a2.csv") ? 1.05 : trace.hasSuffix("loiter_a2_tag.csv") ? 1.09 : 1.03
                #expect(row.ratio <= limit, "\(trace) \(row.ratio)")
                #expect(lagExcess <= 0.045, "\(trace) lag +\(lagExcess)")
                #expect(row.result.zoneFlaps == 0)
            case let trace where trace.hasPrefix("data/labyrinth/"):
                #expect(row.isHeldOut)
                #expect(row.ratio < 1.12 && lagExcess <= 0.02 + 1e-9, "\(trace) \(row.misses)")
                #expect(row.result.zoneFlaps <= (trace.hasSuffix("a108.csv") ? 3 : 0), "\(trace) \(row.misses)")
                #expect(row.result.zoneLatency! - row.raw!.zoneLatency! <= 0.1)
            default:
                #expect(row.misses.isEmpty, "\(row.trace): \(row.misses)")
            }
        }
        #expect(summary.datasets.map(\.dataset) == ["data/hanyang", "data/synthetic", "data/lias", "data/aau", "data/labyrinth"])
    }
}
