/// A whole `nearby bench` run: every filter on every trace, then the per-trace tables or the
/// summary, as text or JSON, and the plots as SVG text. Pure: the caller reads the traces and
/// writes the files.
public struct BenchSuite: Sendable {
    /// The filters, in order (for a summary see ``summaryFilters(_:)``).
    public var filters: [FilterSpec]
    /// The zones tracked (also the truth zones).
    public var zones: ZoneMap
    /// The pipeline's silence limit, seconds.
    public var lostAfter: Double
    /// Compare the filters with the best baseline (``BenchSummary``) instead of per-trace tables.
    public var summary: Bool
    /// Paths whose traces were held out of tuning: the summary reports their data sets apart.
    public var heldOut: [String]

    /// A suite of `filters`; with `summary`, the baselines and the default are added (see
    /// ``summaryFilters(_:)``).
    public init(filters: [FilterSpec], zones: ZoneMap, lostAfter: Double, summary: Bool, heldOut: [String] = []) {
        self.filters = summary ? Self.summaryFilters(filters) : filters
        self.zones = zones
        self.lostAfter = lostAfter
        self.summary = summary
        self.heldOut = heldOut
    }

    /// The filters named (see ``FilterSpec/init(name:)``), without repeats, in the order given;
    /// ``FilterSpec/benchmarkSet`` when none is named.
    /// - Throws: ``FilterSpecError`` for the first name that is not a filter.
    public static func filters(named names: [String]) throws(FilterSpecError) -> [FilterSpec] {
        guard !names.isEmpty else { return FilterSpec.benchmarkSet }
        var specs: [FilterSpec] = []
        for name in names {
            let spec = try FilterSpec(name: name)
            if !specs.contains(spec) { specs.append(spec) }
        }
        return specs
    }

    /// The filters of a summary: the baselines and the default first, then `named` (all of
    /// ``FilterSpec/benchmarkSet`` when empty) without repeats.
    public static func summaryFilters(_ named: [FilterSpec]) -> [FilterSpec] {
        var specs = FilterSpec.baselines + [FilterSpec.default]
        for spec in named.isEmpty ? FilterSpec.benchmarkSet : named where !specs.contains(spec) { specs.append(spec) }
        return specs
    }

    /// What a suite produced.
    public struct Outcome: Sendable {
        /// Every result, trace by trace, filter by filter.
        public var results: [BenchResult] = []
        /// The summary (with `summary` only).
        public var summary: BenchSummary?
        /// One table per trace (without `summary`).
        public var tables: [String] = []
        /// The plot of every filter on every trace (when asked).
        public var plot: String?
        /// With `summary` and a plot directory: one SVG per trace (truth, raw, the default and
        /// that trace's best baseline) and its file (``plotFile(for:in:taken:)``).
        public var tracePlots: [(file: String, svg: String)] = []

        /// What `nearby bench` prints: `{"results":[...]}` (with the summary) as JSON, else the
        /// summary, else the tables one after another with an empty line between them.
        public func report(json: Bool) -> String {
            if json { return summary.map { BenchReport.json(results, summary: $0) } ?? BenchReport.json(results) }
            return summary?.text ?? tables.joined(separator: "\n")
        }
    }

    /// Runs every filter on every trace.
    /// - Parameters:
    ///   - traces: the traces' names (paths) and records, in order.
    ///   - plot: also draw every filter on every trace (``Outcome/plot``).
    ///   - plotDirectory: with `summary`, draw one plot per trace into this directory (``Outcome/tracePlots``).
    public func run(traces: [(path: String, records: [TraceRecord])], plot: Bool = false, plotDirectory: String? = nil) -> Outcome {
        let runner = BenchRunner(zones: zones, lostAfter: lostAfter)
        var outcome = Outcome()
        var all = BenchPlot(zones: zones)
        for (path, records) in traces {
            let runs = filters.map { runner.run(trace: path, records: records, filter: $0) }
            outcome.results += runs.map(\.result)
            if plot { all.addPanel(trace: path, records: records, runs: runs) }
            if summary, let plotDirectory {
                let file = Self.plotFile(for: path, in: plotDirectory, taken: outcome.tracePlots.map(\.file))
                outcome.tracePlots.append((file, summaryPlot(trace: path, records: records, runs: runs)))
            }
            if !summary { outcome.tables.append(BenchReport.table(trace: path, records: records, results: runs.map(\.result), zones: zones)) }
        }
        if summary { outcome.summary = BenchSummary(results: outcome.results, heldOut: heldOut) }
        if plot { outcome.plot = all.svg() }
        return outcome
    }

    /// One SVG for one trace: truth, raw samples, the default and the trace's best baseline.
    public func summaryPlot(trace: String, records: [TraceRecord], runs: [BenchRun]) -> String {
        let best = BenchSummary.bestBaseline(in: runs.map(\.result))?.filter
        let shown = runs.filter { run in
            run.filter == FilterSpec(.raw) || run.filter == .default || run.filter.name == best
        }
        var plot = BenchPlot(zones: zones)
        plot.addPanel(trace: trace, records: records, runs: shown)
        return plot.svg()
    }

    /// `dir/<trace file name without .csv>.svg`, with `-2`, `-3` ... when two traces share a name.
    public static func plotFile(for trace: String, in directory: String, taken: [String]) -> String {
        var stem = Substring(trace.split(separator: "/").last ?? Substring(trace))
        if stem.hasSuffix(".csv") { stem = stem.dropLast(4) }
        let base = directory.hasSuffix("/") ? directory + stem : directory + "/" + stem
        var candidate = base + ".svg"
        var number = 2
        while taken.contains(candidate) {
            candidate = base + "-\(number).svg"
            number += 1
        }
        return candidate
    }
}
