public import Hooks
public import NearbyBase
public import NearbyInteraction
public import NIProtocol
public import Ranging
import LowEnergy
public import NearbySupport
import UCI

/// The one JSON encoding of a run's events: `nearby range --json`, `demo --json` and
/// `replay --json` print these objects, one per line (keys: README, "JSON keys").
///
/// Every object has `t_s` (seconds since the run started, 3 decimals), `event`, `accessory` (its
/// ID, `null` for dev-kit and run events) and `name`, then the event's own keys. An update's
/// zone change, `lost` and `found` come as `ranging` objects just before the update itself.
public enum RunJSON {
    /// The objects for one session event, in order (a sample's ranging events first).
    public static func objects(for event: NearbySessionEvent, context: RunContext) -> [JSONObject] {
        switch event.kind {
        case .update(let update):
            var objects = update.events.map { Self.object(for: $0, accessory: event.accessory, context: context) }
            var line = header(event.accessory, time: event.time, event: "update", context: context)
            line.merge([
                ("distance_m", .number(update.distance, decimals: 3)),
                ("velocity_mps", .number(update.velocity, decimals: 3)),
                ("azimuth_deg", .number(update.direction?.azimuth, decimals: 2)),
                ("elevation_deg", .number(update.direction?.elevation, decimals: 2)),
                ("confidence", .number(update.confidence, decimals: 3)),
                ("zone", .string(update.zone?.name)),
                ("held", .bool(update.isHeld)),
                ("tracking", .string("\(update.state)")),
                ("raw_distance_m", .number(update.sample.distance, decimals: 3)),
                ("status", .integer(update.sample.status)),
            ])
            objects.append(line)
            return objects
        case .ranging(let ranging):
            return [object(for: ranging, accessory: event.accessory, context: context)]
        default:
            var object = header(event.accessory, time: event.time, event: event.kindName, context: context)
            switch event.kind {
            case .state(let state):
                object.merge([("state", .string(state.name)), ("detail", .string(state.description))])
            case .configured(let plan, let latency):
                object.merge([
                    ("session_id", .integer(plan.sessionID)),
                    ("channel", .integer(plan.hostParameters.channel)),
                    ("preamble", .integer(plan.hostParameters.preambleCodeIndex)),
                    ("interval_ms", .integer(plan.hostParameters.rangingInterval)),
                    ("own_work_ms", .number(latency.ownWorkMilliseconds, decimals: 3)),
                    ("total_ms", .number(latency.totalMilliseconds, decimals: 3)),
                    ("exchange_ms", .number(latency.exchangeMilliseconds, decimals: 3)),
                ])
            case .retry(let retry):
                object.merge([
                    ("reason", .string(retry.reason.description)),
                    ("action", .string(retry.action.rawValue)),
                    ("attempt", .integer(retry.attempt)),
                    ("max_attempts", .integer(retry.maxAttempts)),
                    ("delay_s", .number(retry.delay.inSeconds, decimals: 3)),
                ])
            case .dropped(let report):
                object.merge([("queue", .string(report.queue.rawValue)), ("count", .integer(report.count)), ("total", .integer(report.total))])
            case .error(let error):
                object.merge([("code", .string(error.code.name)), ("message", .string(error.description))])
            case .link(.security(let error)):
                object.merge(SecurityJSON.fields(for: error))
            default:
                object["message"] = .string(event.description)
            }
            return [object]
        }
    }

    /// A `ranging` object: `type` `zone` (with `from`, `to`; `zone` = `to`), `lost` (`zone` = the
    /// zone it was in) or `found`.
    public static func object(for event: RangingEvent, accessory: AccessoryIdentity?, context: RunContext) -> JSONObject {
        var object = header(accessory, time: event.timestamp, event: "ranging", context: context)
        switch event {
        case .zoneChanged(let from, let to, _):
            object.merge([("type", .string("zone")), ("from", .string(from?.name)), ("to", .string(to?.name)), ("zone", .string(to?.name))])
        case .lost(_, let zone):
            object.merge([("type", .string("lost")), ("zone", .string(zone?.name))])
        case .found:
            object.merge([("type", .string("found")), ("zone", .string(nil))])
        }
        return object
    }

