#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Logging
public import NearbyBase
public import NearbyRuntime

/// The live web view of a run (`--web`): a read-only HTTP server and the ``WebOutput`` that feeds
/// it. Start it before the run (a bind problem shows before any device is opened), add
/// ``output`` to the run's outputs, stop it after the run finished.
///
/// ```swift
/// let web = try await WebView.start(try WebSettings(address: WebAddress(parsing: "8080"), token: nil), source: "demo")
/// print("web view: \(web.url)")
/// let run = RangingRun(context: context, outputs: [web.output])
/// ...
/// _ = await run.finish(interrupted: false)
/// await web.stop()
/// ```
public final class WebView: Sendable {
    /// The run output to add to the run.
    public let output: WebOutput
    /// The settings (with the bound port).
    public let settings: WebSettings
    let hub: WebHub
    let server: WebServer

    private init(output: WebOutput, settings: WebSettings, hub: WebHub, server: WebServer) {
        self.output = output
        self.settings = settings
        self.hub = hub
        self.server = server
    }

    /// Binds and starts serving.
    /// - Parameters:
    ///   - settings: address and token.
    ///   - source: what runs (`range`, `demo`, `replay`), shown on the page and in the state.
    ///   - logger: where the server logs (bind address, clients, errors).
    /// - Throws: ``WebError`` `bindFailed` saying what to do.
    public static func start(_ settings: WebSettings, source: String, logger: Logger = Logger(label: "nearby.web")) async throws(WebError) -> WebView {
        let hub = WebHub(settings: settings, source: source)
        let server = try await WebServer.start(settings: settings, hub: hub, logger: logger)
        var bound = settings
        bound.address = server.address
        return WebView(output: WebOutput(hub: hub), settings: bound, hub: hub, server: server)
    }

    /// The bound address (with the real port when 0 was asked).
    public var address: WebAddress { server.address }

    /// The page's address, without the token: `http://127.0.0.1:8080/`. For an unspecified
    /// address (`0.0.0.0`, `::`) the machine's host name stands in.
    public var url: String {
        let address = server.address
        var host = address.description.dropLast("\(address.port)".count + 1)
        if address.isUnspecified { host = Substring(Self.hostName() ?? "localhost") }
        return "http://\(host):\(address.port)/"
    }

    /// The line telling the user where to look: `web view: http://127.0.0.1:8080/`, with
    /// ` (add ?token=YOUR_TOKEN)` when a token is needed (the token itself is never printed).
    public var announcement: String {
        "web view: \(url)" + (settings.token != nil ? " (add ?token=YOUR_TOKEN)" : "")
    }

    /// Open server-sent-event streams.
    public var streamCount: Int { hub.streamCount }

    /// Open connections of any kind.
    public var connectionCount: Int { server.connectionCount }

    /// Per open stream: log entries and statuses waiting, log entries dropped, statuses
    /// coalesced, bytes written (for tests and diagnostics).
    public var streamQueues: [(logs: Int, statuses: Int, dropped: Int, coalesced: Int, written: Int)] {
        hub.streams.map(\.counts)
    }

    // MARK: Sources other than a run

    /// Starts the view's state for a source that is not a `RangingRun` (a run
    /// adds ``output`` instead, which does this): the zones the page draws and the clock `t_s`
    /// counts from (`context.start` on the clock of the times given to ``publish(status:rawAzimuth:rawElevation:)``
    /// and ``publish(log:at:)``). Call before publishing.
    public func begin(_ context: RunContext) {
        hub.started(context)
    }

    /// Publishes an accessory's status (for a source that is not a run): kept for `/api/state`
    /// and sent to every stream as a `status` event (coalesced per accessory for a slow viewer).
    /// An accessory not seen before is added after the others. Never blocks.
    /// - Parameters:
    ///   - status: the status; its `lastUpdate` is on the clock of ``begin(_:)``'s context.
    ///   - rawAzimuth: measured azimuth of the last usable sample, degrees (`nil`: unknown).
    ///   - rawElevation: measured elevation of the last usable sample, degrees (`nil`: unknown).
    public func publish(status: AccessoryStatus, rawAzimuth: Double? = nil, rawElevation: Double? = nil) {
        hub.publish(WebStatus(status: status, rawAzimuth: rawAzimuth, rawElevation: rawElevation, context: hub.context))
    }

    /// Publishes an event for the page's log (for a source that is not a run): kept (the last
    /// ``WebSettings/historyLimit``) and sent to every stream as a `log` event. The object should
    /// have `t_s`, `event`, `accessory` and `name` like `RunJSON`'s (NearbyRuntime; the page
    /// shows `message` for an event it does not know). Never blocks.
    /// - Parameters:
    ///   - object: the event.
    ///   - time: its time on the clock of ``begin(_:)``'s context (`nil`: unknown).
    public func publish(log object: JSONObject, at time: Double?) {
        hub.publish(log: object, at: time)
    }

    /// Ends the view for a source that is not a run (a run's ``output`` does this with its
    /// summary): every open page gets the `end` event and shows that the source stopped instead
    /// of trying to reconnect, and `/api/state` says `finished`. Call before ``stop()``.
    /// - Parameters:
    ///   - time: when the source stopped, on the clock of ``begin(_:)``'s context.
    ///   - interrupted: whether Ctrl-C / SIGTERM stopped it.
    public func end(at time: Double, interrupted: Bool) {
        let context = hub.context
        let duration = context.elapsed(time)
        hub.finish(
            JSONObject([
                ("t_s", .number(duration, decimals: 3)), ("event", .string("end")),
                ("duration_s", .number(duration, decimals: 3)), ("interrupted", .bool(interrupted)), ("summary", .raw("[]")),
            ]))
    }

    /// Stops serving: closes the streams and every connection.
    public func stop() async {
        await server.stop()
    }

    private static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
