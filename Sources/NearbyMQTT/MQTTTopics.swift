import MQTT

/// The topics of one host (specs/mqtt.md):
///
/// | topic | payload | QoS | retained |
/// |---|---|---|---|
/// | `<prefix>/<host>/status` | `online` / `offline` (last will) | 1 | yes |
/// | `<prefix>/<host>/<accessory>/state` | JSON: zone, distance, direction, tracking, time | 0 | yes |
/// | `<prefix>/<host>/<accessory>/event` | JSON: zone change, lost, found, retry | 1 | no |
/// | `<prefix>/<host>/<accessory>/distance` | metres as text (`1.234`), rate-limited | 0 | no |
/// | `<prefix>/<host>/<accessory>/range` | JSON: each measured sample (time, range, azimuth, FoM, NLoS), for the house | 0 | no |
///
/// `<host>` and `<accessory>` are `MQTTTopic.level(_:)` of the host name and of the
/// accessory's id (`F0:F1:F2:F3:F4:F5` → `f0_f1_f2_f3_f4_f5`).
public struct MQTTTopics: Sendable, Hashable {
    /// The first level (`nearby`).
    public var prefix: String
    /// This host's level (`hall`).
    public var host: String

    /// The default first level.
    public static let defaultPrefix = "nearby"

    /// Creates the layout; `host` is made a safe level.
    public init(prefix: String = MQTTTopics.defaultPrefix, host: String) {
        self.prefix = prefix
        self.host = MQTTTopic.level(host)
    }

    /// `<prefix>/<host>/status`.
    public var status: String { "\(prefix)/\(host)/status" }
    /// The level of accessory `id`.
    public static func accessoryLevel(_ id: String) -> String { MQTTTopic.level(id) }
    /// `<prefix>/<host>/<accessory>/state`.
    public func state(_ id: String) -> String { "\(prefix)/\(host)/\(Self.accessoryLevel(id))/state" }
    /// `<prefix>/<host>/<accessory>/event`.
    public func event(_ id: String) -> String { "\(prefix)/\(host)/\(Self.accessoryLevel(id))/event" }
    /// `<prefix>/<host>/<accessory>/distance`.
    public func distance(_ id: String) -> String { "\(prefix)/\(host)/\(Self.accessoryLevel(id))/distance" }
    /// `<prefix>/<host>/<accessory>/range`.
    public func range(_ id: String) -> String { "\(prefix)/\(host)/\(Self.accessoryLevel(id))/range" }
    /// Every host's topics: `<prefix>/#` (what `nearby watch` subscribes to).
    public var everyHost: String { "\(prefix)/#" }
}
