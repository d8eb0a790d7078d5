public import MQTT
public import NIProtocol
import NearbyBase

/// Home Assistant MQTT discovery for one host (specs/mqtt.md, "Home Assistant"), device-based:
/// one retained config per device on `<prefix>/device/<object>/config` with its entities under
/// `cmps` (Home Assistant's MQTT docs, "Device discovery payload").
///
/// - The host: `<prefix>/device/nearby_<host>/config`, device `nearby <host>` (model "UWB ranging
///   host", `suggested_area` = its room in the house, `configuration_url` = its `--web` view)
///   with a *connectivity* sensor on the status topic (diagnostic).
/// - Each accessory, per host: `<prefix>/device/nearby_<host>_<accessory>/config`, device
///   identifier `nearby_accessory_<accessory>` (every host's entities and the house's join one
///   device; no `via_device`: an accessory heard by several hosts has no single route, and a
///   host setting it made it flip to whichever host announced last): a distance sensor, a zone
///   sensor (`not_home` outside every zone; slow keys as attributes through
///   `json_attributes_template`, so a new distance is not a new recorded attribute set), a
///   "near" presence sensor, a `device_tracker` (`source_type: bluetooth_le`: `home` while this
///   host tracks it), and diagnostic entities disabled by default (azimuth, velocity, figure of
///   merit, NLoS, update rate). Available while the host is online **and** the session is not
///   stopped / failed / idle (`availability_mode: all`); sensors expire (`expire_after`) when
///   no state came for three heartbeats.
///
/// Re-announced when Home Assistant's birth message (`<prefix>/status` = `online`) arrives; the
/// single-component configs of earlier versions are migrated (`migrate_discovery`) and cleared.
public struct HomeAssistantDiscovery: Sendable, Hashable {
    /// Home Assistant's discovery prefix.
    public var prefix: String
    /// The host's topics.
    public var topics: MQTTTopics
    /// `nearby`'s version, shown on the devices and in `origin`.
    public var softwareVersion: String
    /// The host device's `suggested_area` (its room), if known.
    public var suggestedArea: String?
    /// The host device's `configuration_url` (its web view), if any.
    public var configurationURL: String?
    /// `expire_after` of the sensors, seconds (0: none).
    public var expireAfter: Int

    /// Home Assistant's default discovery prefix.
    public static let defaultPrefix = "homeassistant"
    /// The state of the zone sensor and trackers when the accessory is not there (Home
    /// Assistant's `not_home`).
    public static let awayState = "not_home"
    /// Session states in which an accessory's entities are unavailable.
    public static let unavailableSessions = ["stopped", "failed", "idle"]

    /// Creates the discovery of a host.
    public init(
        prefix: String = HomeAssistantDiscovery.defaultPrefix, topics: MQTTTopics, softwareVersion: String, suggestedArea: String? = nil,
        configurationURL: String? = nil, expireAfter: Int = 0
    ) {
        self.prefix = prefix
        self.topics = topics
        self.softwareVersion = softwareVersion
        self.suggestedArea = suggestedArea
        self.configurationURL = configurationURL
        self.expireAfter = expireAfter
    }

    /// The host device's identifier: `nearby_<host>`.
    public var hostDevice: String { "nearby_\(topics.host)" }
    /// The device identifier of accessory `id` (shared by every host and the house).
    public static func accessoryDevice(_ id: String) -> String { "nearby_accessory_\(MQTTTopics.accessoryLevel(id))" }
    /// Home Assistant's birth and will topic: `<prefix>/status`.
    public var birthTopic: String { "\(prefix)/status" }

    /// The host's config topic.
    public var hostConfigTopic: String { "\(prefix)/device/\(hostDevice)/config" }
    /// Accessory `id`'s config topic for this host.
    public func accessoryConfigTopic(_ id: String) -> String { "\(prefix)/device/\(hostDevice)_\(MQTTTopics.accessoryLevel(id))/config" }

