import Foundation
public import Hooks
import NIProtocol
public import NearbyInteraction
public import NearbyRuntime
import Ranging

/// What `nearby replay` prints as text on standard output, a `RunOutput`: a line per update, an
/// `EVENT` line per hook-level event (`enter`, `exit`, `lost`, `found`), a `HOOK` line per hook
/// run, and the summary. Each line is written at once (a pipe sees it immediately). With
/// `--json` the replay prints the run's JSON lines instead (`JSONLinesOutput`).
public final class ReplayText: RunOutput, @unchecked Sendable {
    private var events = 0

    /// A text output writing to standard output.
    public init() {}

    /// What `nearby replay` prints on standard output: the run's JSON lines (notes on standard
    /// error) if `json`, else this text.
    public static func output(json: Bool) -> any RunOutput {
        json ? JSONLinesOutput(writer: Console.standardOutput, notes: RangeScreen.standardError) : ReplayText()
    }

    /// Prints the update's hook-level events (`EVENT` lines) and the update line.
    public func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        guard case .update(let update) = event.kind, let accessory = event.accessory else { return }
        for ranging in update.events {
            for hookEvent in HookEvent.events(
                for: ranging, accessoryName: accessory.displayName, accessoryID: accessory.id, distance: update.distance,
                timestamp: ranging.timestamp)
            {
                events += 1
                var line = String(format: "%8.3f s  ", ranging.timestamp) + "EVENT " + hookEvent.kind.rawValue
                if let zone = hookEvent.zone { line += " " + zone }
                if hookEvent.kind == .enter, let previous = hookEvent.previousZone { line += " (from \(previous))" }
                if let distance = hookEvent.distance { line += String(format: " at %.2f m", distance) }
                emit(line)
            }
        }
        var line = String(format: "%8.3f s", update.timestamp)
        if let distance = update.distance {
            line += String(format: "  %6.2f m", distance)
        } else {
            line += "       - m"
        }
        line += "  " + (update.zone?.name ?? "-").padding(toLength: 6, withPad: " ", startingAt: 0) + "  \(update.state)"
        if update.isHeld { line += " (held)" }
        emit(line)
    }

    /// Prints a `HOOK` line (with the tail of standard error of a failed hook).
    public func hookFinished(_ outcome: HookOutcome, at time: Double) {
        var line = "          HOOK \(outcome)"
        if !outcome.succeeded, !outcome.standardErrorTail.isEmpty {
            line += "\n            stderr: " + outcome.standardErrorTail.split(separator: "\n").joined(separator: "\n            stderr: ")
        }
        emit(line)
    }

    /// Writes a note to standard error.
    public func note(_ text: String) {
        Console.error(text)
    }

    /// Prints the summary line.
    public func runFinished(_ summary: RunSummary) async {
        let samples = summary.accessories.map(\.updates).reduce(0, +)
        var line = String(format: "replayed %d samples over %.1f s: %d events, %d hook runs", samples, summary.duration, events, summary.hookRuns)
        if summary.hookFailures > 0 { line += ", \(summary.hookFailures) failed" }
        if summary.hookEventsDropped > 0 { line += ", \(summary.hookEventsDropped) hook events dropped (queue full)" }
        emit(line)
    }

    private func emit(_ line: String) {
        Console.out(line)
    }
}
