import Foundation
import Hooks
import Ranging

/// What `nearby replay` prints on standard output: text lines, or one JSON object per line with
/// a `type` of `update`, `event`, `hook` or `summary`. Each line is written at once (a pipe sees
/// it immediately).
struct ReplayOutput: Sendable {
    let json: Bool
    let zones: ZoneMap

    func update(_ update: RangingUpdate, origin: Double) {
        let time = update.timestamp - origin
        let zone = update.zone.map { zones.zones[$0].name }
        if json {
            emit(JSONLine([
                ("type", .string("update")), ("t_s", .number(time, 3)), ("distance_m", .number(update.distance, 3)),
                ("velocity_mps", .number(update.velocity, 3)), ("azimuth_deg", .number(update.direction?.azimuth, 1)),
                ("elevation_deg", .number(update.direction?.elevation, 1)), ("confidence", .number(update.confidence, 2)),
                ("zone", .string(zone)), ("state", .string("\(update.state)")), ("held", .bool(update.isHeld)),
            ]))
            return
        }
        var line = String(format: "%8.3f s", time)
        if let distance = update.distance {
            line += String(format: "  %6.2f m", distance)
        } else {
            line += "       - m"
        }
        line += "  " + (zone ?? "-").padding(toLength: 6, withPad: " ", startingAt: 0) + "  \(update.state)"
        if update.isHeld { line += " (held)" }
        emit(line)
    }

    func event(_ event: HookEvent, at time: Double) {
        if json {
            emit(JSONLine([
                ("type", .string("event")), ("t_s", .number(time, 3)), ("event", .string(event.kind.rawValue)),
                ("zone", .string(event.zone)), ("previous_zone", .string(event.previousZone)),
                ("accessory", .string(event.accessoryName)), ("accessory_id", .string(event.accessoryID)),
                ("distance_m", .number(event.distance, 3)),
            ]))
            return
        }
        var line = String(format: "%8.3f s  ", time) + "EVENT " + event.kind.rawValue
        if let zone = event.zone { line += " " + zone }
        if event.kind == .enter, let previous = event.previousZone { line += " (from \(previous))" }
        if let distance = event.distance { line += String(format: " at %.2f m", distance) }
        emit(line)
    }

    func hook(_ outcome: HookOutcome) {
        if json {
            var exitCode: Int32?
            var signal: Int32?
            var error: String?
            switch outcome.status {
            case .exited(let code): exitCode = code
            case .signaled(let number): signal = number
            case .failedToStart(let reason): error = reason
            }
            emit(JSONLine([
                ("type", .string("hook")), ("hook", .string(outcome.hookName)), ("event", .string(outcome.event.kind.rawValue)),
                ("zone", .string(outcome.event.zone)), ("exit_code", .int(exitCode.map(Int.init))),
                ("signal", .int(signal.map(Int.init))), ("error", .string(error)), ("timed_out", .bool(outcome.timedOut)),
                ("duration_s", .number(outcome.duration, 3)), ("coalesced_events", .int(outcome.coalescedEvents)),
                ("stdout", .string(outcome.standardOutputTail)), ("stderr", .string(outcome.standardErrorTail)),
            ]))
            return
        }
        var line = "          HOOK \(outcome)"
        if !outcome.succeeded, !outcome.standardErrorTail.isEmpty {
            line += "\n            stderr: " + outcome.standardErrorTail.split(separator: "\n").joined(separator: "\n            stderr: ")
        }
        emit(line)
    }

    func summary(_ summary: ReplayCommand.Summary, hookRuns: Int, hookFailures: Int, dropped: Int) {
        if json {
            emit(JSONLine([
                ("type", .string("summary")), ("samples", .int(summary.samples)), ("duration_s", .number(summary.duration, 3)),
                ("events", .int(summary.events)), ("hook_runs", .int(hookRuns)), ("hook_failures", .int(hookFailures)),
                ("hook_events_dropped", .int(dropped)),
            ]))
            return
        }
        var line = String(format: "replayed %d samples over %.1f s: %d events, %d hook runs", summary.samples, summary.duration, summary.events, hookRuns)
        if hookFailures > 0 { line += ", \(hookFailures) failed" }
        if dropped > 0 { line += ", \(dropped) hook events dropped (queue full)" }
        emit(line)
    }

    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private func emit(_ object: JSONLine) { emit(object.text) }
}

/// One JSON object with its keys in order.
struct JSONLine {
    enum Value {
        case string(String?)
        case number(Double?, Int)
        case int(Int?)
        case bool(Bool)
    }

    let text: String

    init(_ fields: [(String, Value)]) {
        text = "{" + fields.map { key, value in "\(Self.quote(key)):\(Self.render(value))" }.joined(separator: ",") + "}"
    }

    private static func render(_ value: Value) -> String {
        switch value {
        case .string(let text): return text.map(quote) ?? "null"
        case .int(let number): return number.map(String.init) ?? "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number, let decimals):
            guard let number, number.isFinite else { return "null" }
            var text = String(format: "%.\(decimals)f", number)
            if text.contains(".") {
                while text.hasSuffix("0") { text.removeLast() }
                if text.hasSuffix(".") { text.removeLast() }
            }
            return text == "-0" ? "0" : text
        }
    }

    /// A JSON string literal (Foundation's encoder does the escaping).
    static func quote(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        guard let data = try? encoder.encode(text) else { return "\"\"" }
        return String(decoding: data, as: UTF8.self)
    }
}
