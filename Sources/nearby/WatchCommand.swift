import ArgumentParser
import Foundation
import MQTT
import NearbyConfig
import NearbyMQTT

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
        let environment = ProcessInfo.processInfo.environment
        let live = !json && isatty(STDOUT_FILENO) == 1 && environment["TERM"] != "dumb"
        let printer = Task { [json] in
            var lastDraw = ContinuousClock.now - .seconds(1)
            var recent: [String] = []
            for await output in watch.updates() {
                switch output {
                case .note(let text):
                    RangeScreen.standardError(text + "\n")
                case .update(let update):
                    if json {
                        RangeScreen.standardOutput(update.jsonLine + "\n")
                    } else if live {
                        if update.kind == .event || update.kind == .status { recent = Array((recent + [update.text]).suffix(8)) }
                        guard ContinuousClock.now - lastDraw >= .milliseconds(250) else { continue }
                        lastDraw = .now
                        let screen = ["nearby watch \(setup.client.broker) (\(setup.topics.everyHost)); Ctrl-C stops", ""]
                            + watch.house.table() + [""] + recent
                        RangeScreen.standardOutput("\u{1B}[H\u{1B}[2J" + screen.joined(separator: "\n") + "\n")
                    } else if update.kind != .distance && (update.kind != .state || update.retained) {
                        RangeScreen.standardOutput(update.text + "\n")
                    }
                }
            }
        }
        _ = await waitForSignalOr { false }
        await watch.stop()
        printer.cancel()
        _ = await printer.value
        if !json { RangeScreen.standardOutput(watch.house.table().joined(separator: "\n") + "\n") }
    }
}
