import Foundation
import NearbyInteraction
import Ranging
import NIProtocol

/// The one place where `nearby range` and `nearby demo` consume session events: every event goes
/// to the screen, the trace recorder (`--record`), the zone-trigger hooks and the summary, in
/// order.
///
/// `@unchecked Sendable`: one task runs ``run(_:onEvent:)``; the tallies are read only after it
/// returned.
final class SessionEventLoop: @unchecked Sendable {
    /// Per-accessory counts for the closing summary.
    struct Tally {
        var identity: AccessoryIdentity
        var updates = 0
        var measured = 0
        var zoneEvents = 0
        var retries = 0
        var configurations = 0
        var latency: SessionLatency?
        var lastDistance: Double?
        var state: AccessorySessionState = .idle
        var lastError: String?
    }

    let screen: RangeScreen
    let recorder: TraceRecorder?
    let hooks: SessionHooks?
    private(set) var tallies: [Tally] = []

    init(screen: RangeScreen, recorder: TraceRecorder?, hooks: SessionHooks? = nil) {
        self.screen = screen
        self.recorder = recorder
        self.hooks = hooks
    }

    /// Announces an accessory before its session starts: its line shows at once and the summary
    /// keeps this order. Call before ``run(_:onEvent:)`` starts or from the same task.
    func add(_ identity: AccessoryIdentity) {
        screen.add(identity)
        if !tallies.contains(where: { $0.identity.id == identity.id }) { tallies.append(Tally(identity: identity)) }
    }

    /// Consumes `events` until it ends; `onEvent` sees each event after the outputs (for stop
    /// conditions).
    func run(_ events: AsyncStream<NearbySessionEvent>, onEvent: (NearbySessionEvent, SessionEventLoop) -> Void = { _, _ in }) async {
        for await event in events {
            screen.handle(event)
            if case .update(let update) = event.kind, let accessory = event.accessory {
                recorder?.record(update.sample, accessory: accessory)
            }
            hooks?.handle(event)
            tally(event)
            onEvent(event, self)
        }
        hooks?.flushAll()
        screen.finish()
    }

    private func tally(_ event: NearbySessionEvent) {
        guard let accessory = event.accessory else { return }
        let index: Int
        if let found = tallies.firstIndex(where: { $0.identity.id == accessory.id }) {
            index = found
        } else {
            tallies.append(Tally(identity: accessory))
            index = tallies.count - 1
        }
        switch event.kind {
        case .update(let update):
            tallies[index].updates += 1
            if update.sample.isValid, update.sample.distance != nil { tallies[index].measured += 1 }
            if let distance = update.distance { tallies[index].lastDistance = distance }
        case .ranging(.entered, _):
            tallies[index].zoneEvents += 1
        case .retry:
            tallies[index].retries += 1
        case .configured(_, let latency):
            tallies[index].configurations += 1
            tallies[index].latency = latency
        case .state(let state):
            tallies[index].state = state
        case .error(let error):
            tallies[index].lastError = error.description
        default:
            break
        }
    }

    /// One line per accessory: `sim-1: 298 updates (296 measured), 11 zone changes, 0 retries, last 6.98 m, stopped; 0x01 -> 0x0B: 0.21 ms own work ...`.
    var summaryLines: [String] {
        tallies.map { t in
            var line = "\(t.identity.displayName): \(t.updates) updates (\(t.measured) measured), \(t.zoneEvents) zone change\(t.zoneEvents == 1 ? "" : "s"), "
            line += "\(t.retries) retr\(t.retries == 1 ? "y" : "ies"), "
            line += t.lastDistance.map { String(format: "last %.2f m, ", $0) } ?? ""
            line += t.state.description
            if let latency = t.latency { line += "; 0x01 -> 0x0B: \(latency)" }
            return line
        }
    }
}

/// `--record FILE.csv`: every raw range sample in the trace format (specs/trace-format.md) with
/// one extra column, `accessory` (readers ignore unknown columns). Rows are in arrival order;
/// `t_s` counts from the start of the command and is kept non-decreasing across accessories,
/// as the format requires (samples of different accessories may arrive a fraction of a
/// millisecond out of order).
///
/// `@unchecked Sendable`: written by the event loop's task only, closed after it ended.
final class TraceRecorder: @unchecked Sendable {
    private let handle: FileHandle
    private let writer = TraceWriter()
    private let start: Double
    private var last = 0.0

    /// Creates (or truncates) `path` and writes the header.
    /// - Throws: a message naming the file when it cannot be created.
    init(path: String, start: Double) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw RecordError(description: "cannot create \(path): check the directory exists and is writable")
        }
        self.handle = handle
        self.start = start
        handle.write(Data((writer.header + ",accessory\n").utf8))
    }

    struct RecordError: Error, CustomStringConvertible {
        var description: String
    }

    func record(_ sample: RangeSample, accessory: AccessoryIdentity) {
        var sample = sample
        last = max(last, sample.timestamp - start)
        sample.timestamp = last
        handle.write(Data((writer.line(for: sample) + "," + accessory.id.replacingOccurrences(of: ",", with: "_") + "\n").utf8))
    }

    func close() {
        try? handle.close()
    }
}

/// Waits until Ctrl-C / SIGTERM or until `finished()` says the run is over (checked every 50 ms).
/// - Returns: `true` if a signal ended the wait.
func waitForSignalOr(_ finished: @escaping @Sendable () async -> Bool) async -> Bool {
    let signals = SignalStream([SIGINT, SIGTERM])
    defer { signals.cancel() }
    return await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            for await _ in signals.stream { return true }
            return false
        }
        group.addTask {
            while !Task.isCancelled {
                if await finished() { return false }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
    }
}