    /// A `hook` object: `hook`, `trigger`, `zone`, `previous_zone`, `exit_code`, `signal`,
    /// `error`, `timed_out`, `duration_s`, `coalesced_events`, `stdout`, `stderr`.
    public static func object(for outcome: HookOutcome, at time: Double, context: RunContext) -> JSONObject {
        var exitCode: Int32?
        var signal: Int32?
        var error: String?
        switch outcome.status {
        case .exited(let code): exitCode = code
        case .signaled(let number): signal = number
        case .failedToStart(let reason): error = reason
        }
        var object = JSONObject([
            ("t_s", .number(context.elapsed(time), decimals: 3)), ("event", .string("hook")),
            ("accessory", .string(outcome.event.accessoryID)), ("name", .string(outcome.event.accessoryName)),
        ])
        object.merge([
            ("hook", .string(outcome.hookName)), ("trigger", .string(outcome.event.kind.rawValue)),
            ("zone", .string(outcome.event.zone)), ("previous_zone", .string(outcome.event.previousZone)),
            ("exit_code", .integer(exitCode)), ("signal", .integer(signal)), ("error", .string(error)),
            ("timed_out", .bool(outcome.timedOut)), ("duration_s", .number(outcome.duration, decimals: 3)),
            ("coalesced_events", .integer(outcome.coalescedEvents)),
            ("stdout", .string(outcome.standardOutputTail)), ("stderr", .string(outcome.standardErrorTail)),
        ])
        return object
    }

    /// The `summary` objects: one per accessory (`updates`, `measured`, `zone_changes`,
    /// `retries`, `last_distance_m`, `state`, `dropped_samples`, `discarded_samples`), then one for the run
    /// (`accessory` `null`: `duration_s`, `dropped_updates`, `hook_runs`, `hook_failures`,
    /// `hook_events_dropped`, `interrupted`).
    public static func objects(for summary: RunSummary, context: RunContext) -> [JSONObject] {
        let time = context.start + summary.duration
        var objects = summary.accessories.map { status in
            var object = header(status.identity, time: time, event: "summary", context: context)
            object.merge([
                ("updates", .integer(status.updates)), ("measured", .integer(status.measured)),
                ("zone_changes", .integer(status.zoneChanges)), ("retries", .integer(status.retries)),
                ("last_distance_m", .number(status.lastDistance, decimals: 3)), ("state", .string(status.sessionState)),
                ("dropped_samples", .integer(status.droppedSamples)), ("discarded_samples", .integer(status.discardedSamples)),
            ])
            return object
        }
        var run = header(nil, time: time, event: "summary", context: context)
        run.merge([
            ("duration_s", .number(summary.duration, decimals: 3)), ("dropped_updates", .integer(summary.droppedUpdates)),
            ("hook_runs", .integer(summary.hookRuns)), ("hook_failures", .integer(summary.hookFailures)),
            ("hook_events_dropped", .integer(summary.hookEventsDropped)), ("interrupted", .bool(summary.interrupted)),
        ])
        objects.append(run)
        return objects
    }

