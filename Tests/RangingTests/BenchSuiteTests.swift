import Ranging
import Testing

/// The whole `nearby bench` run as a library call, and zone boundaries from text.
@Suite("Bench suites and zone boundaries from text")
struct BenchSuiteTests {
    static let walk = "data/synthetic/walk_4m_1m.csv"
    static let hover = "data/synthetic/hover_1p5m.csv"

    @Test("filters by name: in order, without repeats, all of them when none is named")
    func filtersByName() throws {
        #expect(try BenchSuite.filters(named: []) == FilterSpec.benchmarkSet)
        #expect(try BenchSuite.filters(named: ["ema", "raw", "ema"]) == [FilterSpec(.ema), FilterSpec(.raw)])
        #expect(throws: FilterSpecError.self) { try BenchSuite.filters(named: ["nope"]) }
        let summary = BenchSuite.summaryFilters([FilterSpec(.ema), FilterSpec(.kalman)])
        #expect(Array(summary.prefix(FilterSpec.baselines.count)) == FilterSpec.baselines)
        #expect(summary.filter { $0 == FilterSpec(.ema) }.count == 1)
        #expect(summary.last == FilterSpec(.kalman) && summary.contains(.default))
    }

    @Test("plot files: the trace's name as .svg, numbered when two traces share it")
    func plotFiles() {
        #expect(BenchSuite.plotFile(for: "data/a/walk.csv", in: "out", taken: []) == "out/walk.svg")
        #expect(BenchSuite.plotFile(for: "other/walk.csv", in: "out/", taken: ["out/walk.svg"]) == "out/walk-2.svg")
        #expect(BenchSuite.plotFile(for: "walk", in: "out", taken: ["out/walk.svg", "out/walk-2.svg"]) == "out/walk-3.svg")
    }

    @Test("a run: one table per trace, JSON with every result, the plot of every filter")
    func tablesAndJSON() throws {
        let traces = [(path: Self.walk, records: try TraceFiles.records(Self.walk)), (path: Self.hover, records: try TraceFiles.records(Self.hover))]
        let suite = BenchSuite(filters: [FilterSpec(.raw), FilterSpec(.ema)], zones: .standard, lostAfter: 2, summary: false)
        let outcome = suite.run(traces: traces, plot: true)
        #expect(outcome.results.map(\.filter) == ["raw", "ema", "raw", "ema"])
        #expect(outcome.tables.count == 2 && outcome.summary == nil && outcome.tracePlots.isEmpty)
        #expect(outcome.tables[0] == BenchReport.table(trace: Self.walk, records: traces[0].records, results: Array(outcome.results.prefix(2)), zones: .standard))
        #expect(outcome.report(json: false) == outcome.tables.joined(separator: "\n"))
        #expect(outcome.report(json: true) == BenchReport.json(outcome.results))
        #expect(outcome.plot?.contains("<svg") == true)
        #expect(suite.run(traces: traces).plot == nil)
    }

    @Test("a summary run adds the baselines and the default and draws one plot per trace")
    func summaryWithPlots() throws {
        let traces = [(path: Self.walk, records: try TraceFiles.records(Self.walk))]
        let suite = BenchSuite(filters: [FilterSpec(.kalman)], zones: .standard, lostAfter: 2, summary: true)
        #expect(suite.filters == BenchSuite.summaryFilters([FilterSpec(.kalman)]))
        let outcome = suite.run(traces: traces, plotDirectory: "plots")
        let summary = try #require(outcome.summary)
        #expect(outcome.tables.isEmpty && outcome.results.count == suite.filters.count)
        #expect(outcome.report(json: false) == summary.text)
        #expect(outcome.report(json: true) == BenchReport.json(outcome.results, summary: summary))
        #expect(outcome.tracePlots.map(\.file) == ["plots/walk_4m_1m.svg"])
        #expect(outcome.tracePlots.first?.svg.contains("<svg") == true)
        // Without a directory, no plot is drawn.
        #expect(suite.run(traces: traces).tracePlots.isEmpty)
    }

    @Test("zone boundaries from text: metres separated by commas; the first bad field is named")
    func boundariesFromText() throws {
        #expect(try ZoneMap.boundaries(parsing: " 1.5, 3 ") == [1.5, 3])
        #expect(try ZoneMap.boundaries(parsing: "2") == [2])
        #expect(throws: ZoneBoundaryTextError(field: "x")) { try ZoneMap.boundaries(parsing: "1.5,x") }
        #expect(throws: ZoneBoundaryTextError(field: "")) { try ZoneMap.boundaries(parsing: "1.5,,3") }
        #expect(throws: ZoneBoundaryTextError(field: "-1")) { try ZoneMap.boundaries(parsing: "-1") }
        #expect(ZoneBoundaryTextError(field: "x").description == "'x' is not a distance in metres; write increasing boundaries like 1.5,3")
    }
}
