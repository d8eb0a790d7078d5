public import MQTT
import NearbyBase

/// Home Assistant discovery of the house (`nearby watch --house`; specs/house.md, "Home
/// Assistant"), device-based like a host's:
///
/// - `<prefix>/device/nearby_house/config`: device `nearby house` with a connectivity sensor on
///   `<topic prefix>/house/status` (the watcher's birth and last will).
/// - `<prefix>/device/nearby_house_<accessory>/config`: on the accessory's device (identifier
///   `nearby_accessory_<accessory>`, the one the hosts' entities join; `via_device` the house,
///   the one route that does not flip): a `device_tracker` whose state is the room (`home` in
///   no room, `not_home` when away), a second one that says only `home` / `not_home` (for a
///   Person: Home Assistant gives stationary trackers priority only when they say `home`), and
///   diagnostic x, y and accuracy sensors disabled by default. All read the retained position
///   topic; slow keys only as attributes (`json_attributes_template`).
public struct HouseDiscovery: Sendable, Hashable {
    /// Home Assistant's discovery prefix.
    public var prefix: String
    /// The first topic level (`nearby`).
    public var topicPrefix: String
    /// `nearby`'s version.
    public var softwareVersion: String

    /// The house's level: `<topic prefix>/house/...`.
    public static let level = "house"

    /// Creates the discovery.
    public init(prefix: String = HomeAssistantDiscovery.defaultPrefix, topicPrefix: String = MQTTTopics.defaultPrefix, softwareVersion: String) {
        self.prefix = prefix
        self.topicPrefix = topicPrefix
        self.softwareVersion = softwareVersion
    }

    /// `<topic prefix>/house/status`: `online` / `offline` (the watcher's birth and will).
    public var statusTopic: String { "\(topicPrefix)/\(Self.level)/status" }
    /// `<topic prefix>/house/<accessory>/position`.
    public func positionTopic(_ level: String) -> String { "\(topicPrefix)/\(Self.level)/\(level)/position" }
    /// The house device's identifier.
    public var houseDevice: String { "nearby_\(Self.level)" }
    /// Home Assistant's birth topic.
    public var birthTopic: String { "\(prefix)/status" }

    /// The house device's config.
    public func houseConfig() -> MQTTMessage {
        let device = JSONObject([
            ("ids", .raw(HomeAssistantDiscovery.array([houseDevice]))), ("name", .string("nearby house")), ("mf", .string("nearby")),
            ("mdl", .string("UWB house fusion")), ("sw", .string(softwareVersion)),
        ])
        let status = JSONObject([
            ("p", .string("binary_sensor")), ("name", .string("Status")), ("unique_id", .string("\(houseDevice)_status")),
            ("device_class", .string("connectivity")), ("entity_category", .string("diagnostic")), ("state_topic", .string(statusTopic)),
            ("payload_on", .string("online")), ("payload_off", .string("offline")),
        ])
        let config = JSONObject([
            ("dev", .raw(device.text)), ("o", .raw(HomeAssistantDiscovery.origin(softwareVersion))),
            ("cmps", .raw(JSONObject([("status", .raw(status.text))]).text)), ("qos", .integer(1)),
        ])
        return MQTTMessage(topic: "\(prefix)/device/\(houseDevice)/config", text: config.text, qos: .atLeastOnce, retain: true, format: .json)
    }

    /// The config topic of accessory `level`.
    public func accessoryConfigTopic(_ level: String) -> String { "\(prefix)/device/\(houseDevice)_\(level)/config" }

    /// The config of the accessory at topic level `level`, shown as `name`.
    public func accessoryConfig(level: String, name: String) -> MQTTMessage {
        let device = JSONObject([
            ("ids", .raw(HomeAssistantDiscovery.array(["nearby_accessory_\(level)"]))), ("name", .string(name)), ("mf", .string("nearby")),
            ("mdl", .string("UWB accessory")), ("via_device", .string(houseDevice)),
        ])
        let attributes = "{{ {'room': value_json.room, 'floor': value_json.floor, 'hosts': value_json.hosts} | tojson }}"
        func entity(_ object: String, _ platform: String, _ title: String, _ fields: [(String, JSONObject.Value)], diagnostic: Bool = false) -> (String, JSONObject.Value) {
            var all: [(String, JSONObject.Value)] = [
                ("p", .string(platform)), ("name", .string(title)), ("unique_id", .string("\(houseDevice)_\(level)_\(object)")),
            ]
            all += fields
            if diagnostic { all += [("entity_category", .string("diagnostic")), ("enabled_by_default", .bool(false))] }
            return (object, .raw(JSONObject(all).text))
        }
        let position = positionTopic(level)
        let components = JSONObject([
            entity("room", "device_tracker", "room", [
                ("source_type", .string("bluetooth_le")), ("payload_home", .string("home")), ("payload_not_home", .string("not_home")),
                ("value_template", .string("{{ value_json.state }}")), ("json_attributes_topic", .string(position)),
                ("json_attributes_template", .string(attributes)), ("icon", .string("mdi:floor-plan")),
            ]),
            entity("presence", "device_tracker", "presence", [
                ("source_type", .string("bluetooth_le")), ("payload_home", .string("home")), ("payload_not_home", .string("not_home")),
                ("value_template", .string("{{ 'not_home' if value_json.state == 'not_home' else 'home' }}")),
            ]),
            entity("x", "sensor", "x", [
                ("device_class", .string("distance")), ("unit_of_measurement", .string("m")), ("state_class", .string("measurement")),
                ("suggested_display_precision", .integer(2)), ("value_template", .string("{{ value_json.x_m }}")),
            ], diagnostic: true),
            entity("y", "sensor", "y", [
                ("device_class", .string("distance")), ("unit_of_measurement", .string("m")), ("state_class", .string("measurement")),
                ("suggested_display_precision", .integer(2)), ("value_template", .string("{{ value_json.y_m }}")),
            ], diagnostic: true),
            entity("accuracy", "sensor", "accuracy", [
                ("device_class", .string("distance")), ("unit_of_measurement", .string("m")), ("state_class", .string("measurement")),
                ("suggested_display_precision", .integer(2)), ("value_template", .string("{{ value_json.accuracy_m }}")),
            ], diagnostic: true),
        ])
        let availability = "[" + JSONObject([
            ("topic", .string(statusTopic)), ("payload_available", .string("online")), ("payload_not_available", .string("offline")),
        ]).text + "]"
        let config = JSONObject([
            ("dev", .raw(device.text)), ("o", .raw(HomeAssistantDiscovery.origin(softwareVersion))), ("state_topic", .string(position)),
            ("availability", .raw(availability)), ("qos", .integer(0)), ("cmps", .raw(components.text)),
        ])
        return MQTTMessage(topic: accessoryConfigTopic(level), text: config.text, qos: .atLeastOnce, retain: true, format: .json)
    }
}
