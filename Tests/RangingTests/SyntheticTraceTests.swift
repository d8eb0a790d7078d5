import Foundation
import NearbyTestSupport
import Ranging
import Testing

/// `data/synthetic/` is generated from the real Hanyang traces by `SyntheticTraces`; this test
/// proves the committed files are exactly what the recipe produces. Set
/// `NEARBY_WRITE_SYNTHETIC=1` to (re)write them.
@Suite struct SyntheticTraceTests {
    @Test func committedFilesMatchTheRecipe() throws {
        let write = ProcessInfo.processInfo.environment["NEARBY_WRITE_SYNTHETIC"] == "1"
        for (name, content) in try SyntheticTraces.all() {
            let url = PackagePaths.file("data/synthetic/\(name)")
            if write { try content.write(to: url, atomically: true, encoding: .utf8) }
            let committed = try String(contentsOf: url, encoding: .utf8)
            #expect(committed == content, "data/synthetic/\(name) differs from its recipe")
        }
    }

    @Test func hoverIsCentredOnTheBoundary() throws {
        let records = try TraceFiles.records("data/synthetic/hover_1p5m.csv")
        #expect(records.count == 89 + 90 + 90 + 90 + 90)
        #expect(records.allSatisfy { $0.truth == 1.5 })
        let mean = records.map { $0.sample.distance! }.reduce(0, +) / Double(records.count)
        #expect(abs(mean - 1.5) < 0.001)
        // The raw noise straddles the boundary: both sides occur many times.
        #expect(records.filter { $0.sample.distance! < 1.5 }.count > 100)
        #expect(records.filter { $0.sample.distance! >= 1.5 }.count > 100)
    }

    @Test func stepKeepsTheRealSamples() throws {
        let records = try TraceFiles.records("data/synthetic/step_2m_4m.csv")
        let first = try TraceFiles.records("data/hanyang/static/los_h100_2m.csv")
        let second = try TraceFiles.records("data/hanyang/static/los_h100_4m.csv")
        #expect(records.count == first.count + second.count)
        #expect(records.prefix(first.count).map(\.sample.distance) == first.map(\.sample.distance))
        #expect(records.suffix(second.count).map(\.sample.distance) == second.map(\.sample.distance))
        #expect(records.map(\.truth).filter { $0 == 4 }.count == second.count)
    }

    @Test func walkCrossesEveryBoundaryBothWays() throws {
        let records = try TraceFiles.records("data/synthetic/walk_4m_1m.csv")
        let zones = ZoneMap.standard
        let truthZones = records.map { zones.zone(containing: $0.truth!) }
        let transitions = BenchMetrics.transitions(times: records.map(\.sample.timestamp), zones: truthZones)
        #expect(transitions.map { [$0.from, $0.to] } == [[2, 1], [1, 0], [0, 1], [1, 2], [2, 1], [1, 0], [0, 1], [1, 2]])
    }
}
