import RealModule

/// Builds the SVG of `nearby bench --plot`: one panel per trace with distance over time — the
/// ground truth (black), the raw measurements (grey dots), each filter (coloured line) and the zone
/// boundaries (dashed, with their hysteresis band shaded) — and, when the trace has truth, an
/// error strip below (each filter's output − truth on a shared time axis). The legend lists the
/// filters best first by RMSE, so the best tracker is visible at a glance. Pure: returns the
/// document as text.
public struct BenchPlot: Sendable {
    struct Series: Sendable {
        var name: String
        var values: [Double?]
        var rmse: Double?
    }

    struct Panel: Sendable {
        var title: String
        var times: [Double]
        var truth: [Double?]
        var raw: [Double?]
        var rawRMSE: Double?
        var series: [Series]
    }

    /// The zones whose boundaries are drawn.
    public var zones: ZoneMap
    /// Width of the document, pixels.
    public var width = 1280
    /// Height of each panel, pixels.
    public var panelHeight = 400
    private var panels: [Panel] = []

    static let palette = [
        "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
        "#e377c2", "#17becf", "#bcbd22", "#393b79", "#ad494a", "#637939",
    ]

    /// Creates an empty plot.
    public init(zones: ZoneMap) {
        self.zones = zones
    }

    /// Adds a panel for one trace and the runs of every filter on it.
    public mutating func addPanel(trace: String, records: [TraceRecord], runs: [BenchRun]) {
        let raw = records.map { record -> Double? in
            guard record.sample.isValid, let d = record.sample.distance, d.isFinite else { return nil }
            return d
        }
        var series: [Series] = []
        var rawRMSE: Double?
        for run in runs {
            if run.filter == FilterSpec(.raw) {
                rawRMSE = run.result.rmse
            } else {
                series.append(Series(name: run.filter.name, values: run.outputs, rmse: run.result.rmse))
            }
        }
        panels.append(
            Panel(
                title: trace, times: records.map(\.sample.timestamp), truth: records.map(\.truth), raw: raw,
                rawRMSE: rawRMSE, series: series))
    }

