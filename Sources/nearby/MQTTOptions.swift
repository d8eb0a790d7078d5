import ArgumentParser
import MQTT
import NearbyConfig
import NearbyMQTT
import NearbyRuntime
import NearbyTerminal

/// `--mqtt URL` and `--mqtt-host NAME`: publish ranging to an MQTT broker (README, "Home
/// Assistant"; specs/mqtt.md). The rest comes from `[mqtt]`; the password from `[mqtt] password`
/// or `NEARBY_MQTT_PASSWORD`, never from the command line.
struct MQTTOptions: ParsableArguments {
    @Option(
        name: .customLong("mqtt"),
        help: ArgumentHelp(
            "Publish to this MQTT broker: mqtt://[user@]host[:port] or mqtts://... (password: [mqtt] password or NEARBY_MQTT_PASSWORD).",
            valueName: "url"))
    var url: String?

    @Option(
        name: .customLong("mqtt-host"),
        help: ArgumentHelp("This host's name in MQTT topics and Home Assistant (default: [mqtt] host_name, else the host name).", valueName: "name"))
    var host: String?

    func validate() throws {
        _ = try brokerURL()
        if let host, host.isEmpty || host.contains(where: { $0 == "/" || $0 == "+" || $0 == "#" }) {
            throw ValidationError("--mqtt-host '\(host)' cannot be a topic level: give a name without '/', '+' or '#'")
        }
    }

    /// `--mqtt` parsed.
    func brokerURL() throws -> MQTTBrokerURL? {
        do {
            return try url.map(MQTTBrokerURL.init(parsing:))
        } catch {
            throw ValidationError("--mqtt: \(error)")
        }
    }

    /// The setup for `role` (nil: MQTT off). Warns on `notes` when the configuration file holds
    /// the password and others can read it.
    /// - Throws: `ValidationError` for MQTT settings that cannot work.
    func setup(_ settings: MQTTSettings, configPath: String?, role: MQTTRole, notes: (String) -> Void) throws -> MQTTSetup? {
        do {
            return try MQTTSetup.forCommand(
                settings, url: try brokerURL(), hostName: host, role: role, configPath: configPath ?? ConfigurationFile.defaultPath(), notes: notes)
        } catch {
            throw Self.commandError(error)
        }
    }

    /// The run output publishing to the broker for `role`, or `nil` when MQTT is off. The
    /// host's Home Assistant device gets its room in `[house]` as suggested area and the web
    /// view as configuration URL.
    /// - Parameters:
    ///   - notes: where connection notes go (the screen, or standard error).
    ///   - webURL: the `--web` view's address, if any.
    /// - Throws: `ValidationError` for MQTT settings that cannot work.
    func publisher(
        _ configuration: NearbyConfiguration, configPath: String?, role: MQTTRole, webURL: String? = nil, notes: @escaping @Sendable (String) -> Void
    ) throws -> MQTTPublisher? {
        do {
            guard var setup = try setup(configuration.mqtt, configPath: configPath, role: role, notes: notes) else { return nil }
            setup.publisher.suggestedArea = configuration.house.room(ofHost: setup.topics.host)
            setup.publisher.configurationURL = webURL
            return try setup.makePublisher(softwareVersion: BuildInfo.version, notes: notes)
        } catch let error as MQTTError {
            throw Self.commandError(error)
        }
    }

    /// What a command throws for an MQTT error: a usage error (`ValidationError`, exit 64, with
    /// the usage line) for settings that cannot work, but for a missing libmosquitto the message
    /// alone on standard error and exit 69 (EX_UNAVAILABLE): the command line was right, the
    /// machine lacks a package.
    static func commandError(_ error: any Error) -> any Error {
        if let error = error as? MQTTError, error.code == .libraryMissing {
            Console.error("error: mqtt: \(error)")
            return NearbyExit.unavailable
        }
        return ValidationError("mqtt: \(error)")
    }
}
