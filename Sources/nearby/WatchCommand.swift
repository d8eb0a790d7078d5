import ArgumentParser
import Foundation
import MQTT
import NearbyConfig
import NearbyMQTT
import NearbyRuntime
import NearbyTerminal
import NearbyWeb
import Ranging

/// `nearby watch [URL]`: the house view: every host's accessories, live, from the broker.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show every host's accessories live from an MQTT broker (the house view), or NDJSON with --json.",
        discussion: """
            Subscribes to <prefix>/# (default nearby/#) on the broker and shows each host publishing there \
            (nearby range/demo/replay --mqtt) with its accessories: zone, distance, direction, tracking, \
            session, last event. On a terminal the table is redrawn in place; piped, one line per event and \
            the table at the end. --json prints one object per message (host, accessory, kind, topic, \
            retained, payload). --web serves the live web view of the house: one dot per host and \
            accessory (hall/sim-1), the zones of [zones], the events in its log. Ctrl-C stops. User, \
            password and TLS files come from [mqtt].

            With --house FILE (or [[house.host]] in the configuration) it also fuses the hosts into a \
            position and a room per accessory and publishes them (nearby/house/<accessory>/position, a \
            device tracker per accessory, Home Assistant's MQTT Room feed; specs/house.md); --json then \
            prints the positions too ("event":"position").

            Examples: nearby watch mqtt://homeassistant.local --json
                      nearby watch mqtt://homeassistant.local --web 8080
                      nearby watch mqtt://homeassistant.local --house house.toml
            """)

    @Argument(help: ArgumentHelp("The broker: mqtt://[user@]host[:port] or mqtts://... (default: [mqtt] url).", valueName: "url"))
    var url: String?

    @Flag(help: "Print one JSON object per message (NDJSON).")
    var json = false

    @Option(help: ArgumentHelp("The topic prefix (default: [mqtt] topic_prefix, else nearby).", valueName: "prefix"))
    var prefix: String?

    @Option(help: ArgumentHelp("Fuse the hosts of this house (a file with [[house.host]] and [[house.room]], or a configuration file holding them) into positions and rooms, and publish them.", valueName: "file.toml"))
    var house: String?

    @OptionGroup var config: ConfigOptions

    @OptionGroup var web: WebOptions

    func validate() throws {
        if let url { _ = try Self.parse(url) }
        if let prefix, prefix.isEmpty || prefix.contains(where: { $0 == "/" || $0 == "+" || $0 == "#" }) {
            throw ValidationError("--prefix '\(prefix)' must be one topic level (no '/', '+' or '#')")
        }
    }

    static func parse(_ url: String) throws -> MQTTBrokerURL {
        do {
            return try MQTTBrokerURL(parsing: url)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() async throws {
        let configuration = try config.load().configuration
        var settings = configuration.mqtt
        if let prefix { settings.topicPrefix = prefix }
        let setup: MQTTSetup?
        do {
            setup = try MQTTSetup(settings: settings, url: try url.map(Self.parse), role: .watch)
        } catch {
            throw ValidationError("mqtt: \(error)")
        }
        guard let setup else { throw ValidationError("name the broker (nearby watch mqtt://HOST) or set [mqtt] url in the configuration file") }
        var zones = ZoneMap.standard
        if web.listen != nil {
            do {
                zones = try configuration.zoneMap()
            } catch {
                throw ValidationError("configuration file, [zones]: \(error)")
            }
        }
        let view = try await web.start(source: "watch", configuration: configuration)
        let feed = view.map { view in
            HouseFeed(zones: zones, status: { view.publish(status: $0) }, log: { view.publish(log: $0, at: $1) })
        }
        if let view, let feed { view.begin(feed.context) }
        var observer: (@Sendable (HouseUpdate, HouseView) -> Void)?
        if let feed { observer = { update, house in feed.observe(update, in: house) } }
        var houseSettings = configuration.house
        if let house { houseSettings = houseSettings.overridden(by: try DemoCommand.loadHouse(house)) }
        var fusion: HouseFusionOptions?
        if !houseSettings.isEmpty {
            do {
                var options = HouseFusionOptions(plan: try houseSettings.plan())
                options.parameters = houseSettings.fusionParameters
                options.roomTopic = houseSettings.effectiveRoomTopic
                options.espresense = houseSettings.espresense ?? false
                options.discovery = setup.publisher.discovery
                options.discoveryPrefix = setup.publisher.discoveryPrefix
                options.heartbeat = setup.publisher.heartbeat > 0 ? setup.publisher.heartbeat : 60
                options.softwareVersion = BuildInfo.version
                fusion = options
            } catch {
                throw ValidationError("house: \(error)")
            }
        }
        let watch: HouseWatch
        do {
            watch = try HouseWatch(setup: setup, observer: observer, house: fusion)
        } catch {
            await view?.stop()
            throw ValidationError("mqtt: \(error)")
        }
        let address = view.map { "; " + $0.announcement } ?? ""
        let title = "nearby watch \(setup.client.broker) (\(setup.topics.everyHost))\(address); Ctrl-C stops"
        let mode = HouseWatchScreen.Mode.current(json: json, title: title)
        if let view, mode != .live(title: title) { (json ? RangeScreen.standardError : RangeScreen.standardOutput)(view.announcement + "\n") }
        let screen = HouseWatchScreen(
            mode: mode, write: RangeScreen.standardOutput, note: RangeScreen.standardError)
        let printer = Task { await screen.show(watch) }
        _ = await waitForSignalOr { false }
        await watch.stop()
        printer.cancel()
        _ = await printer.value
        view?.end(at: WallClock.now(), interrupted: true)
        await view?.stop()
        if !json { RangeScreen.standardOutput(watch.house.table().joined(separator: "\n") + "\n") }
    }
}
