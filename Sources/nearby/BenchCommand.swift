import ArgumentParser
import NearbyRuntime
import NearbySupport
import Ranging

/// `nearby bench`: runs smoothing filters over recorded traces and reports accuracy, jitter, lag,
/// zone behaviour and cost per trace and filter. The work happens in `Ranging` (`BenchRunner`,
/// `BenchReport`, `BenchPlot`); this command parses arguments, reads files and prints.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Compare smoothing filters on recorded traces: accuracy, jitter, lag, zone flaps, cost.",
        discussion: """
            Runs every named filter (default: all) through the ranging pipeline on every trace and prints \
            a table per trace. Traces are CSV files with the header \
            t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m (specs/trace-format.md); \
            without truth_m the accuracy metrics are empty (null in JSON).

            Filters: \(FilterSpec.acceptedNames.joined(separator: ", ")). 'hampel+NAME' runs the Hampel \
            outlier filter first; 'default' is \(FilterSpec.default.name).

            ns_per_sample is the cost of the whole pipeline; measure it with a release build \
            (make release; .build/release/nearby bench ...).

            --summary compares every filter with the best baseline (\(FilterSpec.baselines.map(\.name).joined(separator: ", "))) \
            per trace: wins (debiased RMSE within 3 % of the best baseline's), median and worst ratio, \
            and the default's goal per data set and per trace (specs/filters.md §6); a data set is the \
            first directory below the one all traces share, and --held-out DIR reports the data sets \
            under DIR apart (held out of tuning). With --plot-dir it writes one SVG per trace showing \
            the default and that trace's best baseline.
            """)

    @Argument(help: ArgumentHelp("Trace files (CSV, see specs/trace-format.md).", valueName: "trace"))
    var traces: [String] = []

    @Option(
        name: .customLong("filter"),
        help: ArgumentHelp("A filter to run; repeat for several (default: all).", valueName: "name"))
    var filterNames: [String] = []

    @Option(help: ArgumentHelp("Zone boundaries in metres, comma-separated, increasing.", valueName: "m,m"))
    var zones: String = "1.5,3"

    @Option(help: ArgumentHelp("Width of the hysteresis band around each zone boundary, metres.", valueName: "m"))
    var hysteresis: Double = 0.2

    @Option(help: ArgumentHelp("Minimum dwell before a zone change is reported, seconds.", valueName: "s"))
    var dwell: Double = 0.3

    @Option(
        name: .customLong("lost-after"),
        help: ArgumentHelp("Silence after which the accessory is lost, seconds.", valueName: "s"))
    var lostAfter: Double = 2

    @Flag(help: "Print one JSON object {\"results\":[...]} on stdout and nothing else.")
    var json = false

    @Option(help: ArgumentHelp("Write an SVG plot of truth, raw samples and every filter over time.", valueName: "file.svg"))
    var plot: String?

    @Flag(help: "Print a summary instead of the per-trace tables: wins and ratios to the best baseline per filter, the default's goal per trace (the baselines and the default always run).")
    var summary = false

    @Option(
        name: .customLong("plot-dir"),
        help: ArgumentHelp("With --summary: write one SVG per trace (truth, raw, the default, the best baseline) into this directory.", valueName: "dir"))
    var plotDirectory: String?

    @Option(
        name: .customLong("held-out"),
        help: ArgumentHelp("With --summary: a directory (or trace) held out of tuning; its data sets are reported apart. Repeat for several.", valueName: "path"))
    var heldOut: [String] = []

    func validate() throws {
        guard !traces.isEmpty else {
            throw ValidationError("name at least one trace file, e.g. nearby bench data/hanyang/static/los_h100_2m.csv")
        }
        _ = try filterSpecs()
        _ = try zoneMap()
        guard lostAfter > 0 else { throw ValidationError("--lost-after must be > 0 seconds, not \(lostAfter)") }
        if !heldOut.isEmpty && !summary {
            throw ValidationError("--held-out labels data sets in the summary; add --summary")
        }
        if plotDirectory != nil && !summary {
            throw ValidationError("--plot-dir writes the summary plots; add --summary (or use --plot FILE.svg for every filter)")
        }
    }

    /// The filters to run, parsed and without duplicates, in the order given.
    func filterSpecs() throws -> [FilterSpec] {
        do {
            return try BenchSuite.filters(named: filterNames)
        } catch {
            throw ValidationError("--filter: \(error)")
        }
    }

    /// The zone map from `--zones`, `--hysteresis` and `--dwell`.
    func zoneMap() throws -> ZoneMap {
        do {
            return try ZoneMap(boundaries: try RangingOptions.boundaries(zones), hysteresis: hysteresis, minimumDwell: dwell)
        } catch let error as ZoneMapError {
            throw ValidationError("--zones/--hysteresis/--dwell: \(error)")
        }
    }

    func run() throws {
        let suite = BenchSuite(
            filters: try filterSpecs(), zones: try zoneMap(), lostAfter: lostAfter, summary: summary, heldOut: heldOut)
        // Read every trace first, so a bad file fails before any work is done.
        let loaded = try traces.map { path in (path: path, records: try TraceFile.read(path)) }
        let outcome = suite.run(traces: loaded, plot: plot != nil, plotDirectory: plotDirectory)
        if let plotDirectory { try AtomicFile.createDirectories(plotDirectory, permissions: 0o755) }
        for (file, svg) in outcome.tracePlots { try AtomicFile.write(svg, to: file, permissions: 0o644) }
        print(outcome.report(json: json), terminator: "")
        if let plot, let svg = outcome.plot {
            try AtomicFile.write(svg, to: plot, permissions: 0o644)
            if !json { print("\nplot written to \(plot)") }
        }
        if let plotDirectory, !json {
            print("\n\(outcome.tracePlots.count) plot(s) written to \(plotDirectory)")
        }
    }
}
