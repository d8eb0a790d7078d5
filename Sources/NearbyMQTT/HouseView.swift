import Foundation
public import MQTT
import NearbyBase

/// One message of `nearby watch`, understood: which host and accessory it is about and what
/// kind it is (specs/mqtt.md, "nearby watch").
public struct HouseUpdate: Sendable, Hashable, CustomStringConvertible {
    /// What the topic carries.
    public enum Kind: String, Sendable, Hashable {
        /// `<prefix>/<host>/status`: `online` / `offline`.
        case status
        /// `<prefix>/<host>/<accessory>/state`: retained JSON.
        case state
        /// `<prefix>/<host>/<accessory>/event`: JSON.
        case event
        /// `<prefix>/<host>/<accessory>/distance`: metres.
        case distance
        /// `<prefix>/<host>/<accessory>/range`: JSON, one measured sample.
        case range
    }

    /// The kind.
    public var kind: Kind
    /// The host's level.
    public var host: String
    /// The accessory's level (`nil` for a status).
    public var accessory: String?
    /// The topic.
    public var topic: String
    /// The payload as text.
    public var payload: String
    /// `true` if the payload parsed as a JSON object.
    public var payloadIsJSON: Bool
    /// `true` for a retained message (the broker's stored value, sent on subscribing).
    public var retained: Bool
    /// A line for people: `hall: online`, `hall sim-1: entered near from mid (0.94 m)`.
    public var text: String

    /// The NDJSON line of `nearby watch --json`: `host`, `accessory`, `kind`, `topic`,
    /// `retained` and `payload` (the JSON object itself, a number for `distance`, else a string).
    public var jsonLine: String {
        let value: JSONObject.Value =
            payloadIsJSON
            ? .raw(payload)
            : (kind == .distance ? Double(payload).map { .number($0, decimals: 3) } ?? .string(payload) : .string(payload))
        return JSONObject([
            ("host", .string(host)), ("accessory", .string(accessory)), ("kind", .string(kind.rawValue)), ("topic", .string(topic)),
            ("retained", .bool(retained)), ("payload", value),
        ]).text
    }

    public var description: String { text }
}

/// The house as `nearby watch` sees it: every host publishing under a topic prefix, online or
/// not, and each host's accessories with their last state and event. Feed it every message of
/// `<prefix>/#` (``apply(_:)``); read ``hosts`` and ``accessories`` or the ``table()``.
public struct HouseView: Sendable {
    /// A host.
    public struct Host: Sendable, Hashable {
        /// Its level.
        public var name: String
        /// `true` online, `false` offline, `nil` unknown.
        public var online: Bool?
    }

    /// An accessory as one host sees it.
    public struct Accessory: Sendable, Hashable {
        /// The host's level.
        public var host: String
        /// The accessory's level.
        public var level: String
        /// The display name (from the state).
        public var name: String
        /// The accessory's id (the state's `accessory`), `nil` before a state said it.
        public var id: String?
        /// Wall-clock time of the host's last measured sample (`last_seen`).
        public var lastSeen: Double?
        /// The last measured sample of the `range` topic.
        public var range: Range?

        /// One measured sample as a host published it on `range`.
        public struct Range: Sendable, Hashable {
            /// Wall-clock time of the sample (Unix seconds, the host's clock).
            public var time: Double
            /// Metres.
            public var distance: Double
            /// Degrees, positive to the right of the kit's boresight.
            public var azimuth: Double?
            /// 0 ... 100.
            public var figureOfMerit: Int?
            /// The NLoS flag.
            public var nlos: Bool?
        }
        /// The zone, `nil` for none.
        public var zone: String?
        /// Smoothed distance, metres.
        public var distance: Double?
        /// The last measured distance, metres (before smoothing).
        public var rawDistance: Double?
        /// Rate of change of the distance, m/s (positive = moving away).
        public var velocity: Double?
        /// Azimuth, degrees.
        public var azimuth: Double?
        /// Elevation, degrees.
        public var elevation: Double?
        /// Confidence of the last update, 0 ... 1.
        public var confidence: Double?
        /// Angle figure of merit of the last usable sample, 0 ... 100 (`nil`: the kit sends none).
        public var figureOfMerit: Int?
        /// NLoS flag of the last usable sample.
        public var nlos: Bool?
        /// Usable samples per second.
        public var updateRate: Double?
        /// Updates the host has seen.
        public var updates: Int?
        /// Zone changes into a zone.
        public var zoneChanges: Int?
        /// Recovery tries.
        public var retries: Int?
        /// Tracking state (`tracking`, `lost`, `waiting`).
        public var tracking: String?
        /// Session state (`ranging`, `retrying`, `stopped`, ...).
        public var session: String?
        /// Wall-clock time of the state (Unix seconds).
        public var time: Double?
        /// The last event in words.
        public var lastEvent: String?
    }

