import ArgumentParser
import Foundation
import Hooks
import Logging
import NIProtocol
import NearbyConfig
import NearbyMQTT
import NearbyRuntime
import NearbyTerminal
import NearbyWeb
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
    @OptionGroup var webOptions: WebOptions
    @OptionGroup var mqttOptions: MQTTOptions

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
        let configuration = file.configuration.overridden(by: try flags())
        logOptions.bootstrap(output: configuration.output)
        let logger = Logger(label: "nearby.replay")
        let settings: RunSettings
        do {
            settings = try RunSettings(configuration: configuration)
        } catch {
            throw ValidationError("\(error)")
        }
        if file.configuration.hooks != nil, hookOptions.hasTriggers {
            logger.notice("the hooks of \(file.path ?? "the config file") are not used: hooks were given on the command line")
        }
        let output = ReplayText.output(json: configuration.output.json == true)
        let web = try await webOptions.start(source: "replay", configuration: configuration)
        if let web { Console.error(web.announcement) }
        let identity = TraceReplay.identity(path: trace, id: accessoryID, name: accessory)
        // Paced replays stamp events with the real time they are replayed at; `--speed 0` maps
        // the trace's seconds onto the wall clock one to one from the start.
        let context = RunContext(accessories: [identity], zones: settings.zones, start: 0, wallStart: WallClock.now(),
                                 timeScale: speed > 0 ? speed : 1)
        var outputs = [output] + (web.map { [$0.output] } ?? [])
        if let mqtt = try mqttOptions.publisher(
            configuration, configPath: configOptions.path, role: .replay, notes: { RangeScreen.standardError($0 + "\n") })
        {
            outputs.append(mqtt)
        }
        // A runner even without hooks, so the summary counts the same way.
        let run = RangingRun(
            context: context, outputs: outputs, hooks: HookRunner(hooks: settings.hooks, logger: Logger(label: "nearby.hooks")))
        let result = await cancellingOnSignal {
            try await TraceReplay.replay(path: trace, speed: speed, identity: identity, settings: settings, into: run)
        }
        let summary = await run.finish(interrupted: (try? result.get()) == nil)
        await web?.stop()
        switch result {
        case .failure(is CancellationError):
            Console.error("interrupted; hooks still running were ended")
            throw ExitCode(130)
        case .failure(let error):
            Console.error("error: \(error)")
            throw NearbyExit.failure
        case .success:
            if summary.hookFailures > 0 { throw NearbyExit.failure }
        }
    }
}
