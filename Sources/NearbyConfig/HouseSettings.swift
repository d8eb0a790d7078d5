import MQTT
public import Positioning
import TOMLKit

/// `[house]`, `[[house.host]]` and `[[house.room]]`: the hosts and rooms of a house for
/// `nearby watch --house`, `nearby demo --house` and `nearby house survey` (specs/house.md,
/// specs/config.md). In the configuration file, or in a file of its own named by `--house`.
public struct HouseSettings: Sendable, Hashable {
    /// `[[house.host]]`, in file order (`nil`: none written).
    public var hosts: [HouseHost]?
    /// `[[house.room]]`, in file order.
    public var rooms: [HouseRoom]?
    /// Seconds unheard before `not_home` (`away_after`; default 30).
    public var awayAfter: Double?
    /// Room hysteresis, metres (`room_margin`; default 0.25).
    public var roomMargin: Double?
    /// Seconds a new room must hold (`room_dwell`; default 0).
    public var roomDwell: Double?
    /// Height of a carried accessory, metres (`tag_height`; default 1.0).
    public var tagHeight: Double?
    /// The base topic of the MQTT Room feed (`room_topic`; default `room_presence`; `""` turns it off).
    public var roomTopic: String?
    /// Publish the ESPresense-Companion-compatible feed (`espresense`; default `false`).
    public var espresense: Bool?

    /// The default base topic of the MQTT Room feed (Home Assistant's `mqtt_room` default).
    public static let defaultRoomTopic = "room_presence"

    /// Nothing set.
    public init() {}

    /// `true` when no host is described.
    public var isEmpty: Bool { (hosts ?? []).isEmpty }

    /// These settings with every value set in `other` replacing this one's (hosts and rooms as
    /// a whole).
    public func overridden(by other: HouseSettings) -> HouseSettings {
        var result = self
        result.hosts = other.hosts ?? hosts
        result.rooms = other.rooms ?? rooms
        result.awayAfter = other.awayAfter ?? awayAfter
        result.roomMargin = other.roomMargin ?? roomMargin
        result.roomDwell = other.roomDwell ?? roomDwell
        result.tagHeight = other.tagHeight ?? tagHeight
        result.roomTopic = other.roomTopic ?? roomTopic
        result.espresense = other.espresense ?? espresense
        return result
    }

    /// The checked plan.
    /// - Throws: `HousePlanError` (the file's checks already passed, so only for
    ///   settings built in code).
    public func plan() throws(HousePlanError) -> HousePlan {
        try HousePlan(hosts: hosts ?? [], rooms: rooms ?? [])
    }

    /// The fusion's parameters with these settings.
    public var fusionParameters: FusionParameters {
        var parameters = FusionParameters()
        if let awayAfter { parameters.awayAfter = awayAfter }
        if let roomMargin { parameters.roomMargin = roomMargin }
        if let roomDwell { parameters.roomDwell = roomDwell }
        if let tagHeight { parameters.tagHeight = tagHeight }
        return parameters
    }

    /// The MQTT Room feed's base topic, `nil` when off.
    public var effectiveRoomTopic: String? {
        let topic = roomTopic ?? Self.defaultRoomTopic
        return topic.isEmpty ? nil : topic
    }

    /// The room in which the host publishing as topic level `level` stands (its Home
    /// Assistant device's `suggested_area`), `nil` if the house does not place it in one.
    public func room(ofHost level: String) -> String? {
        guard let host = hosts?.first(where: { MQTTTopic.level($0.name) == level }) else { return nil }
        return rooms?.first { $0.floor == host.floor && $0.polygon.contains(host.position) }?.name
    }

