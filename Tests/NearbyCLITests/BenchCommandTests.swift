import Foundation
import NearbySupport
import NearbyTestSupport
import Testing

/// `nearby bench` end to end: the built executable on bundled traces.
@Suite struct BenchCommandTests {
    static let keys: Set<String> = [
        "trace", "filter", "samples", "rmse_m", "bias_m", "rmse_debiased_m", "p50_abs_err_m", "p95_abs_err_m", "jitter_m",
        "lag_s", "zone_accuracy", "zone_transitions", "truth_zone_transitions", "zone_flaps", "zone_latency_s", "ns_per_sample", "truth_static",
    ]
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-bench-\(UUID().uuidString)")

    func bench(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(PackagePaths.nearby, ["bench"] + arguments, timeout: .seconds(300))
    }

    func results(_ json: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(Array(object.keys) == ["results"])
        return try #require(object["results"] as? [[String: Any]])
    }

    func temporaryFile(_ name: String, _ content: String) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try content.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func jsonOnABundledTraceHasEveryKeyForEveryFilter() async throws {
        let trace = PackagePaths.file("data/hanyang/static/los_h100_2m.csv").path
        let run = try await bench([trace, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let results = try results(run.stdout)
        #expect(results.map { $0["filter"] as? String } == [
            "raw", "median3", "ma10", "ema", "one-euro", "kalman", "imm",
            "hampel", "hampel+median3", "hampel+ma10", "hampel+ema", "hampel+one-euro", "hampel+kalman", "hampel+imm",
        ])
        for result in results {
            #expect(Set(result.keys) == Self.keys)
            #expect(result["trace"] as? String == trace)
            #expect(result["samples"] as? Int == 89)
            #expect(result["lag_s"] as? Double == 0)
            #expect(result["zone_accuracy"] as? Double == 1)
            #expect(result["truth_zone_transitions"] as? Int == 0)
            #expect(result["zone_latency_s"] is NSNull)  // no truth crossing
            #expect((result["ns_per_sample"] as? Double ?? 0) > 0)
        }
        // raw: the measured error of the trace (its README: bias −0.069 m, std 0.030 m).
        let raw = results[0]
        #expect(abs((raw["bias_m"] as? Double ?? 0) - -0.069) < 0.0005)
        #expect(abs((raw["rmse_debiased_m"] as? Double ?? 0) - 0.030) < 0.0005)
        #expect(abs((raw["jitter_m"] as? Double ?? 0) - 0.030) < 0.0005)
    }

    @Test func tableForEachTraceLikeMakeDemo() async throws {
        let first = PackagePaths.file("data/hanyang/static/los_h100_2m.csv").path
        let second = PackagePaths.file("data/synthetic/step_2m_4m.csv").path
        let run = try await bench([first, second])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\(first): 89 samples over 12.7 s (6.9 Hz), truth 2.00 m (static)"))
        #expect(run.stdout.contains("\(second): 179 samples"))
        let header = run.stdout.split(separator: "\n").filter { $0.hasPrefix("filter ") }
        #expect(header.count == 2)
        #expect(run.stdout.split(separator: "\n").filter { $0.hasPrefix("hampel+one-euro ") }.count == 2)
        #expect(run.stdout.contains("* default filter"))
    }