    /// The SVG document.
    public func svg() -> String {
        let height = max(panels.count, 1) * panelHeight
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
            font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>

            """
        for (index, panel) in panels.enumerated() {
            out += render(panel, index: index, top: Double(index * panelHeight))
        }
        return out + "</svg>\n"
    }

    /// A plot area: its rectangle and value range, mapping data to pixels.
    struct Frame {
        var left: Double
        var top: Double
        var width: Double
        var height: Double
        var t0: Double
        var t1: Double
        var y0: Double
        var y1: Double

        func x(_ t: Double) -> Double { left + (t - t0) / (t1 - t0) * width }
        func y(_ v: Double) -> Double { top + (y1 - v) / (y1 - y0) * height }
    }

    private func render(_ panel: Panel, index: Int, top: Double) -> String {
        let f = { (x: Double) in Format.fixed(x, 1) }
        let left = 70.0
        let legendWidth = 270.0
        let plotWidth = Double(width) - left - legendWidth - 20
        let hasTruth = panel.truth.contains { $0 != nil }
        let available = Double(panelHeight) - 36 - 44
        let distanceHeight = hasTruth ? available * 0.68 : available
        let errorTop = top + 36 + distanceHeight + 14
        let errorHeight = available - distanceHeight - 14

        // Ranges: time span; distance from truth and the 1st ... 99th percentile of raw samples.
        let t0 = panel.times.first ?? 0
        let t1 = max(panel.times.last ?? 1, t0 + 1e-3)
        var values = panel.truth.compactMap { $0 }
        let rawSorted = panel.raw.compactMap { $0 }.sorted()
        if !rawSorted.isEmpty {
            values.append(BenchMetrics.percentile(rawSorted, 0.01))
            values.append(BenchMetrics.percentile(rawSorted, 0.99))
        }
        var y0 = values.min() ?? 0
        var y1 = values.max() ?? 1
        let pad = max((y1 - y0) * 0.1, 0.1)
        y0 -= pad
        y1 += pad
        let main = Frame(left: left, top: top + 36, width: plotWidth, height: distanceHeight, t0: t0, t1: t1, y0: y0, y1: y1)

        var out = "<g id=\"panel\(index)\">\n"
        out += "<text x=\"\(f(left))\" y=\"\(f(top + 22))\" font-size=\"15\" font-weight=\"bold\">\(Format.xml(panel.title))</text>\n"
        out += axes(main, clip: "clip\(index)", yLabel: "distance (m)", timeLabels: !hasTruth)

        out += "<g clip-path=\"url(#clip\(index))\">\n"
        // Zone boundaries: hysteresis band and dashed boundary line, labels staggered.
        for (k, zone) in zones.zones.dropLast().enumerated() where zone.upperBound > y0 && zone.upperBound < y1 {
            let yEnter = main.y(zone.enterThreshold)
            let yExit = main.y(zone.exitThreshold)
            out += "<rect class=\"zone-band\" x=\"\(f(left))\" y=\"\(f(yExit))\" width=\"\(f(plotWidth))\" height=\"\(f(max(yEnter - yExit, 0)))\" fill=\"#d62728\" fill-opacity=\"0.07\"/>\n"
            let y = main.y(zone.upperBound)
            out += "<line class=\"zone-boundary\" x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y))\" stroke=\"#d62728\" stroke-dasharray=\"6,4\"/>"
            out += "<text x=\"\(f(left + plotWidth - 4 - Double(k) * 110))\" y=\"\(f(y - 4))\" text-anchor=\"end\" fill=\"#d62728\">\(Format.xml(zone.name)) &lt; \(Format.json(zone.upperBound)) m</text>\n"
        }
        out += dots(panel.times, panel.raw, main)
        for (k, series) in panel.series.enumerated() {
            out += "<path class=\"filter\" data-filter=\"\(Format.xml(series.name))\" d=\"\(Self.path(panel.times, series.values, main.x, main.y))\" fill=\"none\" stroke=\"\(Self.palette[k % Self.palette.count])\" stroke-width=\"1.4\"/>\n"
        }
        if hasTruth {
            out += "<path class=\"truth\" d=\"\(Self.path(panel.times, panel.truth, main.x, main.y))\" fill=\"none\" stroke=\"black\" stroke-width=\"2.2\"/>\n"
        }
        out += "</g>\n"

        // Error strip: output − truth for each filter, symmetric range from the errors' p95.
        if hasTruth {
            func errors(_ values: [Double?]) -> [Double?] {
                zip(values, panel.truth).map { value, truth in
                    guard let value, let truth else { return nil }
                    return value - truth
                }
            }
            let rawErrors = errors(panel.raw)
            let seriesErrors = panel.series.map { errors($0.values) }
            var spread = 0.0
            for series in seriesErrors + [rawErrors] {
                let sorted = series.compactMap { $0.map(abs) }.sorted()
                if !sorted.isEmpty { spread = max(spread, BenchMetrics.percentile(sorted, 0.95)) }
            }
            spread = min(max(spread * 1.5, 0.05), 5)
            let strip = Frame(left: left, top: errorTop, width: plotWidth, height: errorHeight, t0: t0, t1: t1, y0: -spread, y1: spread)
            out += axes(strip, clip: "clipError\(index)", yLabel: "error (m)", timeLabels: true)
            out += "<g clip-path=\"url(#clipError\(index))\">\n"
            out += "<line x1=\"\(f(left))\" y1=\"\(f(strip.y(0)))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(strip.y(0)))\" stroke=\"black\" stroke-width=\"1\"/>\n"
            out += dots(panel.times, rawErrors, strip)
            for (k, series) in seriesErrors.enumerated() {
                out += "<path class=\"filter-error\" d=\"\(Self.path(panel.times, series, strip.x, strip.y))\" fill=\"none\" stroke=\"\(Self.palette[k % Self.palette.count])\" stroke-width=\"1.2\"/>\n"
            }
            out += "</g>\n"
        }

        // Legend, best RMSE first.
        var legendY = main.top + 4
        let legendX = left + plotWidth + 16
        func entry(_ label: String, _ swatch: String) {
            out += swatch + "<text x=\"\(f(legendX + 28))\" y=\"\(f(legendY + 4))\">\(Format.xml(label))</text>\n"
            legendY += 18
        }
        func line(_ color: String, width: Double = 2, dash: String = "") -> String {
            "<line x1=\"\(f(legendX))\" y1=\"\(f(legendY))\" x2=\"\(f(legendX + 22))\" y2=\"\(f(legendY))\" stroke=\"\(color)\" stroke-width=\"\(f(width))\"\(dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"")/>"
        }
        if hasTruth { entry("truth", line("black", width: 2.2)) }
        let rawLabel = "raw samples" + (panel.rawRMSE.map { "  RMSE \(Format.fixed($0, 3)) m" } ?? "")
        entry(rawLabel, "<circle cx=\"\(f(legendX + 11))\" cy=\"\(f(legendY))\" r=\"2.5\" fill=\"#9a9a9a\"/>")
        let order = panel.series.indices.sorted { a, b in
            (panel.series[a].rmse ?? .infinity, a) < (panel.series[b].rmse ?? .infinity, b)
        }
        for k in order {
            let series = panel.series[k]
            let label = series.name + (series.rmse.map { "  RMSE \(Format.fixed($0, 3)) m" } ?? "")
            entry(label, line(Self.palette[k % Self.palette.count]))
        }
        if !zones.boundaries.isEmpty {
            entry("zone boundary (band = hysteresis)", line("#d62728", width: 1, dash: "6,4"))
        }
        return out + "</g>\n"
    }

    /// The frame's box, clip path, grid, tick labels and axis titles.
    private func axes(_ frame: Frame, clip: String, yLabel: String, timeLabels: Bool) -> String {
        let f = { (x: Double) in Format.fixed(x, 1) }
        let bottom = frame.top + frame.height
        var out = "<clipPath id=\"\(clip)\"><rect x=\"\(f(frame.left))\" y=\"\(f(frame.top))\" width=\"\(f(frame.width))\" height=\"\(f(frame.height))\"/></clipPath>\n"
        out += "<rect x=\"\(f(frame.left))\" y=\"\(f(frame.top))\" width=\"\(f(frame.width))\" height=\"\(f(frame.height))\" fill=\"none\" stroke=\"#999\"/>\n"
        for tick in Self.ticks(frame.y0, frame.y1, count: frame.height > 150 ? 6 : 4) {
            let y = frame.y(tick)
            out += "<line x1=\"\(f(frame.left))\" y1=\"\(f(y))\" x2=\"\(f(frame.left + frame.width))\" y2=\"\(f(y))\" stroke=\"#eee\"/>"
            out += "<text x=\"\(f(frame.left - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(Format.json(tick, decimals: 3))</text>\n"
        }
        for tick in Self.ticks(frame.t0, frame.t1) {
            let x = frame.x(tick)
            out += "<line x1=\"\(f(x))\" y1=\"\(f(frame.top))\" x2=\"\(f(x))\" y2=\"\(f(bottom))\" stroke=\"#eee\"/>"
            if timeLabels {
                out += "<text x=\"\(f(x))\" y=\"\(f(bottom + 16))\" text-anchor=\"middle\">\(Format.json(tick, decimals: 3))</text>"
            }
            out += "\n"
        }
        if timeLabels {
            out += "<text x=\"\(f(frame.left + frame.width / 2))\" y=\"\(f(bottom + 34))\" text-anchor=\"middle\">time (s)</text>\n"
        }
        out += "<text transform=\"translate(\(f(frame.left - 50)),\(f(frame.top + frame.height / 2))) rotate(-90)\" text-anchor=\"middle\">\(yLabel)</text>\n"
        return out
    }

    /// Grey dots for the present values.
    private func dots(_ times: [Double], _ values: [Double?], _ frame: Frame) -> String {
        var out = "<g class=\"raw\" fill=\"#9a9a9a\">"
        for (t, value) in zip(times, values) {
            if let value { out += "<circle cx=\"\(Format.fixed(frame.x(t), 1))\" cy=\"\(Format.fixed(frame.y(value), 1))\" r=\"1.6\"/>" }
        }
        return out + "</g>\n"
    }

    /// An SVG path through the present values, broken where a value is missing.
    static func path(_ times: [Double], _ values: [Double?], _ x: (Double) -> Double, _ y: (Double) -> Double) -> String {
        var d = ""
        var drawing = false
        for (t, value) in zip(times, values) {
            guard let value else {
                drawing = false
                continue
            }
            d += (drawing ? "L" : "M") + Format.fixed(x(t), 1) + "," + Format.fixed(y(value), 1)
            drawing = true
        }
        return d
    }

    /// "Nice" tick values (1, 2 or 5 × 10ⁿ apart, about `count` of them) between `low` and `high`.
    static func ticks(_ low: Double, _ high: Double, count: Int = 6) -> [Double] {
        let span = high - low
        guard span > 0, span.isFinite else { return [] }
        let rough = span / Double(max(count, 1))
        let magnitude = Double.pow(10, Double.log10(rough).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        var ticks: [Double] = []
        var value = (low / step).rounded(.up) * step
        while value <= high + step * 1e-9 {
            ticks.append(abs(value) < step * 1e-9 ? 0 : value)
            value += step
        }
        return ticks
    }
}
