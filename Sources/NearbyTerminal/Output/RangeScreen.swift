import Foundation
public import Hooks
import NIProtocol
public import NearbyInteraction
public import NearbyRuntime
public import Ranging

/// What `nearby range` and `nearby demo` show: the text renderer both share, a `RunOutput`.
///
/// - **live** (standard output is a terminal, `NO_COLOR` unset, `TERM` not `dumb`): one line per
///   accessory, redrawn in place at most 10 times a second: name, smoothed distance, a distance
///   bar, a direction arrow with the azimuth, the zone, the update rate, the session state.
///   Events (zone changes, lost / found, retries, errors, ...) scroll above the lines.
/// - **plain**: events as lines, and one status line per accessory at most once a second.
/// - **json**: the run's JSON lines (`JSONLinesOutput`) on standard output;
///   notes go to standard error.
///
/// The lines show the run's `AccessoryStatus` (no tracking of its own). Thread-safe:
/// the run and the command's own task (notes) both write, one at a time.
public final class RangeScreen: RunOutput, @unchecked Sendable {
    /// How the screen shows the run.
    public enum Mode: Equatable, Sendable {
        /// Lines redrawn in place on a terminal (ANSI), events scrolling above.
        case live
        /// Event lines and a status line per accessory at most once a second (pipes, logs).
        case plain
        /// JSON lines (`JSONLinesOutput`) on standard output, notes on standard error.
        case json
    }

    /// The mode for the current process: JSON if asked, live on a capable terminal, else plain.
    public static func mode(json: Bool) -> Mode {
        if json { return .json }
        let environment = ProcessInfo.processInfo.environment
        if isatty(STDOUT_FILENO) == 1, environment["NO_COLOR"] == nil, environment["TERM"] != "dumb" { return .live }
        return .plain
    }

    private struct Row {
        var status: AccessoryStatus
        var lastPlain = -Double.infinity
    }

    /// The mode the screen was made for.
    public let mode: Mode
    /// The run's zones (names, boundaries).
    public let zones: ZoneMap
    /// Time zero of the timestamps, on the events' clock, seconds.
    public let start: Double
    private let write: @Sendable (String) -> Void
    private let lock = NSLock()
    private var rows: [Row] = []
    private var drawnRows = 0
    private var finished = false
    private var lastDraw = ContinuousClock.now - .seconds(1)
    /// Longest distance the bar shows, metres.
    private let barRange: Double
    private static let barWidth = 20
    private let json: JSONLinesOutput

    /// A screen for a run with `zones` (the distance bar spans twice the outer boundary, at least 6 m).
    /// - Parameters:
    ///   - mode: see ``mode(json:)``.
    ///   - zones: the run's zones (names, boundaries).
    ///   - start: time zero of the timestamps, on the events' clock (MonotonicTime).
    ///   - write: where output goes, each piece at once.
    public init(mode: Mode, zones: ZoneMap, start: Double, write: @escaping @Sendable (String) -> Void) {
        self.mode = mode
        self.zones = zones
        self.start = start
        self.write = write
        barRange = max(6, (zones.boundaries.last ?? 3) * 2)
        json = JSONLinesOutput(write: write, notes: RangeScreen.standardError)
    }

    /// A screen on standard output (``Console/standardOutput``): text written at once; JSON
    /// lines gathered per burst of events and written together (one `write(2)` per burst).
    public init(mode: Mode, zones: ZoneMap, start: Double) {
        self.mode = mode
        self.zones = zones
        self.start = start
        self.write = RangeScreen.standardOutput
        barRange = max(6, (zones.boundaries.last ?? 3) * 2)
        json = JSONLinesOutput(writer: Console.standardOutput, notes: RangeScreen.standardError)
    }

    /// The run output for this screen: itself, or the JSON lines in JSON mode.
    public var output: any RunOutput { mode == .json ? json : self }

    /// Writes `text` (newline included by the caller) to standard output, at once.
    @Sendable public static func standardOutput(_ text: String) {
        Console.write(text, to: STDOUT_FILENO)
    }

    /// Writes `text` (newline included by the caller) to standard error, at once.
    @Sendable public static func standardError(_ text: String) {
        Console.write(text, to: STDERR_FILENO)
    }

    /// Adds a line for every accessory announced at the start.
    public func runStarted(_ context: RunContext) {
        lock.withLock {
            for identity in context.accessories where !rows.contains(where: { $0.status.identity.id == identity.id }) {
                rows.append(Row(status: AccessoryStatus(identity: identity)))
            }
        }
    }

    /// A note for people (what is being done, the summary): above the live lines, or on
    /// standard error in JSON mode.
    public func note(_ text: String) {
        lock.withLock { noteLocked(text) }
    }

    private func noteLocked(_ text: String) {
        switch mode {
        case .json: Self.standardError(text + "\n")
        case .plain: write(text + "\n")
        case .live: finished ? write(text + "\n") : redraw(above: [text])
        }
    }

