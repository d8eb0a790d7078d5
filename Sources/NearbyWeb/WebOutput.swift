public import Hooks
import NearbyBase
import NIProtocol
public import NearbyInteraction
public import NearbyRuntime
import Ranging
import Synchronization

/// The `RunOutput` (NearbyRuntime) of the web view: every event goes to its hub (the
/// state `/api/state` serves and the streams `/api/events` send). Never blocks: a call takes a
/// lock, builds the event's JSON (statuses are encoded later, only when sent) and queues.
public final class WebOutput: RunOutput, Sendable {
    let hub: WebHub
    private let state = Mutex(State())

    private struct State {
        var context = RunContext(accessories: [], zones: .standard, start: 0, wallStart: 0)
        var rawDirection: [String: (azimuth: Double?, elevation: Double?)] = [:]
        var lastTime: Double?
    }

    init(hub: WebHub) {
        self.hub = hub
    }

    public func runStarted(_ context: RunContext) {
        state.withLock { $0.context = context }
        hub.started(context)
    }

    public func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        let (context, raw) = state.withLock { state -> (RunContext, (azimuth: Double?, elevation: Double?)?) in
            state.lastTime = max(state.lastTime ?? event.time, event.time)
            guard let id = event.accessory?.id else { return (state.context, nil) }
            if status?.tracking == .lost {
                state.rawDirection[id] = nil
            } else if case .update(let update) = event.kind, update.sample.isUsable {
                state.rawDirection[id] = (update.sample.usableAzimuth, update.sample.usableElevation)
            }
            return (state.context, state.rawDirection[id])
        }
        switch event.kind {
        case .update(let update):
            for ranging in update.events {
                hub.publish(log: RunJSON.object(for: ranging, accessory: event.accessory, context: context), at: ranging.timestamp)
            }
        default:
            for object in RunJSON.objects(for: event, context: context) { hub.publish(log: object, at: event.time) }
        }
        if let status {
            hub.publish(WebStatus(status: status, rawAzimuth: raw?.azimuth, rawElevation: raw?.elevation, context: context))
        }
    }

    public func hookFinished(_ outcome: HookOutcome, at time: Double) {
        let context = state.withLock { $0.context }
        hub.publish(log: RunJSON.object(for: outcome, at: time, context: context), at: time)
    }

    public func note(_ text: String) {
        let (context, time) = state.withLock { ($0.context, $0.lastTime) }
        hub.publish(
            log: JSONObject([
                ("t_s", .number(time.map(context.elapsed) ?? 0, decimals: 3)), ("event", .string("note")),
                ("accessory", .string(nil)), ("name", .string(nil)), ("message", .string(text)),
            ]), at: nil)
    }

    public func runFinished(_ summary: RunSummary) async {
        let context = state.withLock { $0.context }
        let objects = RunJSON.objects(for: summary, context: context)
        hub.finish(
            JSONObject([
                ("t_s", .number(summary.duration, decimals: 3)), ("event", .string("end")),
                ("duration_s", .number(summary.duration, decimals: 3)), ("interrupted", .bool(summary.interrupted)),
                ("summary", .raw("[" + objects.map(\.text).joined(separator: ",") + "]")),
            ]))
    }
}
