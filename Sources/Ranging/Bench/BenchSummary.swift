/// `nearby bench --summary`: how each filter compares with the best baseline on every trace, and
/// whether the default meets its goal per trace and per data set (`specs/filters.md` §6). Pure:
/// built from ``BenchResult``s, rendered as text or JSON.
///
/// Definitions (per trace with ground truth):
/// - *best baseline*: the filter of ``FilterSpec/baselines`` with the smallest debiased RMSE;
/// - *ratio*: a filter's debiased RMSE ÷ the best baseline's;
/// - *win*: ratio ≤ ``tolerance`` (1.03);
/// - the default's goal: a win; jitter ≤ ``jitterLimit`` on a static trace (truth never moves);
///   lag ≤ raw's lag + ``lagAllowance`` on a moving one; no zone flaps on a trace whose truth
///   never changes zone (a hover), elsewhere no more flaps than the baseline with the fewest;
///   zone latency ≤ raw's + ``latencyAllowance`` where both have one.
/// - *data set*: the first directory below the directory all traces share (the shared directory
///   itself for traces directly in it): `data/hanyang/static/x.csv` and `data/aau/y.csv` are in
///   `data/hanyang` and `data/aau`. Data sets under a path given as held out are reported apart.
public struct BenchSummary: Sendable {
    /// A filter's debiased RMSE may exceed the best baseline's by this factor and still win.
    public static let tolerance = 1.03
    /// Largest jitter (m) of the default on a static trace.
    public static let jitterLimit = 0.010
    /// Lag (s) the default may add to raw's on a moving trace.
    public static let lagAllowance = 0.02
    /// Zone latency (s) the default may add to raw's.
    public static let latencyAllowance = 0.1

    /// One trace: its best baseline and the default's goal check.
    public struct TraceRow: Sendable, Hashable {
        /// The trace's name.
        public var trace: String
        /// The trace's data set (see ``BenchSummary``).
        public var dataset: String
        /// `true` if the trace is under a held-out path.
        public var isHeldOut: Bool
        /// `true` if the truth never moves (a static trace: jitter counts, lag does not).
        public var isStatic: Bool
        /// The best baseline's canonical name.
        public var bestBaseline: String
        /// The best baseline's debiased RMSE, metres.
        public var bestBaselineRMSE: Double
        /// The fewest zone flaps of any baseline on this trace.
        public var fewestBaselineFlaps: Int
        /// The default's result on this trace.
        public var result: BenchResult
        /// `raw`'s result on this trace (for lag and zone latency), if it ran.
        public var raw: BenchResult?
        /// The default's debiased RMSE ÷ ``bestBaselineRMSE``.
        public var ratio: Double
        /// The goals missed, in words (`[]` = every goal met).
        public var misses: [String]
    }

    /// One filter across all traces.
    public struct FilterRow: Sendable, Hashable {
        /// The filter's canonical name.
        public var filter: String
        /// Traces with truth that the filter ran on.
        public var traces: Int
        /// Traces where ratio ≤ ``BenchSummary/tolerance``.
        public var wins: Int
        /// Traces where the filter has the smallest debiased RMSE of all filters run.
        public var best: Int
        /// Median ratio over the traces.
        public var medianRatio: Double
        /// Largest ratio and its trace.
        public var worstRatio: Double
        /// The trace of ``worstRatio``.
        public var worstTrace: String
    }

    /// The default filter on one data set.
    public struct DatasetRow: Sendable, Hashable {
        /// The data set (see ``BenchSummary``).
        public var dataset: String
        /// `true` if the data set is under a held-out path.
        public var isHeldOut: Bool
        /// Traces of the data set in the summary.
        public var traces: Int
        /// Traces where the default meets every goal.
        public var goalMet: Int
        /// Traces where the default's ratio ≤ ``BenchSummary/tolerance``.
        public var wins: Int
        /// Median of the default's ratios.
        public var medianRatio: Double
        /// Largest of the default's ratios.
        public var worstRatio: Double
        /// The trace of ``worstRatio``.
        public var worstTrace: String
    }

