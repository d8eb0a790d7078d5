import Foundation
import Hooks
import NearbyInteraction
import Ranging
import UWBDevice
import NIProtocol

/// What `nearby range` and `nearby demo` show: the renderer both share.
///
/// - **live** (standard output is a terminal, `NO_COLOR` unset, `TERM` not `dumb`): one line per
///   accessory, redrawn in place at most 10 times a second: name, smoothed distance, a distance
///   bar, a direction arrow with the azimuth, the zone, the update rate, the session state.
///   Events (zone changes, lost / found, retries, errors, ...) scroll above the lines.
/// - **plain**: events as lines, and one status line per accessory at most once a second.
/// - **json**: one object per update and per event on standard output (keys in the README:
///   `t_s`, `event`, `accessory`, `name`, then the event's own keys); notes go to standard error.
///
/// Thread-safe: the event loop and the command's own task (notes) both write, one at a time.
final class RangeScreen: @unchecked Sendable {
    enum Mode: Equatable {
        case live, plain, json
    }

    /// The mode for the current process: JSON if asked, live on a capable terminal, else plain.
    static func mode(json: Bool) -> Mode {
        if json { return .json }
        let environment = ProcessInfo.processInfo.environment
        if isatty(STDOUT_FILENO) == 1, environment["NO_COLOR"] == nil, environment["TERM"] != "dumb" { return .live }
        return .plain
    }

    private struct Row {
        var identity: AccessoryIdentity
        var distance: Double?
        var azimuth: Double?
        var zone: String?
        var state = "idle"
        var held = false
        var times: [Double] = []
        var lastPlain = -Double.infinity
    }

    let mode: Mode
    private let zones: ZoneMap
    private let start: Double
    private let write: (String) -> Void
    private let lock = NSLock()
    private var rows: [Row] = []
    private var drawnRows = 0
    private var finished = false
    private var lastDraw = ContinuousClock.now - .seconds(1)
    /// Longest distance the bar shows, metres.
    private let barRange: Double
    private static let barWidth = 20

    /// - Parameters:
    ///   - start: time zero of `t_s`, on the events' clock (MonotonicTime).
    ///   - write: where output goes (standard output by default, flushed).
    init(mode: Mode, zones: ZoneMap, start: Double, write: @escaping (String) -> Void = RangeScreen.standardOutput) {
        self.mode = mode
        self.zones = zones
        self.start = start
        self.write = write
        barRange = max(6, (zones.boundaries.last ?? 3) * 2)
    }

