import ArgumentParser
import Foundation
import Logging
import MQTT
import NearbyConfig
import NearbyMQTT
import NearbyRuntime
import NearbyTerminal
import Positioning

/// `nearby house`: the house of several hosts (specs/house.md).
struct HouseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "house",
        abstract: "The whole house: survey where the hosts are (the fusion itself runs in nearby watch --house).",
        subcommands: [HouseSurveyCommand.self])
}

/// `nearby house survey`: host positions from host-to-host ranges, given two of them.
struct HouseSurveyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "survey",
        abstract: "Find the hosts' positions (and kit headings) by ranging host to host, instead of measuring them with a tape.",
        discussion: """
            One host at a time plays the accessory (nearby accessory --name HOST) while the others range it \\
            (nearby range --mqtt URL, each publishing as itself); given the positions of two hosts (--fix, \\
            default: the first two [[house.host]] of the file) the others follow from the ranges, the mirror \\
            image is told apart by the kits' azimuths, and each kit's heading comes from what it measured. \\
            Prints [[house.host]] lines for the house file.

            --simulate does the whole rotation on the built-in simulator with the file's hosts as the truth \\
            (and says how far the survey landed from it). --mqtt URL collects, for --seconds, the states every \\
            host publishes about an accessory named after another host.

            Examples: nearby house survey --house house.toml --simulate
                      nearby house survey --house house.toml --mqtt mqtt://homeassistant.local --seconds 300
            """)

    @Option(help: ArgumentHelp("The house file ([[house.host]] names, and the positions of the hosts --fix names).", valueName: "file.toml"))
    var house: String

    @Flag(help: "Range on the built-in simulator, the file's positions being the truth.")
    var simulate = false

    @Option(name: .customLong("mqtt"), help: ArgumentHelp("Collect the hosts' ranges from this broker instead.", valueName: "url"))
    var url: String?

    @Option(name: .customLong("fix"), help: ArgumentHelp("A host whose position in the file is known (twice; default: the first two hosts).", valueName: "name"))
    var fixed: [String] = []

    @Option(help: ArgumentHelp("Seconds each host is ranged (--simulate, scene seconds) or the whole collection lasts (--mqtt).", valueName: "s"))
    var seconds: Double?

    @Option(help: "The seed of the simulated radio noise.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Simulated seconds per real second (--simulate).", valueName: "x"))
    var speed: Double = 4

    @OptionGroup var config: ConfigOptions

    @OptionGroup var logging: LogOptions

    func validate() throws {
        guard simulate != (url != nil) else { throw ValidationError("give --simulate or --mqtt URL (one of them)") }
        guard fixed.isEmpty || fixed.count == 2 else { throw ValidationError("--fix names two hosts, not \(fixed.count)") }
        if let seconds, !(seconds > 0) { throw ValidationError("--seconds must be > 0") }
        guard (0.01...1000).contains(speed) else { throw ValidationError("--speed must be 0.01-1000, not \(speed)") }
    }

    func run() async throws {
        logging.bootstrap(output: try config.load().configuration.output)
        let settings = try DemoCommand.loadHouse(house)
        let plan: HousePlan
        do {
            plan = try settings.plan()
        } catch {
            throw ValidationError("--house \(house): \(error)")
        }
        guard plan.hosts.count >= 3 else { throw ValidationError("--house \(house): a survey needs at least 3 hosts (two fixed, one to find)") }
        let names = fixed.isEmpty ? plan.hosts.prefix(2).map(\.name) : fixed
        var anchors: [String: PlanePoint] = [:]
        for name in names {
            guard let host = plan.host(named: name) else { throw ValidationError("--fix \(name): no such [[house.host]] in \(house)") }
            anchors[name] = host.position
        }
        let ranges: [HostSurvey.Range]
        if simulate {
            let configuration = try config.load().configuration
            let runSettings: RunSettings
            do {
                runSettings = try RunSettings(configuration: configuration, timeScale: speed)
            } catch {
                throw ValidationError("\(error)")
            }
            do {
                ranges = try await SimulatedSurvey.ranges(
                    plan: plan, seconds: seconds ?? 8, seed: seed, speed: speed, settings: runSettings, progress: { Console.error($0) })
            } catch {
                Console.error("error: \(error)")
                throw ExitCode(1)
            }
        } else {
            ranges = try await collect(plan: plan)
        }
        var survey = HostSurvey(hosts: plan.hosts.map(\.name), fixed: anchors)
        survey.heights = Dictionary(uniqueKeysWithValues: plan.hosts.map { ($0.name, $0.height) })
        let result: HostSurvey.Result
        do {
            result = try survey.solve(ranges)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        for range in ranges {
            Console.error(
                "survey: \(range.observer) → \(range.target): \(String(format: "%.3f", range.distance)) m over \(range.samples) samples"
                    + (range.azimuth.map { String(format: ", azimuth %.1f°", $0) } ?? ""))
        }
        Console.error(String(format: "survey: range residuals %.3f m RMS", result.rms))
        if result.mirrorAmbiguous {
            Console.error("warning: nothing told the mirror image apart (no azimuths): check that the hosts are on the right side of the line through \(names.joined(separator: " and "))")
        }
        let hosts = plan.hosts.map { host -> HouseHost in
            var found = host
            if let position = result.positions[host.name] { found.position = position }
            if let heading = result.headings[host.name] { found.heading = heading }
            return found
        }
        if simulate {
            let worst = plan.hosts.map { host in (host.name, (result.positions[host.name] ?? host.position).distance(to: host.position)) }.max { $0.1 < $1.1 }
            if let worst { Console.error(String(format: "survey: largest distance from the file's positions %.3f m (%@)", worst.1, worst.0)) }
        }
        Console.out(HouseSettings.hostLines(hosts))
    }

    /// The ranges every host publishes about accessories named after other hosts, for
    /// `--seconds` (default 120).
    private func collect(plan: HousePlan) async throws -> [HostSurvey.Range] {
        let configuration = try config.load().configuration
        let setup: MQTTSetup?
        do {
            setup = try MQTTSetup(settings: configuration.mqtt, url: try url.map { try MQTTBrokerURL(parsing: $0) }, role: .watch)
        } catch {
            throw MQTTOptions.commandError(error)
        }
        guard let setup else { throw ValidationError("--mqtt URL is needed") }
        let levels = Dictionary(uniqueKeysWithValues: plan.hosts.map { (MQTTTopic.level($0.name), $0.name) })
        let samples = SharedSurveyCollector()
        let watch = try HouseWatch(setup: setup, observer: { update, house in
            guard update.kind == .state, !update.retained, let level = update.accessory, let observer = levels[update.host],
                let accessory = house.accessory(host: update.host, level: level), accessory.tracking == "tracking",
                let target = levels[MQTTTopic.level(accessory.name)] ?? levels[level], target != observer,
                let distance = accessory.rawDistance ?? accessory.distance
            else { return }
            samples.add(observer: observer, target: target, distance: distance, azimuth: accessory.azimuth, figureOfMerit: accessory.figureOfMerit)
        })
        Console.error("survey: collecting for \(Int(seconds ?? 120)) s from \(setup.client.broker); play each host as the accessory in turn (nearby accessory --name HOST) while the others range it")
        let printer = Task { for await _ in watch.updates() {} }
        let deadline = ContinuousClock.now + .milliseconds(Int((seconds ?? 120) * 1000))
        _ = await waitForSignalOr { ContinuousClock.now >= deadline }
        await watch.stop()
        printer.cancel()
        return samples.ranges
    }
}