    /// The filters, in the order they ran.
    public var filters: [FilterRow]
    /// The default filter per trace (traces without truth or without every baseline are left out).
    public var traces: [TraceRow]
    /// The default filter per data set, in the order the data sets first appear.
    public var datasets: [DatasetRow]
    /// The default filter's canonical name.
    public var defaultFilter: String
    /// The default pipeline's median and largest cost over the traces, ns per sample (`nil` if it
    /// did not run).
    public var defaultCost: (median: Double, max: Double)?

    /// Summarises `results` (any filters, any traces; the baselines must have run on a trace for
    /// it to count).
    /// - Parameters:
    ///   - results: one result per filter and trace, as the bench ran them.
    ///   - defaultFilter: the name of the filter judged against the baselines (the default's).
    ///   - heldOut: paths (directories or files) whose traces are held out of tuning; their data
    ///     sets are reported apart.
    public init(results: [BenchResult], defaultFilter: String = FilterSpec.default.name, heldOut: [String] = []) {
        self.defaultFilter = defaultFilter
        var traceOrder: [String] = []
        var byTrace: [String: [BenchResult]] = [:]
        var filterOrder: [String] = []
        for result in results {
            if byTrace[result.trace] == nil { traceOrder.append(result.trace) }
            byTrace[result.trace, default: []].append(result)
            if !filterOrder.contains(result.filter) { filterOrder.append(result.filter) }
        }
        let datasetOf = Self.datasets(of: traceOrder)
        let baselineNames = FilterSpec.baselines.map(\.name)
        var ratios: [String: [(trace: String, ratio: Double)]] = [:]
        var bestCounts: [String: Int] = [:]
        var rows: [TraceRow] = []
        for trace in traceOrder {
            let runs = byTrace[trace] ?? []
            guard let bestRun = Self.bestBaseline(in: runs), let bestValue = bestRun.rmseDebiased, bestValue > 0 else {
                continue
            }
            let best = (bestRun.filter, bestValue)
            for run in runs {
                if let value = run.rmseDebiased { ratios[run.filter, default: []].append((trace, value / best.1)) }
            }
            if let winner = runs.filter({ $0.rmseDebiased != nil }).min(by: { $0.rmseDebiased! < $1.rmseDebiased! }) {
                bestCounts[winner.filter, default: 0] += 1
            }
            guard let result = runs.first(where: { $0.filter == defaultFilter }), let value = result.rmseDebiased else {
                continue
            }
            let raw = runs.first { $0.filter == FilterSpec(.raw).name }
            let isStatic = result.truthIsStatic ?? (result.lag == 0 && raw?.lag == 0 && result.jitter != nil)
            let fewestFlaps = runs.filter { baselineNames.contains($0.filter) }.map(\.zoneFlaps).min() ?? 0
            let hover = result.truthZoneTransitions == 0
            let ratio = value / best.1
            var misses: [String] = []
            if ratio > Self.tolerance { misses.append("rmse \(Format.fixed(ratio, 2))× best") }
            if isStatic, let jitter = result.jitter, jitter > Self.jitterLimit {
                misses.append("jitter \(Format.fixed(jitter, 4)) m")
            }
            if !isStatic, let lag = result.lag, let rawLag = raw?.lag, lag > rawLag + Self.lagAllowance + 1e-9 {
                misses.append("lag +\(Format.fixed(lag - rawLag, 3)) s")
            }
            if hover && result.zoneFlaps > 0 {
                misses.append("\(result.zoneFlaps) flaps (truth never changes zone)")
            } else if !hover && result.zoneFlaps > fewestFlaps {
                misses.append("\(result.zoneFlaps) flaps (a baseline has \(fewestFlaps))")
            }
            if let latency = result.zoneLatency, let rawLatency = raw?.zoneLatency,
               latency > rawLatency + Self.latencyAllowance + 1e-9
            {
                misses.append("zone latency +\(Format.fixed(latency - rawLatency, 3)) s")
            }
            rows.append(
                TraceRow(
                    trace: trace, dataset: datasetOf[trace] ?? trace, isHeldOut: Self.isUnder(trace, heldOut),
                    isStatic: isStatic, bestBaseline: best.0, bestBaselineRMSE: best.1, fewestBaselineFlaps: fewestFlaps,
                    result: result, raw: raw, ratio: ratio, misses: misses))
        }
        traces = rows
        filters = filterOrder.compactMap { filter in
            guard let list = ratios[filter], !list.isEmpty else { return nil }
            let worst = list.max { $0.ratio < $1.ratio }!
            return FilterRow(
                filter: filter, traces: list.count, wins: list.filter { $0.ratio <= Self.tolerance }.count,
                best: bestCounts[filter] ?? 0, medianRatio: Self.median(list.map(\.ratio)), worstRatio: worst.ratio,
                worstTrace: worst.trace)
        }
        var datasetOrder: [String] = []
        for row in rows where !datasetOrder.contains(row.dataset) { datasetOrder.append(row.dataset) }
        datasets = datasetOrder.map { dataset in
            let members = rows.filter { $0.dataset == dataset }
            let worst = members.max { $0.ratio < $1.ratio }!
            return DatasetRow(
                dataset: dataset, isHeldOut: members.allSatisfy(\.isHeldOut), traces: members.count,
                goalMet: members.filter(\.misses.isEmpty).count,
                wins: members.filter { $0.ratio <= Self.tolerance }.count,
                medianRatio: Self.median(members.map(\.ratio)), worstRatio: worst.ratio, worstTrace: worst.trace)
        }
        let costs = results.filter { $0.filter == defaultFilter }.map(\.nanosecondsPerSample)
        defaultCost = costs.isEmpty ? nil : (Self.median(costs), costs.max()!)
    }

