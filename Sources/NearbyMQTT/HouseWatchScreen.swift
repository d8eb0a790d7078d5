import Foundation
import Positioning

/// How `nearby watch` shows a ``HouseWatch``: NDJSON (one object per message), a table redrawn
/// in place with the last events below it (a terminal, at most 4 times a second), or one line
/// per event and status change (a pipe; distances and live state updates are left out).
public struct HouseWatchScreen: Sendable {
    /// How the updates are shown.
    public enum Mode: Sendable, Hashable {
        /// ``HouseUpdate/jsonLine`` per update.
        case json
        /// The whole screen redrawn (ANSI clear), with `title` on top.
        case live(title: String)
        /// Event and status lines only.
        case lines

        /// The mode for this process: JSON if asked; live on a terminal (standard output a
        /// terminal, `TERM` not `dumb`) with `title`; else lines.
        public static func current(json: Bool, title: String) -> Mode {
            if json { return .json }
            return isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb" ? .live(title: title) : .lines
        }
    }

    /// How the updates are shown.
    public var mode: Mode
    /// Receives output text, newlines included (standard output in the CLI).
    public var write: @Sendable (String) -> Void
    /// Receives notes (connected, connection problems), newlines included (standard error in the CLI).
    public var note: @Sendable (String) -> Void

    /// A screen in `mode` writing to `write` and `note`.
    public init(mode: Mode, write: @escaping @Sendable (String) -> Void, note: @escaping @Sendable (String) -> Void) {
        self.mode = mode
        self.write = write
        self.note = note
    }

    /// Shows `watch`'s updates until they end (after ``HouseWatch/stop()``) or the task is
    /// cancelled. Call ``HouseWatch/updates()`` through this only.
    public func show(_ watch: HouseWatch) async {
        var lastDraw = ContinuousClock.now - .seconds(1)
        var recent: [String] = []
        var trackerStates: [String: String] = [:]
        for await output in watch.updates() {
            switch output {
            case .note(let text):
                note(text + "\n")
            case .position(let position):
                switch mode {
                case .json:
                    write(position.jsonLine + "\n")
                case .live:
                    if trackerStates.updateValue(position.fused.trackerState, forKey: position.level) != position.fused.trackerState {
                        recent = Array((recent + ["house " + position.text]).suffix(8))
                    }
                case .lines:
                    if trackerStates.updateValue(position.fused.trackerState, forKey: position.level) != position.fused.trackerState {
                        write("house " + position.text + "\n")
                    }
                }
            case .update(let update):
                switch mode {
                case .json:
                    write(update.jsonLine + "\n")
                case .live(let title):
                    if update.kind == .event || update.kind == .status { recent = Array((recent + [update.text]).suffix(8)) }
                    guard ContinuousClock.now - lastDraw >= .milliseconds(250) else { continue }
                    lastDraw = .now
                    let house = watch.fusion.map { fusion in [""] + fusion.positions.map { "house " + $0.text } } ?? []
                    let screen = [title, ""] + watch.house.table() + house + [""] + recent
                    write("\u{1B}[H\u{1B}[2J" + screen.joined(separator: "\n") + "\n")
                case .lines:
                    if update.kind != .distance && update.kind != .range && (update.kind != .state || update.retained) { write(update.text + "\n") }
                }
            }
        }
    }
}
