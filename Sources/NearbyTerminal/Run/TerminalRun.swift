#if canImport(Glibc)
import Glibc
#endif
public import Hooks
public import NIProtocol
public import NearbyRuntime
public import Ranging
import NearbyInteraction
import NearbySupport
import Synchronization
import UWBDevice

/// One ranging run on the terminal, the sequence `nearby range`, `nearby accessory` and `nearby
/// demo` share: the ``RangeScreen`` and the other outputs, a `RangingRun`
/// consuming the source's events, until Ctrl-C / SIGTERM or the source is done; then the source
/// is closed, the hooks finished, the outputs told and the summary printed.
///
/// ```swift
/// let session = TerminalRun(source: live, json: false, zones: settings.zones, stop: { await web?.stop() })
/// try await session.record(to: "walk.csv")
/// let (interrupted, summary) = await session.run(accessories: ids, hooks: settings.hookRunner()) {
///     await live.allSessionsEnded
/// }
/// ```
///
/// If setting up fails (`add(_:)`, ``record(to:label:)``, ``abandon()``), the source is closed
/// and `stop` runs, so nothing is left open.
public final class TerminalRun {
    /// Where the events come from.
    public let source: any RunSource
    /// The screen (notes go here: in JSON mode to standard error).
    public let screen: RangeScreen
    /// Event seconds per real second: a simulation's speed (`RunContext.timeScale`).
    public let timeScale: Double
    private var outputs: [any RunOutput]
    private let stop: () async -> Void

    /// Prepares a run of `source` shown on `screen`.
    /// - Parameters:
    ///   - source: where the events come from (a live run, a demo, a replay).
    ///   - screen: the screen the run is shown on.
    ///   - timeScale: event seconds per real second (`nearby demo --speed`), so the wall-clock
    ///     times in JSON, MQTT and hook environments are real times.
    ///   - stop: runs once the run ended (after the summary is complete) or when setting up
    ///     fails, e.g. stopping a web view.
    public init(source: any RunSource, screen: RangeScreen, timeScale: Double = 1, stop: @escaping () async -> Void = {}) {
        self.source = source
        self.screen = screen
        self.timeScale = timeScale
        self.stop = stop
        outputs = [screen.output]
    }

    /// Prepares a run of `source` shown on a new ``RangeScreen`` on standard output, time zero now.
    /// - Parameters:
    ///   - source: where the events come from (a live run, a demo, a replay).
    ///   - json: JSON lines instead of text (``RangeScreen/mode(json:)``).
    ///   - zones: the run's zones.
    ///   - timeScale: event seconds per real second (see ``init(source:screen:timeScale:stop:)``).
    ///   - stop: runs once the run ended or when setting up fails (see
    ///     ``init(source:screen:timeScale:stop:)``).
    public convenience init(source: any RunSource, json: Bool, zones: ZoneMap, timeScale: Double = 1, stop: @escaping () async -> Void = {}) {
        self.init(source: source, screen: RangeScreen(mode: RangeScreen.mode(json: json), zones: zones, start: MonotonicTime.seconds()),
                  timeScale: timeScale, stop: stop)
    }

    /// Adds `output` after the screen and the outputs added before (nothing for `nil`).
    public func add(_ output: (any RunOutput)?) {
        if let output { outputs.append(output) }
    }

    /// Adds the output `make` returns (nothing for `nil`).
    /// - Throws: what `make` throws, after closing the source and running `stop`.
    public func add(_ make: () throws -> (any RunOutput)?) async throws {
        do {
            add(try make())
        } catch {
            await abandon()
            throw error
        }
    }

