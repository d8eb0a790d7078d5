/// `nearby bench --summary`: how each filter compares with the best baseline on every trace, and
/// whether the default meets its goal per trace (`specs/filters.md` §6). Pure: built from
/// ``BenchResult``s, rendered as text or JSON.
///
/// Definitions (per trace with ground truth):
/// - *best baseline*: the filter of ``FilterSpec/baselines`` with the smallest debiased RMSE;
/// - *ratio*: a filter's debiased RMSE ÷ the best baseline's;
/// - *win*: ratio ≤ ``tolerance`` (1.03);
/// - the default's goal: a win; jitter ≤ ``jitterLimit`` on a static trace (truth never moves);
///   lag ≤ raw's lag + ``lagAllowance`` on a moving one; no zone flaps; zone latency ≤ raw's +
///   ``latencyAllowance`` where both have one.
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
        /// `true` if the truth never moves (a static trace: jitter counts, lag does not).
        public var isStatic: Bool
        /// The best baseline's canonical name.
        public var bestBaseline: String
        /// The best baseline's debiased RMSE, metres.
        public var bestBaselineRMSE: Double
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

    /// The filters, in the order they ran.
    public var filters: [FilterRow]
    /// The default filter per trace (traces without truth or without every baseline are left out).
    public var traces: [TraceRow]
    /// The default filter's canonical name.
    public var defaultFilter: String

    /// Summarises `results` (any filters, any traces; the baselines must have run on a trace for
    /// it to count).
    public init(results: [BenchResult], defaultFilter: String = FilterSpec.default.name) {
        self.defaultFilter = defaultFilter
        var traceOrder: [String] = []
        var byTrace: [String: [BenchResult]] = [:]
        var filterOrder: [String] = []
        for result in results {
            if byTrace[result.trace] == nil { traceOrder.append(result.trace) }
            byTrace[result.trace, default: []].append(result)
            if !filterOrder.contains(result.filter) { filterOrder.append(result.filter) }
        }
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
            let isStatic = result.lag == 0 && raw?.lag == 0 && result.jitter != nil
            let ratio = value / best.1
            var misses: [String] = []
            if ratio > Self.tolerance { misses.append("rmse \(Format.fixed(ratio, 2))× best") }
            if isStatic, let jitter = result.jitter, jitter > Self.jitterLimit {
                misses.append("jitter \(Format.fixed(jitter, 4)) m")
            }
            if !isStatic, let lag = result.lag, let rawLag = raw?.lag, lag > rawLag + Self.lagAllowance + 1e-9 {
                misses.append("lag +\(Format.fixed(lag - rawLag, 3)) s")
            }
            if result.zoneFlaps > 0 { misses.append("\(result.zoneFlaps) flaps") }
            if let latency = result.zoneLatency, let rawLatency = raw?.zoneLatency,
               latency > rawLatency + Self.latencyAllowance + 1e-9
            {
                misses.append("zone latency +\(Format.fixed(latency - rawLatency, 3)) s")
            }
            rows.append(
                TraceRow(
                    trace: trace, isStatic: isStatic, bestBaseline: best.0, bestBaselineRMSE: best.1, result: result,
                    raw: raw, ratio: ratio, misses: misses))
        }
        traces = rows
        filters = filterOrder.compactMap { filter in
            guard let list = ratios[filter], !list.isEmpty else { return nil }
            let sorted = list.map(\.ratio).sorted()
            let median = sorted.count % 2 == 1
                ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            let worst = list.max { $0.ratio < $1.ratio }!
            return FilterRow(
                filter: filter, traces: list.count, wins: list.filter { $0.ratio <= Self.tolerance }.count,
                best: bestCounts[filter] ?? 0, medianRatio: median, worstRatio: worst.ratio, worstTrace: worst.trace)
        }
    }

    /// The baseline with the smallest debiased RMSE among `results` (one trace), or `nil` unless
    /// every baseline of ``FilterSpec/baselines`` is there with a debiased RMSE.
    public static func bestBaseline(in results: [BenchResult]) -> BenchResult? {
        let names = FilterSpec.baselines.map(\.name)
        let baselines = results.filter { names.contains($0.filter) && $0.rmseDebiased != nil }
        guard Set(baselines.map(\.filter)) == Set(names) else { return nil }
        return baselines.min { $0.rmseDebiased! < $1.rmseDebiased! }
    }

    /// Two tables: every filter's wins and ratios, then the default's goal per trace.
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
        out += "Default (\(defaultFilter)) per trace: goal = ratio ≤ \(Format.fixed(Self.tolerance, 2)); static: jitter ≤ "
            + "\(Format.fixed(Self.jitterLimit, 3)) m; moving: lag ≤ raw + \(Format.fixed(Self.lagAllowance, 2)) s; "
            + "0 flaps; zone latency ≤ raw + \(Format.fixed(Self.latencyAllowance, 1)) s.\n"
        let traceColumns = [
            ("trace", 0), ("kind", 7), ("best baseline", 15), ("best_m", 8), ("default_m", 10), ("ratio", 7),
            ("jitter_m", 9), ("lag_s (raw)", 14), ("flaps", 6), ("latency_s (raw)", 16), ("goal", 0),
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
                "\(value(r.lag, 3)) (\(value(row.raw?.lag, 3)))", String(r.zoneFlaps),
                "\(value(r.zoneLatency, 3)) (\(value(row.raw?.zoneLatency, 3)))",
                row.misses.isEmpty ? "met" : "missed: " + row.misses.joined(separator: ", "),
            ])
        }
        let met = traces.filter(\.misses.isEmpty).count
        out += "goal met on \(met) of \(traces.count) traces\n"
        return out
    }

    /// The summary as one JSON object: `{"tolerance":…,"filters":[…],"traces":[…]}`.
    public var json: String {
        let filterObjects = filters.map { row in
            "{\"filter\":\(Format.jsonString(row.filter)),\"traces\":\(row.traces),\"wins\":\(row.wins),\"best\":\(row.best),"
                + "\"median_ratio\":\(Format.json(row.medianRatio)),\"worst_ratio\":\(Format.json(row.worstRatio)),"
                + "\"worst_trace\":\(Format.jsonString(row.worstTrace))}"
        }
        let traceObjects = traces.map { row in
            "{\"trace\":\(Format.jsonString(row.trace)),\"static\":\(row.isStatic),"
                + "\"best_baseline\":\(Format.jsonString(row.bestBaseline)),"
                + "\"best_baseline_rmse_debiased_m\":\(Format.json(row.bestBaselineRMSE)),"
                + "\"filter\":\(Format.jsonString(row.result.filter)),\"rmse_debiased_m\":\(Format.json(row.result.rmseDebiased)),"
                + "\"ratio\":\(Format.json(row.ratio)),\"goal_met\":\(row.misses.isEmpty),"
                + "\"misses\":[\(row.misses.map(Format.jsonString).joined(separator: ","))]}"
        }
        return "{\"tolerance\":\(Format.json(Self.tolerance)),\"default\":\(Format.jsonString(defaultFilter)),"
            + "\"filters\":[\(filterObjects.joined(separator: ","))],\"traces\":[\(traceObjects.joined(separator: ","))]}"
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