    @Test func namedFiltersWithoutDuplicates() async throws {
        let trace = PackagePaths.file("data/synthetic/walk_4m_1m.csv").path
        let run = try await bench([trace, "--filter", "raw", "--filter", "default", "--filter", "imm", "--filter", "kalman", "--filter", "hampel+one-euro", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let results = try results(run.stdout)
        #expect(results.map { $0["filter"] as? String } == ["raw", "imm", "kalman", "hampel+one-euro"])
        #expect(results.allSatisfy { $0["truth_zone_transitions"] as? Int == 8 })
    }

    @Test func traceWithoutTruthGivesNullAccuracy() async throws {
        let path = try temporaryFile("no-truth.csv", "t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status\n"
            + (0..<50).map { "\(Double($0) * 0.1),\(1.2 + 0.01 * Double($0 % 3)),,,,0,0" }.joined(separator: "\n") + "\n")
        let run = try await bench([path, "--filter", "raw", "--filter", "kalman", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        for result in try results(run.stdout) {
            #expect(Set(result.keys) == Self.keys)
            for key in ["rmse_m", "bias_m", "rmse_debiased_m", "p50_abs_err_m", "p95_abs_err_m", "jitter_m", "lag_s", "zone_accuracy", "truth_zone_transitions", "zone_latency_s"] {
                #expect(result[key] is NSNull, "\(key)")
            }
            #expect(result["samples"] as? Int == 50)
            #expect(result["zone_transitions"] as? Int == 0)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func badRowNamesFileAndLine() async throws {
        let path = try temporaryFile("bad.csv", "t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m\n0,1,,,,0,0,1\n0.1,1,,,250,0,0,1\n")
        let run = try await bench([path, "--json"])
        #expect(run.status != 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("\(path):3: column fom: '250' is not an integer figure of merit 0 ... 100"))
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func missingFileNamesThePath() async throws {
        let run = try await bench(["/nonexistent/trace.csv"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("cannot open /nonexistent/trace.csv: No such file or directory"))
    }

    @Test func badArgumentsAreExplained() async throws {
        let trace = PackagePaths.file("data/hanyang/static/los_h100_2m.csv").path
        let unknown = try await bench([trace, "--filter", "kalmann"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("unknown filter 'kalmann'"))
        #expect(unknown.stderr.contains("hampel+kalman"))
        let zones = try await bench([trace, "--zones", "3,1.5"])
        #expect(zones.status != 0)
        #expect(zones.stderr.contains("--zones"))
        let none = try await bench([])
        #expect(none.status != 0)
        #expect(none.stderr.contains("at least one trace"))
    }

    @Test func plotIsWrittenAndJsonStaysClean() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let svg = directory.appendingPathComponent("plot.svg").path
        let trace = PackagePaths.file("data/synthetic/step_2m_4m.csv").path
        let run = try await bench([trace, "--filter", "raw", "--filter", "kalman", "--filter", "ma10", "--plot", svg, "--json", "--zones", "3"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try results(run.stdout).count == 3)
        let content = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(content.hasPrefix("<svg"))
        #expect(content.contains("data-filter=\"kalman\"") && content.contains("data-filter=\"ma10\""))
        #expect(content.contains("class=\"truth\""))
        #expect(content.contains("near &lt; 3 m"))
        let attributes = try FileManager.default.attributesOfItem(atPath: svg)
        #expect((attributes[.posixPermissions] as? Int) == 0o644)
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func summaryComparesEveryFilterWithTheBestBaseline() async throws {
        let still = PackagePaths.file("data/hanyang/static/los_h100_2m.csv").path
        let walk = PackagePaths.file("data/synthetic/walk_4m_1m.csv").path
        let run = try await bench([still, walk, "--summary", "--filter", "kalman"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        // The baselines and the default always run; no per-trace tables.
        for name in ["raw ", "median3 ", "ma10 ", "ema ", "one-euro ", "imm * ", "kalman "] {
            #expect(lines.contains { $0.hasPrefix(name) }, "\(name)")
        }
        #expect(!run.stdout.contains("rmse_m"))
        #expect(lines.contains { $0.hasPrefix(still) && $0.contains("static") && $0.contains("ema") && $0.hasSuffix("met") })
        #expect(lines.contains { $0.hasPrefix(walk) && $0.contains("moving") && $0.hasSuffix("met") })
        #expect(lines.contains("goal met on 2 of 2 traces"))
        #expect(lines.last?.hasPrefix("cost of the default pipeline (filter + zones): median ") == true)
        // One data set per directory below the shared one (the paths are absolute here):
        // …/data/hanyang and …/data/synthetic, both tuned (no --held-out).
        let hanyang = PackagePaths.file("data/hanyang").path
        let synthetic = PackagePaths.file("data/synthetic").path
        #expect(lines.contains { $0.hasPrefix(hanyang + " ") && $0.contains(" tuned ") })
        #expect(lines.contains { $0.hasPrefix(synthetic + " ") && $0.contains(" tuned ") })

        let json = try await bench([still, walk, "--summary", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["results", "summary"])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["default"] as? String == "imm")
        let traces = try #require(summary["traces"] as? [[String: Any]])
        #expect(traces.map { $0["trace"] as? String } == [still, walk])
        #expect(traces.allSatisfy { $0["goal_met"] as? Bool == true })
        #expect((try #require(summary["filters"] as? [[String: Any]])).count == 14)  // every filter by default
        let datasets = try #require(summary["datasets"] as? [[String: Any]])
        #expect(datasets.map { $0["dataset"] as? String }.count == 2)
        #expect((summary["cost"] as? [String: Any])?["median_ns_per_sample"] is Double)
    }

    @Test func summaryReportsHeldOutDataSetsApart() async throws {
        let tuned = PackagePaths.file("data/hanyang/static/los_h100_2m.csv").path
        let heldOut = PackagePaths.file("data/labyrinth/a105.csv").path
        let heldOutDirectory = PackagePaths.file("data/labyrinth").path
        let run = try await bench([tuned, heldOut, "--summary", "--filter", "kalman", "--held-out", heldOutDirectory + "/"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("data/labyrinth") == false && $0.contains("labyrinth") && $0.contains("held-out") })
        #expect(lines.contains { $0.contains("hanyang") && $0.contains("tuned") })
        #expect(lines.contains { $0.hasPrefix("goal met on ") && $0.contains("of 1 tuned traces and on ") && $0.hasSuffix("of 1 held-out traces") })
        let json = try await bench([tuned, heldOut, "--summary", "--json", "--held-out", heldOutDirectory])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let traces = try #require((object["summary"] as? [String: Any])?["traces"] as? [[String: Any]])
        #expect(traces.map { $0["held_out"] as? Bool } == [false, true])
        let alone = try await bench([tuned, "--held-out", heldOutDirectory])
        #expect(alone.status != 0)
        #expect(alone.stderr.contains("--held-out labels data sets in the summary; add --summary"))
    }

    @Test func summaryPlotsShowTheDefaultAndTheBestBaselinePerTrace() async throws {
        let still = PackagePaths.file("data/hanyang/static/los_h100_2m.csv").path
        let walk = PackagePaths.file("data/synthetic/walk_4m_1m.csv").path
        let plots = directory.appendingPathComponent("plots").path
        let run = try await bench([still, walk, walk, "--summary", "--filter", "kalman", "--plot-dir", plots])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("3 plot(s) written to \(plots)\n"))
        let files = try FileManager.default.contentsOfDirectory(atPath: plots).sorted()
        #expect(files == ["los_h100_2m.svg", "walk_4m_1m-2.svg", "walk_4m_1m.svg"])
        let svg = try String(contentsOfFile: plots + "/los_h100_2m.svg", encoding: .utf8)
        #expect(svg.contains("data-filter=\"imm\"") && svg.contains("data-filter=\"ema\""))
        #expect(!svg.contains("data-filter=\"kalman\"") && !svg.contains("data-filter=\"ma10\""))
        #expect(svg.components(separatedBy: "class=\"filter\"").count - 1 == 2)
        let walkPlot = try String(contentsOfFile: plots + "/walk_4m_1m.svg", encoding: .utf8)
        #expect(walkPlot.contains("data-filter=\"imm\"") && walkPlot.contains("data-filter=\"one-euro\""))
        try? FileManager.default.removeItem(at: directory)

        let trace = PackagePaths.file("data/hanyang/static/los_h100_2m.csv").path
        let alone = try await bench([trace, "--plot-dir", plots])
        #expect(alone.status != 0)
        #expect(alone.stderr.contains("--plot-dir writes the summary plots; add --summary"))
    }
}
