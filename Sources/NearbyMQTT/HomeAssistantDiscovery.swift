public import MQTT
public import NIProtocol
import NearbyBase

/// Home Assistant MQTT discovery configs for one host (specs/mqtt.md, "Home Assistant").
///
/// - The host: a device `nearby <host>` with a connectivity binary sensor on the status topic
///   (`online` / `offline`, the last will); the accessories' devices hang off it (`via_device`).
/// - Each accessory: one device (identifier `nearby_accessory_<accessory>`, so hosts that see
///   the same accessory add their entities to the same device) with, per host, a distance
///   sensor (device class `distance`, unit `m`), a zone sensor (device class `enum`: the zone
///   names and `away`, with every state field as attributes) and a "near" binary sensor
///   (device class `presence`: in the innermost zone). Every entity reads the retained state
///   topic and is unavailable while the host is offline.
///
/// Config topics: `<prefix>/<component>/nearby_<host>/<object>/config`, retained, QoS 1. An
/// empty retained payload on the same topics removes the entities (``removal(accessoryID:)``).
public struct HomeAssistantDiscovery: Sendable, Hashable {
    /// Home Assistant's discovery prefix.
    public var prefix: String
    /// The host's topics.
    public var topics: MQTTTopics
    /// `nearby`'s version, shown on the devices.
    public var softwareVersion: String

    /// Home Assistant's default discovery prefix.
    public static let defaultPrefix = "homeassistant"
    /// The zone sensor's state when the accessory is in no zone (lost, or not seen yet).
    public static let awayState = "away"

    /// Creates the discovery of a host.
    public init(prefix: String = HomeAssistantDiscovery.defaultPrefix, topics: MQTTTopics, softwareVersion: String) {
        self.prefix = prefix
        self.topics = topics
        self.softwareVersion = softwareVersion
    }

    /// The discovery node: `nearby_<host>`.
    public var node: String { "nearby_\(topics.host)" }
    /// The host device's identifier (the accessories' `via_device`).
    public var hostDevice: String { "nearby_\(topics.host)" }
    /// The device identifier of accessory `id`.
    public static func accessoryDevice(_ id: String) -> String { "nearby_accessory_\(MQTTTopics.accessoryLevel(id))" }

    /// The host's config: its connectivity sensor and device.
    public func hostConfig() -> MQTTMessage {
        let device = JSONObject([
            ("identifiers", .raw(Self.array([hostDevice]))), ("name", .string("nearby \(topics.host)")),
            ("manufacturer", .string("nearby")), ("model", .string("UWB ranging host")), ("sw_version", .string(softwareVersion)),
        ])
        let config = JSONObject([
            ("name", .string("status")), ("unique_id", .string("\(node)_status")), ("device_class", .string("connectivity")),
            ("entity_category", .string("diagnostic")),
            ("state_topic", .string(topics.status)), ("payload_on", .string("online")), ("payload_off", .string("offline")),
            ("device", .raw(device.text)), ("origin", .raw(origin)),
        ])
        return message(component: "binary_sensor", object: "status", config.text)
    }

    /// The configs of accessory `identity` (distance, zone, near), for the zones named
    /// `zoneNames` (innermost first).
    public func accessoryConfigs(_ identity: AccessoryIdentity, zoneNames: [String]) -> [MQTTMessage] {
        let level = MQTTTopics.accessoryLevel(identity.id)
        let device = JSONObject([
            ("identifiers", .raw(Self.array([Self.accessoryDevice(identity.id)]))), ("name", .string(identity.displayName)),
            ("manufacturer", .string("nearby")), ("model", .string("UWB accessory")), ("via_device", .string(hostDevice)),
        ]).text
        let state = topics.state(identity.id)
        func common(_ object: String, _ name: String) -> [(String, JSONObject.Value)] {
            [
                ("name", .string("\(topics.host) \(name)")), ("unique_id", .string("\(node)_\(level)_\(object)")),
                ("state_topic", .string(state)),
                ("availability_topic", .string(topics.status)), ("payload_available", .string("online")),
                ("payload_not_available", .string("offline")),
            ]
        }
        var distance = JSONObject(common("distance", "distance"))
        distance.merge([
            ("device_class", .string("distance")), ("unit_of_measurement", .string("m")), ("state_class", .string("measurement")),
            ("suggested_display_precision", .integer(2)), ("value_template", .string("{{ value_json.distance_m }}")),
            ("device", .raw(device)), ("origin", .raw(origin)),
        ])
        var zone = JSONObject(common("zone", "zone"))
        zone.merge([
            ("device_class", .string("enum")), ("options", .raw(Self.array(zoneNames + [Self.awayState]))),
            ("value_template", .string("{{ value_json.zone if value_json.zone else '\(Self.awayState)' }}")),
            ("json_attributes_topic", .string(state)), ("icon", .string("mdi:map-marker-radius")),
            ("device", .raw(device)), ("origin", .raw(origin)),
        ])
        var near = JSONObject(common("near", "near"))
        near.merge([
            ("device_class", .string("presence")), ("payload_on", .string("ON")), ("payload_off", .string("OFF")),
            ("value_template", .string("{{ 'ON' if value_json.near else 'OFF' }}")),
            ("device", .raw(device)), ("origin", .raw(origin)),
        ])
        return [
            message(component: "sensor", object: "\(level)_distance", distance.text),
            message(component: "sensor", object: "\(level)_zone", zone.text),
            message(component: "binary_sensor", object: "\(level)_near", near.text),
        ]
    }

    /// The config topics of accessory `id` (distance, zone, near).
    public func accessoryConfigTopics(_ id: String) -> [String] {
        let level = MQTTTopics.accessoryLevel(id)
        return [topic("sensor", "\(level)_distance"), topic("sensor", "\(level)_zone"), topic("binary_sensor", "\(level)_near")]
    }

    /// What removes accessory `id` from Home Assistant and clears its retained state: empty
    /// retained payloads on its config topics and its state topic.
    public func removal(accessoryID id: String) -> [MQTTMessage] {
        (accessoryConfigTopics(id) + [topics.state(id)]).map { MQTTMessage(topic: $0, payload: [], qos: .atLeastOnce, retain: true) }
    }

    private func topic(_ component: String, _ object: String) -> String { "\(prefix)/\(component)/\(node)/\(object)/config" }

    private func message(component: String, object: String, _ payload: String) -> MQTTMessage {
        MQTTMessage(topic: topic(component, object), text: payload, qos: .atLeastOnce, retain: true, format: .json)
    }

    private var origin: String { JSONObject([("name", .string("nearby")), ("sw_version", .string(softwareVersion))]).text }

    private static func array(_ strings: [String]) -> String { "[" + strings.map(JSONText.string).joined(separator: ",") + "]" }
}
