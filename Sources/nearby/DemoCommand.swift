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

    @Option(help: "How many accessories (1-8); with --role accessory, how many phones (or --phones).")
    var accessories = 1

    @Option(help: ArgumentHelp("With --role accessory: how many phones (1-8) share the accessory's one radio; at the end, each phone's share of failed rounds.", valueName: "n"))
    var phones: Int?

    @Flag(help: "With --role accessory: the accessory asks for ranging round hopping (UWB config data 2.0), so the phones' colliding rounds spread over all of them.")
    var hopping = false

    @Option(help: ArgumentHelp("Which side this host plays: phone (ranges with virtual accessories) or accessory (virtual phones range with it).", valueName: "role"))
    var role = "phone"

    @Option(help: ArgumentHelp("Simulated seconds per real second (0.01-1000).", valueName: "x"))
    var speed: Double = 1

    @Option(help: ArgumentHelp("Stop after this many seconds of scenario time (default: when the scenario ends).", valueName: "s"))
    var duration: Double?

    @Option(help: "The seed of the radio noise and random walks.")
    var seed: UInt64 = 1

    @Option(name: .customLong("interval-ms"), help: ArgumentHelp("The ranging interval the accessories ask for, ms (10 = 100 Hz; default: the planner's, about 5 Hz).", valueName: "ms"))
    var intervalMS: UInt16?

    @Option(name: .customLong("serve-kit"), help: ArgumentHelp("Serve the host's virtual kit over TCP at HOST:PORT (raw UCI, as nearby sim uwbs), for --kit or the USB emulator.", valueName: "host:port"))
    var serveKit: String?

    @Option(name: .customLong("kit"), help: ArgumentHelp("The host's kit: tcp:HOST:PORT (the --serve-kit address) or usb:VID:PID under the USB emulator (default: in process).", valueName: "spec"))
    var kit: String?

    @Option(help: ArgumentHelp("Write every raw range sample to this trace file (CSV).", valueName: "file.csv"))
    var record: String?

    @Flag(name: .customLong("kit-stats"), help: "At the end, print what the host's kit sent (packets, SESSION_INFO_NTF, measurements) as a JSON line on standard error.")
    var kitStats = false

    @Option(help: ArgumentHelp("Simulate a whole house: every [[house.host]] of this file (a house file, or a configuration file holding [house]) with its own kit and host name, the accessories walking through the [[house.room]]s (specs/house.md).", valueName: "file.toml"))
    var house: String?

    @Option(help: ArgumentHelp("With --house: write the accessories' true positions and rooms to this CSV file (t_s,time,accessory,x_m,y_m,room).", valueName: "file.csv"))
    var truth: String?

    @Option(help: ArgumentHelp("With --house: seconds each accessory walks through the rooms before it leaves the house.", valueName: "s"))
    var walk: Double = 90

    @OptionGroup var options: SessionOptions

    @OptionGroup var uciLog: UCILogOptions


    func validate() throws {
        do {
            _ = try Scenario.named(scenario)
        } catch {
            throw ValidationError("--scenario: \(error)")
        }
        guard (1...8).contains(accessories) else { throw ValidationError("--accessories must be 1-8, not \(accessories)") }
        guard (0.01...1000).contains(speed) else { throw ValidationError("--speed must be 0.01-1000, not \(speed)") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be > 0 seconds, not \(duration)") }
        guard role == "phone" || role == "accessory" else { throw ValidationError("--role must be phone or accessory, not \(role)") }
        if let phones, !(1...8).contains(phones) { throw ValidationError("--phones must be 1-8, not \(phones)") }
        if role != "accessory", phones != nil || hopping { throw ValidationError("--phones and --hopping are for --role accessory") }
        if role == "accessory", serveKit != nil || kit != nil || kitStats {
            throw ValidationError("--serve-kit, --kit and --kit-stats are for the phone role's host kit (--role phone)")
        }
        if let intervalMS, !(2...5000).contains(intervalMS) { throw ValidationError("--interval-ms must be 2-5000, not \(intervalMS)") }
        _ = try demoOptions(capture: nil)
        if truth != nil, house == nil { throw ValidationError("--truth needs --house FILE") }
        if house != nil {
            if role != "phone" || serveKit != nil || kit != nil || kitStats || record != nil || uciLog.path != nil {
                throw ValidationError("--house runs every host in the phone role on the built-in simulator; leave out --role, --serve-kit, --kit, --kit-stats, --record and --uci-log")
            }
            guard walk >= 10 && walk <= 3600 else { throw ValidationError("--walk must be 10-3600 seconds, not \(walk)") }
        }
    }

    /// `--interval-ms`, `--serve-kit`, `--kit` as the runtime's options.
    func demoOptions(capture: UCICaptureLog?) throws -> DemoOptions {
        do {
            return try DemoOptions(rangingIntervalMS: intervalMS, serveKit: serveKit, kit: kit, uciCapture: capture)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// How many accessories, or phones with `--role accessory`.
    private var count: Int { role == "accessory" ? phones ?? accessories : accessories }

    func run() async throws {
        if let house {
            try await runHouse(house)
            return
        }
        let scenario = try Scenario.named(scenario)
        let configuration = try options.settings(hookCommand: HookCommandLine.command)
        let settings = try options.runSettings(configuration, timeScale: speed)
        let logger = Logger(label: "nearby")
        let capture = try uciLog.open(interface: kit ?? "sim host")
        defer { CaptureReport.finish("--uci-log", capture?.file) }
        let web = try await options.web.start(source: "demo", configuration: configuration)
        let demo: any DemoSource
        var phoneRole: DemoRanging?
        var accessoryRole: AccessoryRoleDemo?
        do {
            if role == "accessory" {
                let started = try await AccessoryRoleDemo.start(
                    scenario: scenario, phones: count, seed: seed, speed: speed, settings: settings, hopping: hopping, logger: logger)
                accessoryRole = started
                demo = started
            } else {
                let ranging = try await DemoRanging.start(
                    scenario: scenario, accessories: accessories, seed: seed, speed: speed, settings: settings,
                    options: try demoOptions(capture: capture), logger: logger)
                phoneRole = ranging
                demo = ranging
            }
        } catch {
            Console.error("error: \(error)")
            await web?.stop()
            throw ExitCode(1)
        }
        let session = TerminalRun(source: demo, json: configuration.output.json ?? false, zones: settings.zones, timeScale: speed, stop: { await web?.stop() })
        let screen = session.screen
        let length = duration ?? demo.duration
        screen.note(scenario.demoAnnouncement(hostIsAccessory: role == "accessory", count: count, length: length, speed: speed))
        if let web { screen.note(web.announcement) }
        session.add(web?.output)
        try await session.add { try options.mqtt.publisher(configuration, configPath: options.config.path, role: .demo, webURL: web?.url, notes: { screen.note($0) }) }
        try await session.record(to: record)
        // With --serve-kit: SIGUSR1 makes the kit fail, SIGUSR2 drops its connection (faults under load).
        // Ends with the scenario (its clock starts at the first ranging round), when every
        // session failed, or on a signal.
        _ = await withKitFaultSignals(serveKit != nil ? phoneRole : nil) {
            await session.run(
                accessories: demo.accessories, hooks: settings.hookRunner(), interruption: "interrupted",
                startSessions: { run in await demo.startSessions { run.note($0) } },
                afterClose: {
                    if kitStats, let phoneRole { Console.error(await phoneRole.kitStatistics()) }
                    if let accessoryRole {
                        // What sharing one radio cost each phone (specs/accessory-role.md §6).
                        for share in await accessoryRole.roundShares() { Console.error("radio: \(share)") }
                    }
                },
                until: { await demo.isOver(after: length) })
        }
    }
}
