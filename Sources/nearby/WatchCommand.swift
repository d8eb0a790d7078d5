import ArgumentParser
import Foundation
import MQTT
import NearbyConfig
import NearbyMQTT
import NearbyTerminal

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
            retained, payload). Ctrl-C stops. User, password and TLS files come from [mqtt].

            Example: nearby watch mqtt://homeassistant.local --json
            """)

    @Argument(help: ArgumentHelp("The broker: mqtt://[user@]host[:port] or mqtts://... (default: [mqtt] url).", valueName: "url"))
    var url: String?

    @Flag(help: "Print one JSON object per message (NDJSON).")
    var json = false

    @Option(help: ArgumentHelp("The topic prefix (default: [mqtt] topic_prefix, else nearby).", valueName: "prefix"))
    var prefix: String?

    @OptionGroup var config: ConfigOptions

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
        var settings = try config.load().configuration.mqtt
        if let prefix { settings.topicPrefix = prefix }
        let setup: MQTTSetup?
        do {
            setup = try MQTTSetup(settings: settings, url: try url.map(Self.parse), role: .watch)
        } catch {
            throw ValidationError("mqtt: \(error)")
        }
        guard let setup else { throw ValidationError("name the broker (nearby watch mqtt://HOST) or set [mqtt] url in the configuration file") }
        let watch: HouseWatch
        do {
            watch = try HouseWatch(setup: setup)
        } catch {
            throw ValidationError("mqtt: \(error)")
        }
        let title = "nearby watch \(setup.client.broker) (\(setup.topics.everyHost)); Ctrl-C stops"
        let screen = HouseWatchScreen(
            mode: .current(json: json, title: title), write: RangeScreen.standardOutput, note: RangeScreen.standardError)
        let printer = Task { await screen.show(watch) }
        _ = await waitForSignalOr { false }
        await watch.stop()
        printer.cancel()
        _ = await printer.value
        if !json { RangeScreen.standardOutput(watch.house.table().joined(separator: "\n") + "\n") }
    }
}