    /// Records every raw sample to the trace file at `path` (a `TraceRecorder`;
    /// write problems show on the screen as `warning: --record: ...`). Nothing for `nil`.
    /// - Parameters:
    ///   - path: the trace file; `nil` records nothing.
    ///   - label: how the messages name the file (the flag).
    /// - Throws: ``TerminalExit/failure`` when the file cannot be created, after saying
    ///   `error: --record: ...` on standard error, closing the source and running `stop`.
    public func record(to path: String?, label: String = "--record") async throws(TerminalExit) {
        guard let path else { return }
        let screen = screen
        do {
            add(try TraceRecorder(path: path, report: { screen.note("warning: \(label): \($0)") }))
        } catch {
            Console.error("error: \(label): \(error)")
            await abandon()
            throw .failure
        }
    }

    /// Gives up before running: closes the source and runs `stop`.
    public func abandon() async {
        await source.close()
        await stop()
    }

    /// Runs until SIGINT / SIGTERM or until `finished` says the source is done, then closes the
    /// source, lets the run finish (hooks: waited for, or ended if interrupted), runs `stop` and
    /// prints `summary:` and its lines on the screen. `finished` is asked once the sessions are
    /// started, when a session reaches its final state, and while events flow at most every
    /// 50 ms; a demo (whose scenario ends in time) also every second: nothing polls a live run
    /// while nothing arrives.
    /// - Parameters:
    ///   - accessories: whom the events name, known in advance (the others appear as they come).
    ///   - hooks: the zone-trigger hooks, `nil` for none.
    ///   - interruption: the word before `; summary:` when a signal ended the run.
    ///   - startSessions: starts the source's sessions once the run consumes its events
    ///     (notes go to the run's outputs).
    ///   - afterClose: runs once the source is closed, before the summary.
    ///   - finished: `true` once the source is done by itself.
    /// - Returns: whether a signal ended the run, and the run's summary.
    public func run(
        accessories: [AccessoryIdentity], hooks: HookRunner?, interruption: String = "stopped",
        startSessions: (RangingRun) async -> Void = { _ in }, afterClose: () async -> Void = {},
        until finished: @escaping @Sendable () async -> Bool
    ) async -> (interrupted: Bool, summary: RunSummary) {
        // The wall clock at the screen's time zero (the events' clock), so NEARBY_TIMESTAMP and the
        // JSON times are the events' own, not shifted by the time setting up took.
        let wallStart = WallClock.now() - (MonotonicTime.seconds() - screen.start) / timeScale
        let context = RunContext(accessories: accessories, zones: screen.zones, start: screen.start, wallStart: wallStart, timeScale: timeScale)
        let watch = RunEndWatch()
        let run = RangingRun(context: context, outputs: outputs + [watch], hooks: hooks)
        let source = source
        // Ctrl-C / SIGTERM are handled from here on: one that comes while the sessions are still
        // starting (connecting can take seconds) ends the run with its summary, not the process.
        let signals = SignalStream([SIGINT, SIGTERM])
        let consumer = Task { await run.consume(source.events, droppedUpdates: { source.droppedUpdates }) }
        await startSessions(run)
        let interrupted = await waitForSignalOr(
            finished, checks: watch.checks, every: source is any DemoSource ? .seconds(1) : nil, signals: signals)
        signals.cancel()
        await source.close()
        await afterClose()
        await consumer.value
        let summary = await run.finish(interrupted: interrupted)
        LatencyProbe.shared?.writeReport()
        await stop()
        screen.note((interrupted ? "\(interruption); " : "") + "summary:")
        for line in summary.lines { screen.note("  " + line) }
        return (interrupted, summary)
    }
}

/// Tells ``TerminalRun`` when to ask whether its source is done: when a session reaches its final
/// state, and while events flow at most every 50 ms (never while nothing arrives).
final class RunEndWatch: RunOutput, Sendable {
    /// One element per check to make (the newest only).
    let checks: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let last = Mutex(-Double.infinity)

    init() {
        (checks, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        let final: Bool
        if case .state(let state) = event.kind { final = state.isFinal } else { final = false }
        let now = MonotonicTime.seconds()
        let due = last.withLock { last in
            guard final || now - last >= 0.05 else { return false }
            last = now
            return true
        }
        if due { continuation.yield() }
    }

    func runFinished(_ summary: RunSummary) async { continuation.finish() }
}