    /// `[[house.host]]` lines for `hosts` (what `nearby house survey` writes).
    public static func hostLines(_ hosts: [HouseHost]) -> String {
        hosts.map { host in
            var lines = ["[[house.host]]", "name = \"\(host.name)\"", "x = \(Self.number(host.position.x))", "y = \(Self.number(host.position.y))"]
            if host.height != HouseHost.defaultHeight { lines.append("z = \(Self.number(host.height))") }
            if let heading = host.heading { lines.append("heading_deg = \(Self.number((heading * 10).rounded() / 10))") }
            lines.append("floor = \(host.floor)")
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n"
    }

    private static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return "\(Int(rounded)).0" }
        return "\(rounded)"
    }
}

extension ConfigurationFile {
    static func house(_ table: TOMLTable, _ d: ConfigDecoder) -> HouseSettings {
        let path = "house"
        d.rejectUnknownKeys(
            table, at: path, allowed: ["host", "room", "away_after", "room_margin", "room_dwell", "tag_height", "room_topic", "espresense"])
        var settings = HouseSettings()
        settings.awayAfter = d.number(table, "away_after", at: path, expected: "seconds > 0, e.g. 30") { $0 > 0 }
        settings.roomMargin = d.number(table, "room_margin", at: path, expected: "metres ≥ 0, e.g. 0.25") { $0 >= 0 && $0 <= 5 }
        settings.roomDwell = d.number(table, "room_dwell", at: path, expected: "seconds ≥ 0, e.g. 0") { $0 >= 0 && $0 <= 60 }
        settings.tagHeight = d.number(table, "tag_height", at: path, expected: "metres, e.g. 1.0") { $0 >= -10 && $0 <= 10 }
        if let topic = d.string(table, "room_topic", at: path, expected: "a topic such as \"room_presence\" (\"\" turns the feed off)") {
            if topic.contains(where: { $0 == "+" || $0 == "#" }) || topic.hasPrefix("/") || topic.hasSuffix("/") {
                d.issue("house.room_topic", "'\(topic)' is not a topic to publish under: no '+', '#', or '/' at either end")
            } else {
                settings.roomTopic = topic
            }
        }
        settings.espresense = d.bool(table, "espresense", at: path)
        var hosts: [HouseHost] = []
        var rooms: [HouseRoom] = []
        var valid = true
        if let value = table["host"] {
            if let array = value.array {
                for (offset, element) in array.enumerated() {
                    let p = "house.host[\(offset + 1)]"
                    guard let host = element.table else {
                        d.issue(p, "expected a [[house.host]] table, found \(ConfigDecoder.describe(element))")
                        valid = false
                        continue
                    }
                    d.rejectUnknownKeys(host, at: p, allowed: ["name", "x", "y", "z", "heading_deg", "floor"])
                    let name = d.string(host, "name", at: p, expected: "the name the host publishes as ([mqtt] host_name), e.g. \"hall\"")
                    let x = d.number(host, "x", at: p, expected: "metres east, e.g. 0.0") { $0.isFinite }
                    let y = d.number(host, "y", at: p, expected: "metres north, e.g. 0.0") { $0.isFinite }
                    let z = d.number(host, "z", at: p, expected: "the kit's height above its floor, metres, e.g. 0.8") { $0 >= -10 && $0 <= 50 }
                    let heading = d.number(host, "heading_deg", at: p, expected: "degrees clockwise from north (the +y axis), e.g. 90") { $0 >= -360 && $0 <= 360 }
                    let floor = d.integer(host, "floor", at: p, expected: "a floor number, e.g. 0") { (-10...100).contains($0) }
                    for (key, present) in [("name", name != nil || host["name"] != nil), ("x", host["x"] != nil), ("y", host["y"] != nil)] where !present {
                        d.issue(p, "missing key '\(key)' (each [[house.host]] needs name, x and y)")
                    }
                    guard let name, let x, let y else {
                        valid = false
                        continue
                    }
                    if name.isEmpty || name.contains(where: { $0 == "/" || $0 == "+" || $0 == "#" }) {
                        d.issue(p + ".name", "'\(name)' cannot be a host name: it must be non-empty, without '/', '+' or '#'")
                        valid = false
                        continue
                    }
                    hosts.append(
                        HouseHost(
                            name: name, position: PlanePoint(x: x, y: y), height: z ?? HouseHost.defaultHeight, heading: heading, floor: floor ?? 0))
                }
            } else {
                d.issue("house.host", "expected an array of tables ([[house.host]] sections), found \(ConfigDecoder.describe(value))")
                valid = false
            }
        }
        if let value = table["room"] {
            if let array = value.array {
                for (offset, element) in array.enumerated() {
                    let p = "house.room[\(offset + 1)]"
                    guard let room = element.table else {
                        d.issue(p, "expected a [[house.room]] table, found \(ConfigDecoder.describe(element))")
                        valid = false
                        continue
                    }
                    d.rejectUnknownKeys(room, at: p, allowed: ["name", "floor", "polygon"])
                    let name = d.string(room, "name", at: p, expected: "the room's name, e.g. \"kitchen\"")
                    let floor = d.integer(room, "floor", at: p, expected: "a floor number, e.g. 0") { (-10...100).contains($0) }
                    if room["name"] == nil { d.issue(p, "missing key 'name' (each [[house.room]] needs name and polygon)") }
                    var corners: [PlanePoint]?
                    if let polygon = room["polygon"] {
                        corners = Self.corners(polygon)
                        if corners == nil {
                            d.issue(p + ".polygon", "expected the corners as [x, y] pairs in metres, in order around the room, e.g. [[0, 0], [4, 0], [4, 3], [0, 3]]")
                        }
                    } else {
                        d.issue(p, "missing key 'polygon' (the corners, e.g. [[0, 0], [4, 0], [4, 3], [0, 3]])")
                    }
                    guard let name, let corners else {
                        valid = false
                        continue
                    }
                    if name.isEmpty || name.contains(where: { $0 == "/" || $0 == "+" || $0 == "#" }) {
                        d.issue(p + ".name", "'\(name)' cannot be a room name: it must be non-empty, without '/', '+' or '#'")
                        valid = false
                        continue
                    }
                    let polygon = RoomPolygon(corners)
                    if let problem = polygon.problem {
                        d.issue(p + ".polygon", problem)
                        valid = false
                        continue
                    }
                    rooms.append(HouseRoom(name: name, floor: floor ?? 0, polygon: polygon))
                }
            } else {
                d.issue("house.room", "expected an array of tables ([[house.room]] sections), found \(ConfigDecoder.describe(value))")
                valid = false
            }
        }
        if valid {
            do {
                _ = try HousePlan(hosts: hosts, rooms: rooms)
            } catch {
                d.issue("house", error.description)
            }
        }
        if table["host"] != nil { settings.hosts = hosts }
        if table["room"] != nil { settings.rooms = rooms }
        return settings
    }

    /// `[[x, y], ...]` as points, `nil` if it is anything else.
    private static func corners(_ value: any TOMLValueConvertible) -> [PlanePoint]? {
        guard let array = value.array else { return nil }
        var points: [PlanePoint] = []
        for element in array {
            guard let pair = element.array, pair.count == 2 else { return nil }
            let numbers = pair.compactMap { item -> Double? in item.double ?? item.int.map(Double.init) }
            guard numbers.count == 2, numbers.allSatisfy(\.isFinite) else { return nil }
            points.append(PlanePoint(x: numbers[0], y: numbers[1]))
        }
        return points
    }

    /// The house of the file at `path` (a configuration file, or one holding only the
    /// `[house]` tables), for `--house FILE`.
    /// - Throws: ``ConfigError`` as for ``load(path:validators:)``; a file without
    ///   `[[house.host]]` is an error.
    public static func loadHouse(path: String) throws(ConfigError) -> HouseSettings {
        let house = try load(path: path).configuration.house
        guard !house.isEmpty else {
            throw ConfigError(
                source: path, issues: [ConfigIssue(line: 1, key: "house", message: "no [[house.host]] in this file; describe the hosts (specs/house.md)")])
        }
        return house
    }
}