    /// The topic prefix.
    public let prefix: String
    private var hostTable: [String: Host] = [:]
    private var accessoryTable: [String: Accessory] = [:]

    /// An empty house for `prefix`.
    public init(prefix: String = MQTTTopics.defaultPrefix) {
        self.prefix = prefix
    }

    /// The hosts, by name.
    public var hosts: [Host] { hostTable.values.sorted { $0.name < $1.name } }

    /// The accessories, by host then name.
    public var accessories: [Accessory] {
        accessoryTable.values.sorted { ($0.host, $0.name, $0.level) < ($1.host, $1.name, $1.level) }
    }

    /// The host named `name` (a topic level), `nil` if nothing was heard from it.
    public func host(_ name: String) -> Host? { hostTable[name] }

    /// The accessory at `<prefix>/<host>/<level>/...`, `nil` if unknown (or removed).
    public func accessory(host: String, level: String) -> Accessory? { accessoryTable[host + "/" + level] }

    /// Applies one message.
    /// - Returns: what it was, or `nil` for a topic that is not part of the layout.
    public mutating func apply(_ message: MQTTMessage) -> HouseUpdate? {
        let levels = MQTTTopic.levels(message.topic)
        guard levels.first.map(String.init) == prefix else { return nil }
        let text = message.text
        if levels.count == 3, levels[2] == "status" {
            let host = String(levels[1])
            let online: Bool? = text == "online" ? true : text == "offline" ? false : nil
            hostTable[host] = Host(name: host, online: online)
            return HouseUpdate(
                kind: .status, host: host, accessory: nil, topic: message.topic, payload: text, payloadIsJSON: false, retained: message.retain,
                text: "\(host): \(text.isEmpty ? "(status cleared)" : text)")
        }
        guard levels.count == 4, let kind = HouseUpdate.Kind(rawValue: String(levels[3])), kind != .status else { return nil }
        let host = String(levels[1])
        let level = String(levels[2])
        if hostTable[host] == nil { hostTable[host] = Host(name: host, online: nil) }
        let key = host + "/" + level
        let object = Self.object(message.payload)
        var line: String
        switch kind {
        case .state:
            if message.payload.isEmpty {
                accessoryTable[key] = nil
                line = "\(host) \(level): removed"
            } else {
                var accessory = accessoryTable[key] ?? Accessory(host: host, level: level, name: level)
                if let object {
                    accessory.name = object["name"] as? String ?? accessory.name
                    accessory.id = object["accessory"] as? String ?? accessory.id
                    accessory.lastSeen = Self.number(object["last_seen"])
                    accessory.zone = object["zone"] as? String
                    accessory.distance = Self.number(object["distance_m"])
                    accessory.rawDistance = Self.number(object["raw_distance_m"])
                    accessory.velocity = Self.number(object["velocity_mps"])
                    accessory.azimuth = Self.number(object["azimuth_deg"])
                    accessory.elevation = Self.number(object["elevation_deg"])
                    accessory.confidence = Self.number(object["confidence"])
                    accessory.figureOfMerit = Self.integer(object["figure_of_merit"])
                    accessory.nlos = object["nlos"] as? Bool
                    accessory.updateRate = Self.number(object["update_rate_hz"])
                    accessory.updates = Self.integer(object["updates"])
                    accessory.zoneChanges = Self.integer(object["zone_changes"])
                    accessory.retries = Self.integer(object["retries"])
                    accessory.tracking = object["tracking"] as? String
                    accessory.session = object["session"] as? String
                    accessory.time = Self.number(object["time"])
                }
                accessoryTable[key] = accessory
                line = "\(host) \(accessory.name): \(accessory.zone ?? "no zone"), \(accessory.distance.map { DecimalText.fixed($0, 2) + " m" } ?? "no distance"), \(accessory.session ?? "?")"
            }
        case .event:
            let name = object?["name"] as? String ?? accessoryTable[key]?.name ?? level
            let words = object.map(Self.words) ?? text
            line = "\(host) \(name): \(words)"
            accessoryTable[key, default: Accessory(host: host, level: level, name: name)].lastEvent = words
        case .distance:
            let name = accessoryTable[key]?.name ?? level
            if let metres = Double(text) { accessoryTable[key, default: Accessory(host: host, level: level, name: name)].distance = metres }
            line = "\(host) \(name): \(text) m"
        case .range:
            let name = accessoryTable[key]?.name ?? level
            if let object, let time = Self.number(object["time"]), let distance = Self.number(object["distance_m"]) {
                accessoryTable[key, default: Accessory(host: host, level: level, name: name)].range = Accessory.Range(
                    time: time, distance: distance, azimuth: Self.number(object["azimuth_deg"]), figureOfMerit: Self.integer(object["figure_of_merit"]),
                    nlos: object["nlos"] as? Bool)
            }
            line = "\(host) \(name): range \(object.flatMap { Self.number($0["distance_m"]) }.map { DecimalText.fixed($0, 2) + " m" } ?? text)"
        case .status:
            return nil
        }
        return HouseUpdate(
            kind: kind, host: host, accessory: level, topic: message.topic, payload: text, payloadIsJSON: object != nil, retained: message.retain,
            text: line)
    }