    /// The host's config: its device and connectivity sensor.
    public func hostConfig() -> MQTTMessage {
        var device: [(String, JSONObject.Value)] = [
            ("ids", .raw(Self.array([hostDevice]))), ("name", .string("nearby \(topics.host)")), ("mf", .string("nearby")),
            ("mdl", .string("UWB ranging host")), ("sw", .string(softwareVersion)),
        ]
        if let suggestedArea { device.append(("sa", .string(suggestedArea))) }
        if let configurationURL { device.append(("cu", .string(configurationURL))) }
        let status = JSONObject([
            ("p", .string("binary_sensor")), ("name", .string("Status")), ("unique_id", .string("\(hostDevice)_status")),
            ("device_class", .string("connectivity")), ("entity_category", .string("diagnostic")), ("state_topic", .string(topics.status)),
            ("payload_on", .string("online")), ("payload_off", .string("offline")),
        ])
        let config = JSONObject([
            ("dev", .raw(JSONObject(device).text)), ("o", .raw(origin)), ("cmps", .raw(JSONObject([("status", .raw(status.text))]).text)),
            ("qos", .integer(1)),
        ])
        return message(hostConfigTopic, config.text)
    }

    /// The config of accessory `identity` for this host, for the zones named `zoneNames`
    /// (innermost first).
    public func accessoryConfig(_ identity: AccessoryIdentity, zoneNames: [String]) -> MQTTMessage {
        let level = MQTTTopics.accessoryLevel(identity.id)
        let state = topics.state(identity.id)
        let host = topics.host
        let device = JSONObject([
            ("ids", .raw(Self.array([Self.accessoryDevice(identity.id)]))), ("name", .string(identity.displayName)), ("mf", .string("nearby")),
            ("mdl", .string("UWB accessory")),
        ])
        let sessions = Self.unavailableSessions.map { "'\($0)'" }.joined(separator: ", ")
        let availability = "[" + [
            JSONObject([("topic", .string(topics.status)), ("payload_available", .string("online")), ("payload_not_available", .string("offline"))]).text,
            JSONObject([
                ("topic", .string(state)), ("payload_available", .string("online")), ("payload_not_available", .string("offline")),
                ("value_template", .string("{{ 'offline' if value_json.session in (\(sessions)) else 'online' }}")),
            ]).text,
        ].joined(separator: ",") + "]"
        func entity(_ object: String, _ platform: String, _ name: String, _ fields: [(String, JSONObject.Value)], diagnostic: Bool = false, expires: Bool = true) -> (String, JSONObject.Value) {
            var all: [(String, JSONObject.Value)] = [
                ("p", .string(platform)), ("name", .string("\(host) \(name)")), ("unique_id", .string("\(hostDevice)_\(level)_\(object)")),
            ]
            all += fields
            if expires, expireAfter > 0 { all.append(("expire_after", .integer(expireAfter))) }
            if diagnostic { all += [("entity_category", .string("diagnostic")), ("enabled_by_default", .bool(false))] }
            return (object, .raw(JSONObject(all).text))
        }
        let slowKeys = "{{ {'host': value_json.host, 'session': value_json.session, 'tracking': value_json.tracking, 'retries': value_json.retries} | tojson }}"
        let components = JSONObject([
            entity("distance", "sensor", "distance", [
                ("device_class", .string("distance")), ("unit_of_measurement", .string("m")), ("state_class", .string("measurement")),
                ("suggested_display_precision", .integer(2)), ("value_template", .string("{{ value_json.distance_m }}")),
            ]),
            entity("zone", "sensor", "zone", [
                ("device_class", .string("enum")), ("options", .raw(Self.array(zoneNames + [Self.awayState]))),
                ("value_template", .string("{{ value_json.zone if value_json.zone else '\(Self.awayState)' }}")),
                ("json_attributes_topic", .string(state)), ("json_attributes_template", .string(slowKeys)), ("icon", .string("mdi:map-marker-radius")),
            ]),
            entity("near", "binary_sensor", "near", [
                ("device_class", .string("presence")), ("payload_on", .string("ON")), ("payload_off", .string("OFF")),
                ("value_template", .string("{{ 'ON' if value_json.near else 'OFF' }}")),
            ]),
            entity("presence", "device_tracker", "presence", [
                ("source_type", .string("bluetooth_le")), ("payload_home", .string("home")), ("payload_not_home", .string(Self.awayState)),
                ("value_template", .string("{{ 'home' if value_json.tracking == 'tracking' else '\(Self.awayState)' }}")),
            ], expires: false),
            entity("azimuth", "sensor", "azimuth", [
                ("unit_of_measurement", .string("°")), ("state_class", .string("measurement")), ("suggested_display_precision", .integer(0)),
                ("value_template", .string("{{ value_json.azimuth_deg }}")), ("icon", .string("mdi:compass-outline")),
            ], diagnostic: true),
            entity("velocity", "sensor", "velocity", [
                ("device_class", .string("speed")), ("unit_of_measurement", .string("m/s")), ("state_class", .string("measurement")),
                ("suggested_display_precision", .integer(2)), ("value_template", .string("{{ value_json.velocity_mps }}")),
            ], diagnostic: true),
            entity("figure_of_merit", "sensor", "figure of merit", [
                ("unit_of_measurement", .string("%")), ("state_class", .string("measurement")),
                ("value_template", .string("{{ value_json.figure_of_merit }}")), ("icon", .string("mdi:signal")),
            ], diagnostic: true),
            entity("nlos", "binary_sensor", "NLoS", [
                ("device_class", .string("problem")), ("payload_on", .string("ON")), ("payload_off", .string("OFF")),
                ("value_template", .string("{{ 'ON' if value_json.nlos else 'OFF' }}")),
            ], diagnostic: true),
            entity("update_rate", "sensor", "update rate", [
                ("device_class", .string("frequency")), ("unit_of_measurement", .string("Hz")), ("state_class", .string("measurement")),
                ("value_template", .string("{{ value_json.update_rate_hz }}")),
            ], diagnostic: true),
        ])
        let config = JSONObject([
            ("dev", .raw(device.text)), ("o", .raw(origin)), ("state_topic", .string(state)), ("availability", .raw(availability)),
            ("availability_mode", .string("all")), ("qos", .integer(0)), ("cmps", .raw(components.text)),
        ])
        return message(accessoryConfigTopic(identity.id), config.text)
    }