    /// Appends the line of an update (the object ``objects(for:context:)-(NearbySessionEvent,_)`` ends with, and a
    /// newline) to `out` in place: the same bytes, without building objects or strings, so the
    /// hot line of a run allocates nothing. The update's `ranging` objects are not included.
    public static func appendUpdateLine(
        _ update: RangingUpdate, accessory: AccessoryIdentity?, time: Double, context: RunContext, to out: inout [UInt8]
    ) {
        JSONBytes.append(#"{"t_s":"#, to: &out)
        JSONBytes.appendNumber(context.elapsed(time), decimals: 3, to: &out)
        JSONBytes.append(#","event":"update","accessory":"#, to: &out)
        JSONBytes.appendString(accessory?.id, to: &out)
        JSONBytes.append(#","name":"#, to: &out)
        JSONBytes.appendString(accessory?.displayName, to: &out)
        JSONBytes.append(#","distance_m":"#, to: &out)
        JSONBytes.appendNumber(update.distance, decimals: 3, to: &out)
        JSONBytes.append(#","velocity_mps":"#, to: &out)
        JSONBytes.appendNumber(update.velocity, decimals: 3, to: &out)
        JSONBytes.append(#","azimuth_deg":"#, to: &out)
        JSONBytes.appendNumber(update.direction?.azimuth, decimals: 2, to: &out)
        JSONBytes.append(#","elevation_deg":"#, to: &out)
        JSONBytes.appendNumber(update.direction?.elevation, decimals: 2, to: &out)
        JSONBytes.append(#","confidence":"#, to: &out)
        JSONBytes.appendNumber(update.confidence, decimals: 3, to: &out)
        JSONBytes.append(#","zone":"#, to: &out)
        if let zone = update.zone {
            out.append(UInt8(ascii: "\""))
            zone.zoneName.withUTF8 { JSONBytes.appendEscaped($0, to: &out) }
            out.append(UInt8(ascii: "\""))
        } else {
            JSONBytes.append("null", to: &out)
        }
        JSONBytes.append(#","held":"#, to: &out)
        JSONBytes.appendBool(update.isHeld, to: &out)
        switch update.state {
        case .waiting: JSONBytes.append(#","tracking":"waiting","raw_distance_m":"#, to: &out)
        case .tracking: JSONBytes.append(#","tracking":"tracking","raw_distance_m":"#, to: &out)
        case .lost: JSONBytes.append(#","tracking":"lost","raw_distance_m":"#, to: &out)
        }
        JSONBytes.appendNumber(update.sample.distance, decimals: 3, to: &out)
        JSONBytes.append(#","status":"#, to: &out)
        JSONBytes.appendInteger(Int64(update.sample.status), to: &out)
        JSONBytes.append("}\n", to: &out)
    }

    private static func header(_ accessory: AccessoryIdentity?, time: Double, event: String, context: RunContext) -> JSONObject {
        JSONObject([
            ("t_s", .number(context.elapsed(time), decimals: 3)), ("event", .string(event)),
            ("accessory", .string(accessory?.id)), ("name", .string(accessory?.displayName)),
        ])
    }
}

/// A ``RunOutput`` writing ``RunJSON`` lines (`--json`): every event, hook and the summary.
///
/// With a `LineWriter` (standard output in the CLI) the lines of a burst of
/// events are gathered and written at once on ``flush()``, and an update's line is encoded
/// straight into the writer's buffer (``RunJSON/appendUpdateLine(_:accessory:time:context:to:)``).
public final class JSONLinesOutput: RunOutput, @unchecked Sendable {
    private let write: @Sendable (String) -> Void
    private let writer: LineWriter?
    private let notes: @Sendable (String) -> Void
    private var context = RunContext(accessories: [], zones: .standard, start: 0, wallStart: 0)

    /// - Parameters:
    ///   - write: receives each line, newline included, as it is made.
    ///   - notes: receives notes for people (standard error in the CLI).
    public init(write: @escaping @Sendable (String) -> Void, notes: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.writer = nil
        self.notes = notes
    }

    /// - Parameters:
    ///   - writer: gathers the lines; written once per burst (``flush()``).
    ///   - notes: receives notes for people (standard error in the CLI).
    public init(writer: LineWriter, notes: @escaping @Sendable (String) -> Void) {
        self.write = { [writer] in writer.append($0) }
        self.writer = writer
        self.notes = notes
    }

    public func runStarted(_ context: RunContext) { self.context = context }

    public func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        if let writer, case .update(let update) = event.kind {
            for ranging in update.events { write(RunJSON.object(for: ranging, accessory: event.accessory, context: context).text + "\n") }
            writer.withBuffer(readAt: update.timestamp) { buffer in
                RunJSON.appendUpdateLine(update, accessory: event.accessory, time: event.time, context: context, to: &buffer)
            }
            return
        }
        for object in RunJSON.objects(for: event, context: context) { write(object.text + "\n") }
    }

    public func flush() { writer?.flush() }

    public func hookFinished(_ outcome: HookOutcome, at time: Double) {
        write(RunJSON.object(for: outcome, at: time, context: context).text + "\n")
    }

    public func note(_ text: String) { notes(text + "\n") }

    public func runFinished(_ summary: RunSummary) async {
        for object in RunJSON.objects(for: summary, context: context) { write(object.text + "\n") }
        writer?.flush()
    }
}
