public import MQTT

/// `[mqtt]`: publishing ranging to an MQTT broker (`specs/mqtt.md`). Only `url` turns it on
/// (for `nearby range`; `demo` and `replay` publish only with `--mqtt`). Values are as written;
/// `NearbyMQTT.MQTTSetup` applies the defaults and the environment (`NEARBY_MQTT_PASSWORD`).
public struct MQTTSettings: Sendable, Hashable {
    /// The broker: `mqtt://[user@]host[:port]` or `mqtts://...` (`url`; never with a password).
    public var url: MQTTBrokerURL?
    /// The client id (`client_id`; default `nearby-<host_name>`).
    public var clientID: String?
    /// This host's level in topics and its Home Assistant device (`host_name`; default: the
    /// machine's host name).
    public var hostName: String?
    /// The first topic level (`topic_prefix`; default `nearby`).
    public var topicPrefix: String?
    /// Publish Home Assistant discovery configs (`discovery`; default `true`).
    public var discovery: Bool?
    /// Home Assistant's discovery prefix (`discovery_prefix`; default `homeassistant`).
    public var discoveryPrefix: String?
    /// Most distance publications per accessory per second (`distance_rate`, Hz; default 2).
    public var distanceRate: Double?
    /// Smallest distance change that is published, metres (`distance_step`; default 0.1).
    public var distanceStep: Double?
    /// MQTT protocol (`protocol`: "3.1.1" or "5"; default 3.1.1).
    public var protocolVersion: MQTTProtocolVersion?
    /// Keepalive, seconds (`keepalive`; default 30).
    public var keepAlive: Int?
    /// The user name (`username`; or in the URL).
    public var username: String?
    /// The password (`password`; `NEARBY_MQTT_PASSWORD` in the environment wins). Keep the file
    /// readable by its owner only.
    public var password: MQTTSecret?
    /// TLS: the CA file (`ca_file`; default: the system's CAs).
    public var caFile: String?
    /// TLS: this client's certificate (`cert_file`).
    public var certFile: String?
    /// TLS: this client's key (`key_file`).
    public var keyFile: String?
    /// QoS 1 events kept while the broker is unreachable (`queue`; default 1000).
    public var queueLimit: Int?
    /// The longest reconnect delay, seconds (`reconnect_max`; default 30).
    public var reconnectMaximum: Double?
    /// Seconds after which an unchanged state is published again (`heartbeat`; default 60;
    /// 0 never); Home Assistant's sensors expire after three heartbeats.
    public var heartbeat: Double?
    /// Most measured samples per accessory per second on the `range` topic (`range_rate`;
    /// default 10; 0 none): what the house's fusion uses.
    public var rangeRate: Double?

    /// Settings with nothing set.
    public init() {}

    /// These settings with every value set in `flags` replacing this one's.
    public func overridden(by flags: MQTTSettings) -> MQTTSettings {
        var result = self
        result.url = flags.url ?? url
        result.clientID = flags.clientID ?? clientID
        result.hostName = flags.hostName ?? hostName
        result.topicPrefix = flags.topicPrefix ?? topicPrefix
        result.discovery = flags.discovery ?? discovery
        result.discoveryPrefix = flags.discoveryPrefix ?? discoveryPrefix
        result.distanceRate = flags.distanceRate ?? distanceRate
        result.distanceStep = flags.distanceStep ?? distanceStep
        result.protocolVersion = flags.protocolVersion ?? protocolVersion
        result.keepAlive = flags.keepAlive ?? keepAlive
        result.username = flags.username ?? username
        result.password = flags.password ?? password
        result.caFile = flags.caFile ?? caFile
        result.certFile = flags.certFile ?? certFile
        result.keyFile = flags.keyFile ?? keyFile
        result.queueLimit = flags.queueLimit ?? queueLimit
        result.reconnectMaximum = flags.reconnectMaximum ?? reconnectMaximum
        result.heartbeat = flags.heartbeat ?? heartbeat
        result.rangeRate = flags.rangeRate ?? rangeRate
        return result
    }

    /// One line for `nearby config check` (never the password: only where it comes from).
    public var summary: String {
        guard let url else { return "mqtt: off (no url)" }
        var parts = ["mqtt: \(url)"]
        if let hostName { parts.append("host \(hostName)") }
        if let topicPrefix { parts.append("prefix \(topicPrefix)") }
        parts.append("discovery \(discovery == false ? "off" : "on")")
        if let protocolVersion { parts.append(protocolVersion.description) }
        if password != nil { parts.append("password from the file") }
        if caFile != nil || certFile != nil { parts.append("TLS files set") }
        return parts.joined(separator: ", ")
    }
}