    /// The house as a table: one line per accessory (host, status, name, zone, distance,
    /// direction, tracking, session, last update in local time), hosts without accessories
    /// on lines of their own.
    public func table() -> [String] {
        var rows = [["HOST", "STATUS", "ACCESSORY", "ZONE", "DISTANCE", "AZIMUTH", "TRACKING", "SESSION", "UPDATED", "LAST EVENT"]]
        let byHost = Dictionary(grouping: accessories, by: \.host)
        for host in hosts {
            let status = host.online.map { $0 ? "online" : "offline" } ?? "?"
            let list = byHost[host.name] ?? []
            if list.isEmpty { rows.append([host.name, status, "-", "", "", "", "", "", "", ""]) }
            for accessory in list {
                rows.append([
                    host.name, status, accessory.name, accessory.zone ?? "-", accessory.distance.map { DecimalText.fixed($0, 2) + " m" } ?? "-",
                    accessory.azimuth.map { DecimalText.fixed($0, 0) + "°" } ?? "-", accessory.tracking ?? "-", accessory.session ?? "-",
                    accessory.time.map(Self.clock) ?? "-", accessory.lastEvent ?? "",
                ])
            }
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }

    /// `entered near from mid (0.94 m)`, `lost in far`, `found`, `retry: restart (try 1 of 5)`.
    static func words(_ object: [String: Any]) -> String {
        let distance = number(object["distance_m"]).map { " (\(DecimalText.fixed($0, 2)) m)" } ?? ""
        switch object["type"] as? String {
        case "zone":
            let to = object["to"] as? String
            let from = object["from"] as? String
            if let to { return "entered \(to)" + (from.map { " from \($0)" } ?? "") + distance }
            return "left \(from ?? "its zone")" + distance
        case "lost":
            return "lost" + ((object["zone"] as? String).map { " in \($0)" } ?? "")
        case "found":
            return "found" + distance
        case "retry":
            let attempt = (object["attempt"] as? NSNumber)?.intValue ?? 0
            let maximum = (object["max_attempts"] as? NSNumber)?.intValue ?? 0
            return "retry: \(object["action"] as? String ?? "?") (\(object["reason"] as? String ?? "?"), try \(attempt) of \(maximum))"
        case let other:
            return other ?? "event"
        }
    }

    /// A payload that is a JSON object, parsed; `nil` for anything else.
    static func object(_ payload: [UInt8]) -> [String: Any]? {
        guard payload.first == UInt8(ascii: "{") else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
    }

    /// A JSON number, `nil` for anything else (`null`, a string).
    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    private static func integer(_ value: Any?) -> Int? { number(value).flatMap { $0.isFinite ? Int(exactly: $0.rounded()) : nil } }

    /// `14:03:27` in local time.
    static func clock(_ unix: Double) -> String {
        var seconds = time_t(unix)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