    /// Shows what a zone-trigger hook did: a line above the live lines.
    public func hookFinished(_ outcome: HookOutcome, at time: Double) {
        lock.withLock { noteLocked("hook \(outcome)") }
    }

    /// Shows one event.
    public func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        lock.withLock { handleLocked(event, status: status) }
    }

    /// Draws the lines a last time; later notes print below them.
    public func runFinished(_ summary: RunSummary) async {
        lock.withLock {
            if mode == .live { redraw(above: []) }
            finished = true
        }
    }

    private func handleLocked(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        let index = status.map(rowIndex)
        if let index, let status { rows[index].status = status }
        var lines: [String] = []
        switch event.kind {
        case .update(let update):
            guard let index else { return }
            lines = update.events.map { "\(event.accessory?.displayName ?? "?"): \($0.summary)" }
            if mode == .plain, update.timestamp - rows[index].lastPlain >= 1 {
                rows[index].lastPlain = update.timestamp
                for line in lines { write(timestamp(event.time) + "  " + line + "\n") }
                lines = []
                write(timestamp(event.time) + "  " + render(rows[index].status, colour: false) + "\n")
            }
        case .state(let state):
            switch state {
            case .ranging, .failed, .stopped, .connecting: lines = [event.description]
            default: break
            }
        case .configured(let plan, let latency):
            lines = ["\(event.accessory?.displayName ?? "?"): \(plan.summary); 0x01 -> 0x0B in \(latency)"]
        case .ranging, .dropped, .retry, .uwb, .link, .device, .error:
            lines = [event.description]
        }
        guard mode == .live else {
            for line in lines { write(timestamp(event.time) + "  " + line + "\n") }
            return
        }
        if !lines.isEmpty {
            redraw(above: lines.map { timestamp(event.time) + "  " + $0 })
        } else if ContinuousClock.now - lastDraw >= .milliseconds(100) {
            redraw(above: [])
        }
    }

    // MARK: Drawing

    private func rowIndex(_ status: AccessoryStatus) -> Int {
        if let index = rows.firstIndex(where: { $0.status.identity.id == status.identity.id }) { return index }
        rows.append(Row(status: status))
        return rows.count - 1
    }

    private func timestamp(_ time: Double) -> String {
        String(format: "%8.3f s", max(0, time - start))
    }

    /// Moves to the top of the live block, prints `lines` (they scroll up), then the block.
    private func redraw(above lines: [String]) {
        var out = drawnRows > 0 ? "\u{1B}[\(drawnRows)F" : "\r"
        for line in lines { out += "\u{1B}[2K" + line + "\n" }
        for row in rows { out += "\u{1B}[2K" + render(row.status, colour: true) + "\n" }
        out += "\u{1B}[J"
        drawnRows = rows.count
        lastDraw = .now
        write(out)
    }

    private func render(_ row: AccessoryStatus, colour: Bool) -> String {
        let nameWidth = max(8, rows.map(\.status.identity.displayName.count).max() ?? 8)
        var line = row.identity.displayName.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
        if let distance = row.distance {
            line += String(format: " %6.2f m ", distance) + bar(distance)
        } else {
            line += "      - m " + String(repeating: "·", count: Self.barWidth)
        }
        if let azimuth = row.azimuth {
            let shown = azimuth.rounded()
            line += "  " + Self.arrow(azimuth) + String(format: " %4.0f°", shown == 0 ? 0 : shown)
        } else {
            line += "        "
        }
        let zone = (row.zone?.name ?? "-").padding(toLength: max(5, zones.zones.map(\.name.count).max() ?? 5), withPad: " ", startingAt: 0)
        line += "  " + (colour ? Self.coloured(zone, zoneIndex: row.zone?.index) : zone)
        line += String(format: "  %4.1f Hz", row.updateRate)
        let held = row.isHeld || row.tracking != .tracking
        let state = held && row.sessionState == "ranging" ? "ranging (held)" : row.sessionState
        line += "  " + (colour && row.sessionState == "failed" ? "\u{1B}[31m\(state)\u{1B}[0m" : state)
        return line
    }

    private func bar(_ distance: Double) -> String {
        let filled = min(Self.barWidth, max(0, Int((distance / barRange * Double(Self.barWidth)).rounded())))
        return String(repeating: "█", count: filled) + String(repeating: "░", count: Self.barWidth - filled)
    }

    /// The arrow pointing where the accessory is: ↑ ahead, → right (azimuth +90°), ↓ behind.
    public static func arrow(_ azimuth: Double) -> String {
        let arrows = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
        let normalized = (azimuth.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return arrows[Int((normalized + 22.5) / 45) % 8]
    }

    private static func coloured(_ text: String, zoneIndex: Int?) -> String {
        switch zoneIndex {
        case 0: "\u{1B}[32m\(text)\u{1B}[0m"
        case 1: "\u{1B}[33m\(text)\u{1B}[0m"
        default: text
        }
    }
}
