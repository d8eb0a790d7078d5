import ArgumentParser
import Foundation
import Logging
import NearbyConfig
import NearbyMQTT
import NearbyInteraction
import NearbyRuntime
import NearbyTerminal
import NearbyWeb
import Ranging
import Simulation
import UWBDevice

/// `nearby demo`: the whole flow on the built-in simulator: virtual accessories in a simulated
/// scene, the NI exchange over in-memory data channels, UCI to virtual dev kits, the ranging
/// pipeline, the same screen as `nearby range`. Ends with the scenario.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Range with simulated UWB accessories (no hardware): the whole NI flow on the built-in simulator.",
        discussion: """
            Builds a simulated world (scenario \(Scenario.names.joined(separator: ", "))) with N virtual NI \
            accessories, each on its own virtual dev kit and behind an in-memory BLE data channel, and a host \
            dev kit. Each accessory goes through the real session: initialize, configuration data, session \
            planning, configureAndStart, accessoryUwbDidStart, ranging, smoothing, zones. Stops when the \
            scenario ends (or after --duration, or on Ctrl-C) and prints a summary.
            """
    )

    @Option(help: ArgumentHelp("The motion scenario: \(Scenario.names.joined(separator: ", ")).", valueName: "name"))
    var scenario = "demo"

    @Option(help: "How many accessories (1-8).")
    var accessories = 1

    @Option(help: ArgumentHelp("Simulated seconds per real second (0.01-1000).", valueName: "x"))
    var speed: Double = 1

    @Option(help: ArgumentHelp("Stop after this many seconds of scenario time (default: when the scenario ends).", valueName: "s"))
    var duration: Double?

    @Option(help: "The seed of the radio noise and random walks.")
    var seed: UInt64 = 1

    @OptionGroup var options: SessionOptions


    func validate() throws {
        do {
            _ = try Scenario.named(scenario)
        } catch {
            throw ValidationError("--scenario: \(error)")
        }
        guard (1...8).contains(accessories) else { throw ValidationError("--accessories must be 1-8, not \(accessories)") }
        guard (0.01...1000).contains(speed) else { throw ValidationError("--speed must be 0.01-1000, not \(speed)") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be > 0 seconds, not \(duration)") }
    }

    func run() async throws {
        let scenario = try Scenario.named(scenario)
        let configuration = try options.settings(hookCommand: HookCommandLine.command)
        let settings = try options.runSettings(configuration, timeScale: speed)
        let logger = Logger(label: "nearby")
        let web = try await options.web.start(source: "demo", configuration: configuration)
        let demo: DemoRanging
        do {
            demo = try await DemoRanging.start(
                scenario: scenario, accessories: accessories, seed: seed, speed: speed, settings: settings, logger: logger)
        } catch {
            UWBConsole.error("error: \(error)")
            throw ExitCode(1)
        }
        let start = MonotonicTime.seconds()
        let screen = RangeScreen(mode: RangeScreen.mode(json: configuration.output.json ?? false), zones: settings.zones, start: start)
        let length = duration ?? demo.duration
        screen.note(
            "demo: scenario \(scenario.name) (\(scenario.summary)), \(accessories) accessor\(accessories == 1 ? "y" : "ies"), "
                + String(format: "%.0f s", length) + (speed == 1 ? "" : String(format: " at ×%g (%.1f s)", speed, length / speed))
                + "; Ctrl-C stops")
        if let web { screen.note(WebOptions.announcement(web)) }
        let context = RunContext(accessories: demo.accessories, zones: settings.zones, start: start, wallStart: WallClock.now())
        var outputs: [any RunOutput] = [screen.output] + (web.map { [$0.output] } ?? [])
        do {
            if let mqtt = try options.mqtt.publisher(configuration, configPath: options.config.path, role: .demo, notes: { screen.note($0) }) {
                outputs.append(mqtt)
            }
        } catch {
            await demo.close()
            throw error
        }
        let run = RangingRun(context: context, outputs: outputs, hooks: settings.hookRunner())
        let manager = demo.manager
        let consumer = Task { await run.consume(manager.events, droppedUpdates: { manager.droppedUpdates }) }
        await demo.startSessions { run.note($0) }

        // Ends with the scenario (its clock starts at the first ranging round), when every
        // session failed, or on a signal.
        let interrupted = await waitForSignalOr { await demo.isOver(after: length) }
        await demo.close()
        await consumer.value
        let summary = await run.finish(interrupted: interrupted)
        await web?.stop()
        screen.note((interrupted ? "interrupted; " : "") + "summary:")
        for line in summary.lines { screen.note("  " + line) }
    }
}