    /// The baseline with the smallest debiased RMSE among `results` (one trace), or `nil` unless
    /// every baseline of ``FilterSpec/baselines`` is there with a debiased RMSE.
    public static func bestBaseline(in results: [BenchResult]) -> BenchResult? {
        let names = FilterSpec.baselines.map(\.name)
        let baselines = results.filter { names.contains($0.filter) && $0.rmseDebiased != nil }
        guard Set(baselines.map(\.filter)) == Set(names) else { return nil }
        return baselines.min { $0.rmseDebiased! < $1.rmseDebiased! }
    }

    /// The data set of each trace path: the first directory below the directory all of them
    /// share, or that shared directory for a trace directly in it (`.` when it is the current one).
    public static func datasets(of traces: [String]) -> [String: String] {
        func directories(_ path: String) -> [Substring] { Array(path.split(separator: "/", omittingEmptySubsequences: false).dropLast()) }
        let all = traces.map(directories)
        var common = all.first ?? []
        for dirs in all.dropFirst() {
            var n = 0
            while n < common.count && n < dirs.count && common[n] == dirs[n] { n += 1 }
            common = Array(common.prefix(n))
        }
        var result: [String: String] = [:]
        for (trace, dirs) in zip(traces, all) {
            let take = dirs.count > common.count ? common.count + 1 : common.count
            let name = dirs.prefix(take).joined(separator: "/")
            result[trace] = name.isEmpty ? (trace.hasPrefix("/") ? "/" : ".") : name
        }
        return result
    }

