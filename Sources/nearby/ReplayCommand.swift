import ArgumentParser
import Foundation
import Hooks
import Logging
import NearbyConfig
import NearbySupport
import Ranging

/// `nearby replay FILE.csv`: runs the ranging engine and the hooks on a recorded trace, so
/// hooks and settings can be tried without hardware. Streams the file (constant memory).
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recorded trace through the ranging engine and the hooks (try hooks without hardware).",
        discussion: """
            Reads a trace (CSV, specs/trace-format.md; e.g. one written by nearby range --record), \
            smooths it, tracks zones and prints every update and event; hooks run on the events exactly \
            as in nearby range.

            Pacing: --speed 1 (default) replays in real time, --speed 10 ten times faster. --speed 0 \
            runs as fast as possible and runs every hook for every event, in order: the replay waits \
            for the hooks an event starts before it goes on, so the result does not depend on machine \
            speed (at other speeds hooks behave as live: a hook still running when the next event \
            comes is coalesced).

            Settings come from the flags, else the configuration file, else the defaults. The replay \
            waits for running hooks at the end, and exits 1 if a hook failed (non-zero exit, timeout, \
            or could not start).

            Example: nearby replay data/synthetic/walk_4m_1m.csv --speed 0 \
            --on-enter near -- /bin/sh -c 'echo "$NEARBY_ZONE at $NEARBY_DISTANCE_M m"'
            """)

    @Argument(help: ArgumentHelp("The trace to replay (CSV, see specs/trace-format.md).", valueName: "trace.csv"))
    var trace: String

    @Option(help: ArgumentHelp("Replay speed: 1 = real time, 10 = ten times faster, 0 = as fast as possible (hooks in order).", valueName: "x"))
    var speed: Double = 1

    @Option(help: ArgumentHelp("The accessory name hooks see (NEARBY_ACCESSORY).", valueName: "name"))
    var accessory = "replay"

    @Option(name: .customLong("accessory-id"), help: ArgumentHelp("The accessory id hooks see (NEARBY_ACCESSORY_ID; default: the trace's file name).", valueName: "id"))
    var accessoryID: String?

    @Flag(inversion: .prefixedNo, help: "Print JSON lines (type update, event, hook, summary) instead of text (default: the config file's output.json).")
    var json: Bool?

    @OptionGroup var rangingOptions: RangingOptions
    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var hookOptions: HookOptions
    @OptionGroup var logOptions: LogOptions

    func validate() throws {
        guard speed.isFinite, speed >= 0 else {
            throw ValidationError("--speed must be ≥ 0 (0 = as fast as possible), not \(speed)")
        }
        _ = try flags()
    }

    /// The settings given as flags (unset ones stay `nil`, so the file and defaults apply).
    func flags() throws -> NearbyConfiguration {
        var flags = try rangingOptions.overlay()
        flags.hooks = try hookOptions.definitions()
        flags.output.json = json
        flags.output.logLevel = logOptions.logLevel
        return flags
    }

    func run() async throws {
        let file = try configOptions.load()
        let settings = file.configuration.overridden(by: try flags())
        logOptions.bootstrap(output: settings.output)
        let logger = Logger(label: "nearby.replay")
        let pipeline: RangingPipeline<ConfiguredFilter>
        do {
            pipeline = try settings.makePipeline()
            try settings.validateHooks()
        } catch {
            throw ValidationError("\(error)")
        }
        if file.configuration.hooks != nil, hookOptions.hasTriggers {
            logger.notice("the hooks of \(file.path ?? "the config file") are not used: hooks were given on the command line")
        }
        let output = ReplayOutput(json: settings.output.json ?? false, zones: pipeline.zones)
        let runner = HookRunner(hooks: settings.effectiveHooks, logger: Logger(label: "nearby.hooks"))
        let printer = Task {
            var failures = 0
            for await outcome in runner.outcomes() {
                if !outcome.succeeded { failures += 1 }
                output.hook(outcome)
            }
            return failures
        }
        let signals = SignalStream([SIGINT, SIGTERM])
        let replay = Task {
            try await Self.replay(
                trace: trace, speed: speed, pipeline: pipeline,
                builder: HookEventBuilder(accessoryName: accessory, accessoryID: accessoryID ?? Self.fileName(trace), zones: pipeline.zones),
                runner: runner, output: output)
        }
        let interrupt = Task {
            for await _ in signals.stream {
                replay.cancel()
                return
            }
        }
        let result = await replay.result
        interrupt.cancel()
        signals.cancel()
        var interrupted = false
        if case .failure(is CancellationError) = result { interrupted = true }
        if interrupted {
            // Hooks run in their own sessions (the terminal's Ctrl-C does not reach them): end them.
            await runner.cancel()
        } else {
            await runner.finish()
        }
        let failures = await printer.value
        let statistics = await runner.statistics()
        switch result {
        case .failure(let error as TraceError):
            UWBConsole.error("error: \(error)")
            throw NearbyExit.failure
        case .failure(let error as FileSystemError):
            UWBConsole.error("error: \(error)")
            throw NearbyExit.failure
        case .failure(is CancellationError):
            UWBConsole.error("interrupted; hooks still running were ended")
            throw ExitCode(130)
        case .failure(let error):
            UWBConsole.error("error: \(error)")
            throw NearbyExit.failure
        case .success(let summary):
            output.summary(summary, hookRuns: statistics.runs, hookFailures: failures, dropped: statistics.dropped)
        }
        if failures > 0 { throw NearbyExit.failure }
    }

    /// What a replay saw.
    struct Summary: Sendable {
        var samples = 0
        var events = 0
        var duration = 0.0
    }

    private static func replay(
        trace: String, speed: Double, pipeline: RangingPipeline<ConfiguredFilter>, builder: HookEventBuilder,
        runner: HookRunner, output: ReplayOutput
    ) async throws -> Summary {
        var pipeline = pipeline
        var builder = builder
        var reader = try LineReader(path: trace)
        var parser = TraceParser(source: trace)
        let clock = ContinuousClock()
        let start = clock.now
        var first: Double?
        var summary = Summary()
        var events: [RangingEvent] = []
        while let line = try reader.next() {
            guard let record = try parser.parse(line: line.text, number: line.number) else { continue }
            let time = record.sample.timestamp
            let origin = first ?? time
            first = origin
            if speed > 0 {
                try await clock.sleep(until: start + .seconds((time - origin) / speed))
            } else {
                try Task.checkCancellation()
            }
            events.removeAll(keepingCapacity: true)
            let update = pipeline.process(record.sample) { events.append($0) }
            summary.samples += 1
            summary.duration = time - origin
            output.update(update, origin: origin)
            let hookEvents = builder.events(for: events, distance: update.distance)
            var submitted = false
            for (event, hookEvent) in zip(events, hookEvents) {
                summary.events += 1
                output.event(hookEvent, at: event.timestamp - origin)
                if runner.submit(hookEvent) { submitted = true }
            }
            if speed == 0 && submitted { await runner.waitUntilIdle() }
        }
        try parser.finish()
        return summary
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
