import ArgumentParser
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

    func validate() throws {
        guard !traces.isEmpty else {
            throw ValidationError("name at least one trace file, e.g. nearby bench data/hanyang/static/los_h100_2m.csv")
        }
        _ = try filterSpecs()
        _ = try zoneMap()
        guard lostAfter > 0 else { throw ValidationError("--lost-after must be > 0 seconds, not \(lostAfter)") }
    }

    /// The filters to run, parsed and without duplicates, in the order given.
    func filterSpecs() throws -> [FilterSpec] {
        guard !filterNames.isEmpty else { return FilterSpec.benchmarkSet }
        var specs: [FilterSpec] = []
        for name in filterNames {
            let spec: FilterSpec
            do {
                spec = try FilterSpec(name: name)
            } catch {
                throw ValidationError("--filter: \(error)")
            }
            if !specs.contains(spec) { specs.append(spec) }
        }
        return specs
    }

    /// The zone map from `--zones`, `--hysteresis` and `--dwell`.
    func zoneMap() throws -> ZoneMap {
        try ZoneOption.map(zones, hysteresis: hysteresis, dwell: dwell)
    }

    func run() throws {
        let specs = try filterSpecs()
        let zoneMap = try zoneMap()
        // Read every trace first, so a bad file fails before any work is done.
        let loaded = try traces.map { path in (path, try BenchTraceFile.read(path)) }
        let runner = BenchRunner(zones: zoneMap, lostAfter: lostAfter)
        var results: [BenchResult] = []
        var svg = BenchPlot(zones: zoneMap)
        for (index, (path, records)) in loaded.enumerated() {
            let runs = specs.map { runner.run(trace: path, records: records, filter: $0) }
            results += runs.map(\.result)
            if plot != nil { svg.addPanel(trace: path, records: records, runs: runs) }
            if !json {
                if index > 0 { print() }
                print(BenchReport.table(trace: path, records: records, results: runs.map(\.result), zones: zoneMap), terminator: "")
            }
        }
        if json { print(BenchReport.json(results), terminator: "") }
        if let plot {
            try AtomicFile.write(svg.svg(), to: plot, permissions: 0o644)
            if !json { print("\nplot written to \(plot)") }
        }
    }
}

extension Substring {
    /// The text without leading and trailing `character`s.
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var s = self
        while s.first == character { s.removeFirst() }
        while s.last == character { s.removeLast() }
        return String(s)
    }
}