    /// `true` if `trace` is one of `paths` or lies under one of them (as directories).
    static func isUnder(_ trace: String, _ paths: [String]) -> Bool {
        paths.contains { path in
            var directory = path
            while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
            if directory.hasPrefix("./") { directory.removeFirst(2) }
            var candidate = trace
            if candidate.hasPrefix("./") { candidate.removeFirst(2) }
            return candidate == directory || candidate.hasPrefix(directory + "/")
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Three tables: every filter's wins and ratios, the default per data set, and the default's
    /// goal per trace; then the goal counts (tuned and held out apart) and the default's cost.
    public var text: String {
        var out = "Debiased RMSE ÷ the best baseline (\(FilterSpec.baselines.map(\.name).joined(separator: ", "))) "
            + "per trace with truth; a win is ≤ \(Format.fixed(Self.tolerance, 2))×.\n"
        let filterColumns = [("filter", 17), ("traces", 7), ("wins", 6), ("best", 6), ("median", 8), ("worst", 8), ("worst trace", 0)]
        out += header(filterColumns)
        for row in filters {
            let name = row.filter + (row.filter == defaultFilter ? " *" : "")
            out += line(filterColumns, [
                name, String(row.traces), String(row.wins), String(row.best), Format.fixed(row.medianRatio, 3),
                Format.fixed(row.worstRatio, 3), row.worstTrace,
            ])
        }
        out += "* default filter; best = smallest debiased RMSE of all filters run\n\n"

        out += "Default (\(defaultFilter)) per data set:\n"
        let datasetWidth = max(datasets.map(\.dataset.count).max() ?? 8, 8) + 2
        let datasetColumns = [
            ("data set", datasetWidth), ("set", 10), ("traces", 7), ("goal met", 9), ("wins", 6), ("median", 8), ("worst", 8),
            ("worst trace", 0),
        ]
        out += header(datasetColumns)
        for row in datasets {
            out += line(datasetColumns, [
                row.dataset, row.isHeldOut ? "held-out" : "tuned", String(row.traces), String(row.goalMet), String(row.wins),
                Format.fixed(row.medianRatio, 3), Format.fixed(row.worstRatio, 3), row.worstTrace,
            ])
        }
        out += "\n"

        out += "Default (\(defaultFilter)) per trace: goal = ratio ≤ \(Format.fixed(Self.tolerance, 2)); static: jitter ≤ "
            + "\(Format.fixed(Self.jitterLimit, 3)) m; moving: lag ≤ raw + \(Format.fixed(Self.lagAllowance, 2)) s; "
            + "flaps: 0 where the truth never changes zone, else ≤ the fewest of any baseline; "
            + "zone latency ≤ raw + \(Format.fixed(Self.latencyAllowance, 1)) s.\n"
        let traceColumns = [
            ("trace", 0), ("kind", 7), ("best baseline", 15), ("best_m", 8), ("default_m", 10), ("ratio", 7),
            ("jitter_m", 9), ("lag_s (raw)", 16), ("flaps (base)", 13), ("latency_s (raw)", 16), ("goal", 0),
        ]
        let width = max(traces.map(\.trace.count).max() ?? 5, 5) + 2
        var columns = traceColumns
        columns[0].1 = width
        out += header(columns)
        func value(_ x: Double?, _ decimals: Int) -> String { x.map { Format.fixed($0, decimals) } ?? "-" }
        for row in traces {
            let r = row.result
            out += line(columns, [
                row.trace, row.isStatic ? "static" : "moving", row.bestBaseline, Format.fixed(row.bestBaselineRMSE, 4),
                value(r.rmseDebiased, 4), Format.fixed(row.ratio, 3), value(r.jitter, 4),
                "\(value(r.lag, 3)) (\(value(row.raw?.lag, 3)))", "\(r.zoneFlaps) (\(row.fewestBaselineFlaps))",
                "\(value(r.zoneLatency, 3)) (\(value(row.raw?.zoneLatency, 3)))",
                row.misses.isEmpty ? "met" : "missed: " + row.misses.joined(separator: ", "),
            ])
        }
        let tuned = traces.filter { !$0.isHeldOut }
        let heldOut = traces.filter(\.isHeldOut)
        if heldOut.isEmpty {
            out += "goal met on \(traces.filter(\.misses.isEmpty).count) of \(traces.count) traces\n"
        } else {
            out += "goal met on \(tuned.filter(\.misses.isEmpty).count) of \(tuned.count) tuned traces and on "
                + "\(heldOut.filter(\.misses.isEmpty).count) of \(heldOut.count) held-out traces\n"
        }
        if let cost = defaultCost {
            out += "cost of the default pipeline (filter + zones): median \(Format.fixed(cost.median, 0)) ns/sample, "
                + "largest \(Format.fixed(cost.max, 0)) ns/sample (meaningful in a release build)\n"
        }
        return out
    }

    /// The summary as one JSON object:
    /// `{"tolerance":…,"default":…,"filters":[…],"datasets":[…],"traces":[…],"cost":{…}}`.
    public var json: String {
        let filterObjects = filters.map { row in
            "{\"filter\":\(Format.jsonString(row.filter)),\"traces\":\(row.traces),\"wins\":\(row.wins),\"best\":\(row.best),"
                + "\"median_ratio\":\(Format.json(row.medianRatio)),\"worst_ratio\":\(Format.json(row.worstRatio)),"
                + "\"worst_trace\":\(Format.jsonString(row.worstTrace))}"
        }
        let datasetObjects = datasets.map { row in
            "{\"dataset\":\(Format.jsonString(row.dataset)),\"held_out\":\(row.isHeldOut),\"traces\":\(row.traces),"
                + "\"goal_met\":\(row.goalMet),\"wins\":\(row.wins),\"median_ratio\":\(Format.json(row.medianRatio)),"
                + "\"worst_ratio\":\(Format.json(row.worstRatio)),\"worst_trace\":\(Format.jsonString(row.worstTrace))}"
        }
        let traceObjects = traces.map { row in
            "{\"trace\":\(Format.jsonString(row.trace)),\"dataset\":\(Format.jsonString(row.dataset)),"
                + "\"held_out\":\(row.isHeldOut),\"static\":\(row.isStatic),"
                + "\"best_baseline\":\(Format.jsonString(row.bestBaseline)),"
                + "\"best_baseline_rmse_debiased_m\":\(Format.json(row.bestBaselineRMSE)),"
                + "\"filter\":\(Format.jsonString(row.result.filter)),\"rmse_debiased_m\":\(Format.json(row.result.rmseDebiased)),"
                + "\"ratio\":\(Format.json(row.ratio)),\"zone_flaps\":\(row.result.zoneFlaps),"
                + "\"fewest_baseline_flaps\":\(row.fewestBaselineFlaps),\"goal_met\":\(row.misses.isEmpty),"
                + "\"misses\":[\(row.misses.map(Format.jsonString).joined(separator: ","))]}"
        }
        let cost = defaultCost.map {
            "{\"median_ns_per_sample\":\(Format.json($0.median, decimals: 1)),\"max_ns_per_sample\":\(Format.json($0.max, decimals: 1))}"
        } ?? "null"
        return "{\"tolerance\":\(Format.json(Self.tolerance)),\"default\":\(Format.jsonString(defaultFilter)),"
            + "\"filters\":[\(filterObjects.joined(separator: ","))],\"datasets\":[\(datasetObjects.joined(separator: ","))],"
            + "\"traces\":[\(traceObjects.joined(separator: ","))],\"cost\":\(cost)}"
    }

    private func header(_ columns: [(String, Int)]) -> String {
        line(columns, columns.map(\.0))
    }

    private func line(_ columns: [(String, Int)], _ cells: [String]) -> String {
        var text = ""
        for (index, (column, cell)) in zip(columns, cells).enumerated() {
            if index == 0 {
                text += Format.right(cell, column.1)
            } else if column.1 == 0 {
                text += "  " + cell
            } else {
                text += Format.left(cell, column.1)
            }
        }
        return text + "\n"
    }
}