    /// The single-component config topics earlier versions published for this host (the
    /// host's status and, for accessory `level`, distance, zone and near), to migrate.
    public func legacyTopics(accessoryLevel level: String? = nil) -> [String] {
        guard let level else { return ["\(prefix)/binary_sensor/\(hostDevice)/status/config"] }
        return [
            "\(prefix)/sensor/\(hostDevice)/\(level)_distance/config", "\(prefix)/sensor/\(hostDevice)/\(level)_zone/config",
            "\(prefix)/binary_sensor/\(hostDevice)/\(level)_near/config",
        ]
    }

    /// The filters under which this host's legacy single-component configs live.
    public var legacyFilters: [String] { ["\(prefix)/sensor/\(hostDevice)/+/config", "\(prefix)/binary_sensor/\(hostDevice)/+/config"] }

    /// What migrates a legacy single-component config on `topic` to the device-based one
    /// (Home Assistant's MQTT docs, "Migration from single component to device-based
    /// discovery"): `{"migrate_discovery": true}` on it (not retained), then — after the new
    /// config — an empty retained payload clearing it (``legacyClearing(_:)``).
    public static func migration(_ topic: String) -> MQTTMessage {
        MQTTMessage(topic: topic, text: #"{"migrate_discovery":true}"#, qos: .atLeastOnce, retain: false, format: .json)
    }

    /// The empty retained payload that clears a legacy config topic.
    public static func legacyClearing(_ topic: String) -> MQTTMessage {
        MQTTMessage(topic: topic, payload: [], qos: .atLeastOnce, retain: true)
    }

    /// The config topics of accessory `id` (the device config and the legacy ones).
    public func accessoryConfigTopics(_ id: String) -> [String] {
        [accessoryConfigTopic(id)] + legacyTopics(accessoryLevel: MQTTTopics.accessoryLevel(id))
    }

    /// What removes accessory `id` from Home Assistant and clears its retained state: empty
    /// retained payloads on its config topics and its state topic.
    public func removal(accessoryID id: String) -> [MQTTMessage] {
        (accessoryConfigTopics(id) + [topics.state(id)]).map { MQTTMessage(topic: $0, payload: [], qos: .atLeastOnce, retain: true) }
    }

    private func message(_ topic: String, _ payload: String) -> MQTTMessage {
        MQTTMessage(topic: topic, text: payload, qos: .atLeastOnce, retain: true, format: .json)
    }

    /// The `origin` block: `nearby` and its version.
    var origin: String { Self.origin(softwareVersion) }

    /// The `origin` block of `nearby` at `version`.
    static func origin(_ version: String) -> String { JSONObject([("name", .string("nearby")), ("sw", .string(version))]).text }

    static func array(_ strings: [String]) -> String { "[" + strings.map(JSONText.string).joined(separator: ",") + "]" }
}
