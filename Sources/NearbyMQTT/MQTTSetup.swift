import Foundation
public import MQTT
public import NearbyConfig

/// Which command publishes: `range` is the host itself; `demo` and `replay` publish as a host
/// of their own (`<host>-demo`, `<host>-replay`) unless `--mqtt-host` names one, so trying
/// them never takes over the status, client id or accessories of a `nearby range` running on
/// the same machine.
public enum MQTTRole: String, Sendable, Hashable {
    /// `nearby range`.
    case range
    /// `nearby demo`.
    case demo
    /// `nearby replay`.
    case replay
    /// `nearby watch` (subscribes only).
    case watch
    /// `nearby accessories forget` (removes an accessory's entities).
    case forget
}

/// The `[mqtt]` settings, the command's `--mqtt` / `--mqtt-host` and the environment turned into
/// what connects: the client configuration (with the host's will and birth), the topics and the
/// publisher's options (specs/mqtt.md, "Configuration").
public struct MQTTSetup: Sendable {
    /// The client's configuration.
    public var client: MQTTClientConfiguration
    /// The host's topics.
    public var topics: MQTTTopics
    /// The publisher's options.
    public var publisher: MQTTPublisherOptions

    /// The environment variable holding the password (wins over `[mqtt] password`).
    public static let passwordVariable = "NEARBY_MQTT_PASSWORD"

    /// Builds the setup, or `nil` when MQTT is off (no `--mqtt`, and for `range` / `forget` no
    /// `[mqtt] url`; `demo` and `replay` ignore the file's url).
    /// - Parameters:
    ///   - settings: `[mqtt]`.
    ///   - url: `--mqtt` (wins over `[mqtt] url`).
    ///   - hostName: `--mqtt-host` (wins over `[mqtt] host_name`).
    ///   - role: the command.
    ///   - environment: the process's environment (`NEARBY_MQTT_PASSWORD`).
    ///   - machineHostName: the default host name.
    /// - Throws: `MQTTError` for settings that cannot work (checked before connecting).
    public init?(
        settings: MQTTSettings, url: MQTTBrokerURL?, hostName: String? = nil, role: MQTTRole,
        environment: [String: String] = MQTTSetup.processEnvironment(), machineHostName: String = MQTTSetup.machineHostName()
    ) throws(MQTTError) {
        let fileURL = (role == .range || role == .forget || role == .watch) ? settings.url : nil
        guard let broker = url ?? fileURL else { return nil }
        var host = hostName ?? settings.hostName ?? machineHostName
        if hostName == nil, role == .demo || role == .replay { host += "-\(role.rawValue)" }
        topics = MQTTTopics(prefix: settings.topicPrefix ?? MQTTTopics.defaultPrefix, host: host)
        let defaultID = role == .watch ? "nearby-watch-\(topics.host)-\(UInt32.random(in: 0...0xFFFF))" : "nearby-\(topics.host)"
        var client = MQTTClientConfiguration(broker: broker, clientID: settings.clientID.map { role == .watch ? $0 + "-watch" : $0 } ?? defaultID)
        client.protocolVersion = settings.protocolVersion ?? .v311
        client.keepAlive = settings.keepAlive ?? 30
        client.username = settings.username
        if let password = environment[Self.passwordVariable], !password.isEmpty {
            client.password = MQTTSecret(password)
        } else {
            client.password = settings.password
        }
        client.tls = MQTTTLSFiles(caFile: settings.caFile, certificateFile: settings.certFile, keyFile: settings.keyFile)
        client.queueLimit = settings.queueLimit ?? 1000
        client.reconnectMaximum = settings.reconnectMaximum ?? 30
        if role != .watch && role != .forget {
            client.will = MQTTMessage(topic: topics.status, text: "offline", qos: .atLeastOnce, retain: true)
            client.birth = MQTTMessage(topic: topics.status, text: "online", qos: .atLeastOnce, retain: true)
        }
        try client.validate()
        self.client = client
        var publisher = MQTTPublisherOptions()
        publisher.discovery = settings.discovery ?? true
        publisher.discoveryPrefix = settings.discoveryPrefix ?? HomeAssistantDiscovery.defaultPrefix
        publisher.distanceRate = settings.distanceRate ?? 2
        publisher.distanceStep = settings.distanceStep ?? 0.1
        publisher.heartbeat = settings.heartbeat ?? 60
        publisher.rangeRate = settings.rangeRate ?? 10
        self.publisher = publisher
    }

    /// This process's environment.
    public static func processEnvironment() -> [String: String] { ProcessInfo.processInfo.environment }

