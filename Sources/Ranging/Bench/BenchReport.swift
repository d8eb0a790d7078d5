/// Renders ``BenchResult``s for people (a table per trace) and programs (JSON).
public enum BenchReport {
    /// `{"results":[...]}`: one JSON object holding every result (keys: ``BenchResult/jsonKeys``),
    /// followed by a newline.
    public static func json(_ results: [BenchResult]) -> String {
        "{\"results\":[" + results.map(\.json).joined(separator: ",") + "]}\n"
    }

    /// `{"results":[...],"summary":{...}}` (`nearby bench --summary --json`; the summary's keys:
    /// ``BenchSummary/json``), followed by a newline.
    public static func json(_ results: [BenchResult], summary: BenchSummary) -> String {
        "{\"results\":[" + results.map(\.json).joined(separator: ",") + "],\"summary\":" + summary.json + "}\n"
    }

    /// A readable table of the results of one trace: a summary line, a header, one row per
    /// filter (the default filter marked `*`), `-` where a value is unknown.
    public static func table(trace: String, records: [TraceRecord], results: [BenchResult], zones: ZoneMap) -> String {
        var text = summary(trace: trace, records: records, zones: zones) + "\n"
        let columns: [(title: String, width: Int)] = [
            ("filter", 17), ("rmse_m", 8), ("bias_m", 8), ("debiased", 9), ("p50_m", 7), ("p95_m", 7), ("jitter_m", 9), ("lag_s", 7),
            ("zone_acc", 9), ("trans", 6), ("truth", 6), ("flaps", 6), ("latency_s", 10), ("ns/sample", 10),
        ]
        text += columns.enumerated().map { i, column in
            i == 0 ? Format.right(column.title, column.width) : Format.left(column.title, column.width)
        }.joined() + "\n"
        let defaultName = FilterSpec.default.name
        for result in results {
            func value(_ x: Double?, _ decimals: Int) -> String { x.map { Format.fixed($0, decimals) } ?? "-" }
            let name = result.filter + (result.filter == defaultName ? " *" : "")
            let cells: [String] = [
                name, value(result.rmse, 3), value(result.bias, 3), value(result.rmseDebiased, 3),
                value(result.p50AbsoluteError, 3), value(result.p95AbsoluteError, 3), value(result.jitter, 3), value(result.lag, 3),
                value(result.zoneAccuracy, 3), String(result.zoneTransitions),
                result.truthZoneTransitions.map { String($0) } ?? "-", String(result.zoneFlaps),
                value(result.zoneLatency, 3), value(result.nanosecondsPerSample, 0),
            ]
            text += zip(columns, cells).enumerated().map { i, pair in
                i == 0 ? Format.right(pair.1, pair.0.width) : Format.left(pair.1, pair.0.width)
            }.joined() + "\n"
        }
        if results.contains(where: { $0.filter == defaultName }) {
            text += "* default filter\n"
        }
        return text
    }

    /// One line describing a trace: samples, duration, rate, truth range and zones.
    public static func summary(trace: String, records: [TraceRecord], zones: ZoneMap) -> String {
        var text = "\(trace): \(records.count) samples"
        if let first = records.first?.sample.timestamp, let last = records.last?.sample.timestamp, records.count > 1 {
            let duration = last - first
            text += " over \(Format.fixed(duration, 1)) s"
            if duration > 0 { text += " (\(Format.fixed(Double(records.count - 1) / duration, 1)) Hz)" }
        }
        let truths = records.compactMap(\.truth)
        if let low = truths.min(), let high = truths.max() {
            text += high - low <= BenchMetrics.staticTolerance
                ? ", truth \(Format.fixed(low, 2)) m (static)" : ", truth \(Format.fixed(low, 2))–\(Format.fixed(high, 2)) m"
        } else {
            text += ", no ground truth (accuracy columns empty)"
        }
        let zoneText = zones.zones.map { zone in
            zone.upperBound.isFinite ? "\(zone.name) < \(Format.json(zone.upperBound)) m" : zone.name
        }.joined(separator: ", ")
        return text + "; zones \(zoneText)"
    }
}
