import ArgumentParser
import Foundation
import Logging
import MQTT
import NearbyConfig
import NearbyInteraction
import NearbyMQTT
import NearbyRuntime
import NearbyTerminal
import Positioning
import UWBDevice

extension DemoCommand {
    /// `nearby demo --house FILE`: every host of the house in one scene, each publishing as
    /// itself (`--mqtt`), the accessories walking through the rooms and leaving at the end.
    func runHouse(_ path: String) async throws {
        let configuration = try options.settings(hookCommand: HookCommandLine.command)
        let house = configuration.house.overridden(by: try Self.loadHouse(path))
        let plan: HousePlan
        do {
            plan = try house.plan()
        } catch {
            throw ValidationError("--house \(path): \(error)")
        }
        guard !plan.rooms.isEmpty else { throw ValidationError("--house \(path): the simulated house needs at least one [[house.room]] to walk through") }
        var settings = try options.runSettings(configuration, timeScale: speed)
        let start = MonotonicTime.seconds()
        let wallStart = WallClock.now()
        // One epoch for every session of every host: their times agree at any --speed.
        settings.session.timeEpoch = start
        let logger = Logger(label: "nearby")
        let demo: HouseDemo
        do {
            demo = try await HouseDemo.start(
                plan: plan, accessories: accessories, seed: seed, speed: speed, walkDuration: walk, settings: settings,
                options: try demoOptions(capture: nil), tagHeight: house.fusionParameters.tagHeight, logger: logger)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        let url = try options.mqtt.brokerURL()
        var runs: [(host: HouseDemo.Host, run: RangingRun)] = []
        for host in demo.hosts {
            var outputs: [any RunOutput] = []
            if let url {
                let notes: @Sendable (String) -> Void = { Console.error("\(host.name): \($0)") }
                do {
                    guard var setup = try MQTTSetup.forCommand(configuration.mqtt, url: url, hostName: host.name, role: .demo, configPath: options.config.path, notes: { Console.error($0) }) else { continue }
                    setup.publisher.suggestedArea = plan.room(containing: host.host.position, floor: host.host.floor)?.name
                    outputs.append(try setup.makePublisher(softwareVersion: BuildInfo.version, notes: notes))
                } catch {
                    await demo.close()
                    throw MQTTOptions.commandError(error)
                }
            }
            let context = RunContext(accessories: demo.accessories, zones: settings.zones, start: start, wallStart: wallStart, timeScale: speed)
            runs.append((host, RangingRun(context: context, outputs: outputs)))
        }
        let length = duration ?? demo.duration(afterwards: house.fusionParameters.awayAfter + 5)
        Console.error(
            "demo: house of \(plan.hosts.count) host\(plan.hosts.count == 1 ? "" : "s") (\(plan.hosts.map(\.name).joined(separator: ", "))) and "
                + "\(plan.rooms.count) room\(plan.rooms.count == 1 ? "" : "s"), \(accessories) accessor\(accessories == 1 ? "y" : "ies") walking "
                + String(format: "%.0f s, then leaving; %.0f s", walk, length) + (speed == 1 ? "" : String(format: " at ×%g (%.1f s)", speed, length / speed))
                + (url.map { "; publishing to \($0)" } ?? "") + "; Ctrl-C stops")
        let consumers = runs.map { entry in
            Task { await entry.run.consume(entry.host.manager.events, droppedUpdates: { entry.host.manager.droppedUpdates }) }
        }
        await demo.startSessions { Console.error($0) }
        let truthTask = truth.map { file in
            Task {
                do {
                    try await demo.writeTruth(to: file, until: length)
                } catch {
                    Console.error("warning: --truth: \(error)")
                }
            }
        }
        let interrupted = await waitForSignalOr { await demo.isOver(after: length) }
        if interrupted { truthTask?.cancel() }
        await truthTask?.value
        await demo.close()
        for consumer in consumers { await consumer.value }
        Console.out((interrupted ? "interrupted; " : "") + "summary:")
        for (host, run) in runs {
            let summary = await run.finish(interrupted: interrupted)
            for line in summary.lines { Console.out("  \(host.name): \(line)") }
        }
    }

    /// The house of `path` (a house file or a configuration file holding `[house]`).
    static func loadHouse(_ path: String) throws -> HouseSettings {
        do {
            return try ConfigurationFile.loadHouse(path: path)
        } catch {
            throw ValidationError("--house: \(error)")
        }
    }
}
