import NIOCore
import NearbyBase
import NIProtocol
import NearbyRuntime
import Ranging
import Synchronization

/// The web view's copy of the run: zones, every accessory's latest status, recent events, the
/// summary once the run ended, and the streams to send them to. Thread-safe: the run publishes,
/// the server's event loop reads and subscribes.
///
/// A stream's `hello` is built under the same lock as publishing, so a new viewer gets the state
/// and then exactly the events after it: none missed, none twice.
final class WebHub: Sendable {
    private let settings: WebSettings
    private let source: String
    private let state: Mutex<State>

    private struct State {
        var context: RunContext?
        var statuses: [String: WebStatus] = [:]
        var order: [String] = []
        var history: CircularBuffer<String>
        var lastTime: Double?
        var end: String?
        var clients: [Int: WebStreamClient] = [:]
        var nextID = 0
    }

    /// - Parameter source: what runs (`range`, `demo`, `replay`), shown on the page.
    init(settings: WebSettings, source: String) {
        self.settings = settings
        self.source = source
        state = Mutex(State(history: CircularBuffer(initialCapacity: settings.historyLimit)))
    }

    /// The run started.
    func started(_ context: RunContext) {
        state.withLock { state in
            state.context = context
        }
    }

    /// The run's context (a default one before it started).
    var context: RunContext {
        state.withLock { $0.context } ?? RunContext(accessories: [], zones: .standard, start: 0, wallStart: 0)
    }

    /// An accessory's new status: kept, and queued (coalesced) for every stream.
    func publish(_ status: WebStatus) {
        state.withLock { state in
            let id = status.status.identity.id
            if state.statuses.updateValue(status, forKey: id) == nil { state.order.append(id) }
            if let time = status.status.lastUpdate { state.lastTime = max(state.lastTime ?? time, time) }
            for client in state.clients.values { client.push(status: status) }
        }
    }

    /// An event for the log: kept (the last ``WebSettings/historyLimit``) and queued for every stream.
    func publish(log object: JSONObject, at time: Double?) {
        let text = object.text
        let frame = WebFrame.event("log", text)
        state.withLock { state in
            if let time { state.lastTime = max(state.lastTime ?? time, time) }
            if state.history.count >= settings.historyLimit { state.history.removeFirst() }
            state.history.append(text)
            for client in state.clients.values { client.push(log: frame) }
        }
    }

    /// The time of the latest event, on the events' clock (`nil` before the first).
    var lastTime: Double? { state.withLock { $0.lastTime } }

    /// The run ended: `object` is the `end` event (summary), sent to every stream and kept.
    func finish(_ object: JSONObject) {
        let text = object.text
        let frame = WebFrame.event("end", text)
        state.withLock { state in
            state.end = text
            for client in state.clients.values { client.finish(frame) }
        }
    }

    /// Adds a stream (its first frame is `hello`, the state now).
    /// - Returns: the client, `nil` if ``WebSettings/maxStreams`` are open.
    func subscribe(channel: any Channel) -> WebStreamClient? {
        state.withLock { state in
            guard state.clients.count < settings.maxStreams else { return nil }
            state.nextID += 1
            let client = WebStreamClient(id: state.nextID, channel: channel, limit: settings.streamQueueLimit)
            client.start(WebFrame.retry + WebFrame.event("hello", Self.stateText(state, source: source, streams: state.clients.count + 1)))
            if let end = state.end { client.finish(WebFrame.event("end", end)) }
            state.clients[client.id] = client
            return client
        }
    }

    /// Removes a stream (its channel closed).
    func unsubscribe(_ client: WebStreamClient) {
        _ = state.withLock { $0.clients.removeValue(forKey: client.id) }
        client.close()
    }

    /// Open streams.
    var streamCount: Int { state.withLock { $0.clients.count } }

    /// The open streams (tests: their queues' counts).
    var streams: [WebStreamClient] { state.withLock { Array($0.clients.values) } }

    /// The `/api/state` object's text (the same object a stream's `hello` carries).
    func stateText() -> String {
        state.withLock { Self.stateText($0, source: source, streams: $0.clients.count) }
    }

    private static func stateText(_ state: State, source: String, streams: Int) -> String {
        let context = state.context ?? RunContext(accessories: [], zones: .standard, start: 0, wallStart: 0)
        let zones = context.zones.zones.enumerated().map { index, zone in
            JSONObject([
                ("index", .integer(index)), ("name", .string(zone.name)),
                ("upper_m", .number(zone.upperBound.isFinite ? zone.upperBound : nil, decimals: 3)),
                ("enter_m", .number(zone.enterThreshold.isFinite ? zone.enterThreshold : nil, decimals: 3)),
                ("exit_m", .number(zone.exitThreshold.isFinite ? zone.exitThreshold : nil, decimals: 3)),
            ]).text
        }
        // The announced accessories in order (those not heard from yet with an empty status), then any others.
        var accessories = context.accessories.map { identity in
            (state.statuses[identity.id] ?? WebStatus(status: AccessoryStatus(identity: identity), rawAzimuth: nil, rawElevation: nil, context: context)).json.text
        }
        let announced = Set(context.accessories.map(\.id))
        for id in state.order where !announced.contains(id) {
            if let status = state.statuses[id] { accessories.append(status.json.text) }
        }
        return JSONObject([
            ("version", .integer(1)), ("source", .string(source)),
            ("t_s", .number(state.lastTime.map(context.elapsed) ?? 0, decimals: 3)),
            ("wall_start_s", .number(context.wallStart, decimals: 3)),
            ("finished", .bool(state.end != nil)),
            ("zones", .raw("[" + zones.joined(separator: ",") + "]")),
            ("accessories", .raw("[" + accessories.joined(separator: ",") + "]")),
            ("events", .raw("[" + state.history.joined(separator: ",") + "]")),
            ("summary", .raw(state.end ?? "null")),
            ("streams", .integer(streams)),
        ]).text
    }
}