    static func standardOutput(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Announces an accessory before it reports anything (so its line shows at once).
    func add(_ identity: AccessoryIdentity) {
        lock.withLock { _ = rowIndex(identity) }
    }

    /// A note for people (what is being done, the summary): above the live lines, or on
    /// standard error in JSON mode.
    func note(_ text: String) {
        lock.withLock { noteLocked(text) }
    }

    private func noteLocked(_ text: String) {
        switch mode {
        case .json: FileHandle.standardError.write(Data((text + "\n").utf8))
        case .plain: write(text + "\n")
        case .live: finished ? write(text + "\n") : redraw(above: [text])
        }
    }

    /// Shows what a zone-trigger hook did: a line above the live lines, or in JSON mode an
    /// object with `event` `hook` and `accessory`, `name`, `hook`, `trigger`, `zone`,
    /// `exit_code`, `signal`, `timed_out`, `duration_s`, `coalesced_events`.
    func hook(_ outcome: HookOutcome) {
        lock.withLock {
            guard mode == .json else {
                noteLocked("hook \(outcome)")
                return
            }
            var exitCode: Int?
            var signal: Int?
            switch outcome.status {
            case .exited(let code): exitCode = Int(code)
            case .signaled(let number): signal = Int(number)
            case .failedToStart: break
            }
            let line = JSONLine([
                ("t_s", .number(max(0, MonotonicTime.seconds() - start), 3)), ("event", .string("hook")),
                ("accessory", .string(outcome.event.accessoryID)), ("name", .string(outcome.event.accessoryName)),
                ("hook", .string(outcome.hookName)), ("trigger", .string(outcome.event.kind.rawValue)),
                ("zone", .string(outcome.event.zone)), ("exit_code", .int(exitCode)), ("signal", .int(signal)),
                ("timed_out", .bool(outcome.timedOut)), ("duration_s", .number(outcome.duration, 3)),
                ("coalesced_events", .int(outcome.coalescedEvents)),
            ])
            write(line.text + "\n")
        }
    }

    /// Shows one event.
    func handle(_ event: NearbySessionEvent) {
        lock.withLock { handleLocked(event) }
    }

    private func handleLocked(_ event: NearbySessionEvent) {
        if mode == .json {
            write(SessionJSON.object(for: event, start: start, zones: zones) + "\n")
            return
        }
        let index = event.accessory.map(rowIndex)
        var line: String?
        switch event.kind {
        case .update(let update):
            guard let index else { return }
            rows[index].distance = update.distance
            rows[index].azimuth = update.direction?.azimuth
            rows[index].zone = update.zone.map(zoneName)
            rows[index].held = update.isHeld || update.state != .tracking
            if update.sample.isValid {
                rows[index].times.append(update.timestamp)
                if rows[index].times.count > 10 { rows[index].times.removeFirst() }
            }
            if mode == .plain, update.timestamp - rows[index].lastPlain >= 1 {
                rows[index].lastPlain = update.timestamp
                write(timestamp(event.time) + "  " + render(rows[index], colour: false) + "\n")
            }
        case .state(let state):
            if let index { rows[index].state = state.name }
            switch state {
            case .ranging, .failed, .stopped, .connecting: line = event.description
            default: break
            }
        case .ranging(let ranging, _):
            if let index, case .lost = ranging { rows[index].distance = nil; rows[index].zone = nil }
            line = event.description
        case .configured(let plan, let latency):
            line = "\(event.accessory?.displayName ?? "?"): \(plan.summary); 0x01 -> 0x0B in \(latency)"
        case .retry, .uwb, .link, .device, .error:
            line = event.description
        }
        guard mode == .live else {
            if let line { write(timestamp(event.time) + "  " + line + "\n") }
            return
        }
        if let line {
            redraw(above: [timestamp(event.time) + "  " + line])
        } else if ContinuousClock.now - lastDraw >= .milliseconds(100) {
            redraw(above: [])
        }
    }

    /// Final drawing: the lines as they stand, cursor below them; later notes go below.
    func finish() {
        lock.withLock {
            if mode == .live { redraw(above: []) }
            finished = true
        }
    }

    // MARK: Drawing

    private func rowIndex(_ identity: AccessoryIdentity) -> Int {
        if let index = rows.firstIndex(where: { $0.identity.id == identity.id }) { return index }
        rows.append(Row(identity: identity))
        return rows.count - 1
    }

    private func zoneName(_ index: Int) -> String {
        zones.zones.indices.contains(index) ? zones.zones[index].name : "zone \(index)"
    }

    private func timestamp(_ time: Double) -> String {
        String(format: "%8.3f s", max(0, time - start))
    }

    /// Moves to the top of the live block, prints `lines` (they scroll up), then the block.
    private func redraw(above lines: [String]) {
        var out = drawnRows > 0 ? "\u{1B}[\(drawnRows)F" : "\r"
        for line in lines { out += "\u{1B}[2K" + line + "\n" }
        for row in rows { out += "\u{1B}[2K" + render(row, colour: true) + "\n" }
        out += "\u{1B}[J"
        drawnRows = rows.count
        lastDraw = .now
        write(out)
    }

    private func render(_ row: Row, colour: Bool) -> String {
        let nameWidth = max(8, rows.map(\.identity.displayName.count).max() ?? 8)
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
        let zone = (row.zone ?? "-").padding(toLength: max(5, zones.zones.map(\.name.count).max() ?? 5), withPad: " ", startingAt: 0)
        line += "  " + (colour ? Self.coloured(zone, zoneIndex: zones.zones.firstIndex { $0.name == row.zone }) : zone)
        line += String(format: "  %4.1f Hz", rate(row))
        let state = row.held && row.state == "ranging" ? "ranging (held)" : row.state
        line += "  " + (colour && row.state == "failed" ? "\u{1B}[31m\(state)\u{1B}[0m" : state)
        return line
    }

    private func rate(_ row: Row) -> Double {
        guard row.times.count >= 2, let first = row.times.first, let last = row.times.last, last > first else { return 0 }
        return Double(row.times.count - 1) / (last - first)
    }

    private func bar(_ distance: Double) -> String {
        let filled = min(Self.barWidth, max(0, Int((distance / barRange * Double(Self.barWidth)).rounded())))
        return String(repeating: "█", count: filled) + String(repeating: "░", count: Self.barWidth - filled)
    }

    /// The arrow pointing where the accessory is: ↑ ahead, → right (azimuth +90°), ↓ behind.
    static func arrow(_ azimuth: Double) -> String {
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