    /// The machine's host name, its first label (`hall` for `hall.example.org`), or `nearby`.
    public static func machineHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "nearby" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.split(separator: ".").first.map(String.init) ?? "nearby"
    }

    /// What to check for a connection failure, in the configuration's words (appended to the
    /// client's own message).
    public static func hint(for error: MQTTError) -> String {
        switch error.code {
        case .badCredentials:
            "; check [mqtt] username (or the user in the URL) and the password ([mqtt] password or \(passwordVariable))"
        case .notAuthorized:
            "; set the user in the URL or [mqtt] username, and the password in [mqtt] password or \(passwordVariable)"
        case .tls:
            "; check [mqtt] ca_file (and cert_file / key_file if the broker wants a client certificate)"
        case .unknownHost, .network:
            "; check the broker URL (--mqtt or [mqtt] url)"
        default:
            ""
        }
    }

    /// A warning when the configuration file at `path` holds the MQTT password and other users
    /// may read it (`chmod 600` fixes it); `nil` otherwise.
    public static func passwordFileWarning(path: String?, settings: MQTTSettings) -> String? {
        guard let path, settings.password != nil,
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0
        else { return nil }
        return "warning: \(path) holds the MQTT password and other users can read it; run chmod 600 \(path)"
    }

    /// Removes accessory `id` from Home Assistant and clears its retained state on the broker:
    /// connects, publishes the empty retained configs (``HomeAssistantDiscovery/removal(accessoryID:)``)
    /// and disconnects.
    /// - Returns: `nil` when done, else what went wrong (the broker did not answer in `timeout`).
    public func removeAccessory(_ id: String, timeout: Duration = .seconds(5)) async -> String? {
        var configuration = client
        configuration.will = nil
        configuration.birth = nil
        configuration.reconnectMinimum = 0.5
        configuration.clientID += "-forget"
        let discovery = HomeAssistantDiscovery(prefix: publisher.discoveryPrefix, topics: topics, softwareVersion: publisher.softwareVersion)
        let mqtt: MQTTClient
        do {
            mqtt = try MQTTClient(configuration: configuration)
        } catch {
            return error.description
        }
        let events = mqtt.events()
        let failures = Task {
            var last: MQTTError?
            for await event in events {
                if case .connectionFailed(let error, _) = event { last = error }
            }
            return last
        }
        mqtt.start()
        let connected = await mqtt.waitUntilConnected(timeout: timeout)
        if connected {
            // Handed to the connection before the DISCONNECT, which follows them on the wire.
            let removal = discovery.removal(accessoryID: id)
            for message in removal { mqtt.publish(message) }
            await waitUntilPublished(mqtt, count: removal.count, timeout: timeout)
        }
        await mqtt.stop(timeout: .seconds(2))
        failures.cancel()
        if connected { return nil }
        let reason = await failures.value.map { "\($0)\(Self.hint(for: $0))" } ?? "no answer in \(timeout)"
        return reason
    }

    /// The run output publishing to the broker with these settings (``MQTTPublisher``); it
    /// connects when the run starts.
    /// - Parameters:
    ///   - softwareVersion: the program's version, shown in Home Assistant's device info.
    ///   - notes: where connection notes go (with ``hint(for:)`` for failures).
    /// - Throws: `MQTTError` for client settings that cannot work.
    public func makePublisher(softwareVersion: String, notes: @escaping @Sendable (String) -> Void) throws(MQTTError) -> MQTTPublisher {
        var options = publisher
        options.softwareVersion = softwareVersion
        let client = try MQTTClient(configuration: client)
        return MQTTPublisher(client: client, topics: topics, options: options, notes: notes, hint: Self.hint(for:))
    }

    /// The setup for a command (``init(settings:url:hostName:role:environment:machineHostName:)``
    /// with this process's environment and host name), or `nil` when MQTT is off; tells `notes`
    /// when the configuration file at `configPath` (`nil`: none) holds the password and others can read it
    /// (``passwordFileWarning(path:settings:)``).
    /// - Throws: `MQTTError` for settings that cannot work.
    public static func forCommand(
        _ settings: MQTTSettings, url: MQTTBrokerURL?, hostName: String?, role: MQTTRole, configPath: String?,
        notes: (String) -> Void
    ) throws(MQTTError) -> MQTTSetup? {
        guard let setup = try MQTTSetup(settings: settings, url: url, hostName: hostName, role: role) else { return nil }
        if let warning = passwordFileWarning(path: configPath, settings: settings) { notes(warning) }
        return setup
    }

    /// ``removeAccessory(_:timeout:)`` with what to tell the user: `removed` and
    /// `removed its Home Assistant entities and state from BROKER (host HOST)`, or not removed
    /// and why, with how to clean up by hand (delete the device in Home Assistant, or clear the
    /// retained topics with `mosquitto_pub -r -n -t ...`).
    public func forgetAccessory(_ id: String, timeout: Duration = .seconds(5)) async -> (removed: Bool, message: String) {
        guard let problem = await removeAccessory(id, timeout: timeout) else {
            return (true, "removed its Home Assistant entities and state from \(client.broker) (host \(topics.host))")
        }
        let retained = HomeAssistantDiscovery(prefix: publisher.discoveryPrefix, topics: topics, softwareVersion: "")
            .removal(accessoryID: id).map(\.topic)
        return (
            false,
            "its Home Assistant entities stay on \(client.broker): \(problem). Delete the device in Home Assistant, "
                + "or clear the retained topics when the broker is up: " + retained.map { "mosquitto_pub -r -n -t '\($0)'" }.joined(separator: "; ")
        )
    }

    private func waitUntilPublished(_ mqtt: MQTTClient, count: Int, timeout: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline, mqtt.statistics.published < count {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
