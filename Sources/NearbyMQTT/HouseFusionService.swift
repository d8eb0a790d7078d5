import Foundation
public import MQTT
public import NearbyBase
import NearbyRuntime
public import Positioning
import Synchronization

/// One published position of an accessory of the house.
public struct HousePosition: Sendable, Hashable {
    /// The accessory's topic level.
    public var level: String
    /// Its id (as the hosts publish it).
    public var accessory: String
    /// Its display name.
    public var name: String
    /// The fused state.
    public var fused: FusedPosition

    /// The retained payload of `<prefix>/house/<accessory>/position` (specs/house.md):
    /// `accessory`, `name`, `time`, `x_m`, `y_m`, `floor`, `room` (`null` outside every room),
    /// `accuracy_m`, `hosts`, `state` (the room, `home` in none, `not_home`), `presence`,
    /// `speed_mps`.
    public var json: JSONObject { JSONObject(fields) }

    private var fields: [(String, JSONObject.Value)] {
        [
            ("accessory", .string(accessory)), ("name", .string(name)), ("time", .number(fused.time, decimals: 3)),
            ("x_m", .number(fused.point?.x, decimals: 3)), ("y_m", .number(fused.point?.y, decimals: 3)), ("floor", .integer(fused.floor)),
            ("room", .string(fused.room)), ("accuracy_m", .number(fused.accuracy, decimals: 3)),
            ("hosts", .raw(HomeAssistantDiscovery.array(fused.hosts))), ("state", .string(fused.trackerState)),
            ("presence", .string(fused.presence.rawValue)), ("speed_mps", .number(fused.velocity?.length, decimals: 2)),
        ]
    }

    /// The `--json` line: the payload with `"event":"position"` first.
    public var jsonLine: String { JSONObject([("event", .string("position"))] + fields).text }

    /// `Keys: kitchen (1.20, 3.05) ±0.14 m, 3 hosts` or `Keys: not_home`.
    public var text: String {
        guard fused.presence == .home, let point = fused.point else { return "\(name): \(fused.trackerState)" }
        let accuracy = fused.accuracy.map { " ±" + DecimalText.fixed($0, 2) + " m" } ?? ""
        return "\(name): \(fused.trackerState) \(point)\(accuracy), \(fused.hosts.count) host\(fused.hosts.count == 1 ? "" : "s")"
    }
}

/// How ``HouseFusionService`` publishes.
public struct HouseFusionOptions: Sendable {
    /// The house.
    public var plan: HousePlan
    /// The fusion's parameters.
    public var parameters = FusionParameters()
    /// Home Assistant discovery of the house.
    public var discovery = true
    /// Home Assistant's discovery prefix.
    public var discoveryPrefix = HomeAssistantDiscovery.defaultPrefix
    /// The MQTT Room feed's base topic (`nil`: off).
    public var roomTopic: String? = HouseSettingsDefaults.roomTopic
    /// The ESPresense-Companion-compatible feed.
    public var espresense = false
    /// Most positions published per accessory per second (room and presence changes go out at once).
    public var positionRate = 2.0
    /// Seconds after which an unchanged position is published again.
    public var heartbeat = 60.0
    /// `nearby`'s version.
    public var softwareVersion = "0.1.0"

    /// Options for `plan`.
    public init(plan: HousePlan) { self.plan = plan }
}

/// Defaults shared with the configuration.
public enum HouseSettingsDefaults {
    /// Home Assistant's `mqtt_room` default base topic.
    public static let roomTopic = "room_presence"
}

/// The fusion of `nearby watch --house` (specs/house.md): every host state of the house goes
/// into one `AccessoryFusion` per accessory (hosts matched by topic level), each
/// state's `time` shifted by its host's clock offset when one is detected
/// (`ClockSkewEstimator`); the results go out as
///
/// - `<prefix>/house/<accessory>/position` (retained JSON, ``HousePosition/json``): at once on a
///   room or presence change, else at most ``HouseFusionOptions/positionRate`` per second and
///   every ``HouseFusionOptions/heartbeat`` seconds;
/// - Home Assistant discovery (``HouseDiscovery``), again after Home Assistant's birth message;
/// - the MQTT Room feed: `<room topic>/<room>` `{"id","name","distance"}` (Home Assistant's
///   `mqtt_room` / room-assistant format), `distance` the metres from the position to the room
///   (0 inside); on a room change the old room first with its distance, then the new one, so
///   `mqtt_room` follows the fused room and its hysteresis;
/// - with ``HouseFusionOptions/espresense``: each host's range as an ESPresense node would send
///   it (`espresense/devices/<accessory>/<host>`), for ESPresense Companion's map.
///
/// Thread-safe; ``observe(_:in:arrival:)`` is called in message order by ``HouseWatch``.
public final class HouseFusionService: Sendable {
    /// The options.
    public let options: HouseFusionOptions
    /// The discovery.
    public let discovery: HouseDiscovery
    private let client: MQTTClient
    private let output: @Sendable (HousePosition) -> Void
    private let notes: @Sendable (String) -> Void
    private let state: Mutex<State>
    private let ticker = Mutex<Task<Void, Never>?>(nil)

    private struct Accessory {
        var fusion: AccessoryFusion
        var id: String
        var name: String
        var lastPublished: Double?
        var announced = false
        var lastMessage: MQTTMessage?
    }

    private struct State {
        var accessories: [String: Accessory] = [:]
        var skews: [String: ClockSkewEstimator] = [:]
        var reportedSkew: [String: Double] = [:]
        var offline: [String: Double] = [:]
        /// When each host's last `range` message arrived.
        var ranged: [String: Double] = [:]
    }

    /// The plan with host names as topic levels (what the hosts publish as).
    private let plan: HousePlan

    /// - Parameters:
    ///   - options: the house and how to publish.
    ///   - topicPrefix: the hosts' first topic level.
    ///   - client: the watcher's client (with the house's will and birth).
    ///   - output: receives every position published (for `--json` and the screen).
    ///   - notes: receives notes for people (a host's clock skew).
    public init(
        options: HouseFusionOptions, topicPrefix: String, client: MQTTClient, output: @escaping @Sendable (HousePosition) -> Void = { _ in },
        notes: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.options = options
        self.client = client
        self.output = output
        self.notes = notes
        discovery = HouseDiscovery(prefix: options.discoveryPrefix, topicPrefix: topicPrefix, softwareVersion: options.softwareVersion)
        let hosts = options.plan.hosts.map { host in
            HouseHost(name: MQTTTopic.level(host.name), position: host.position, height: host.height, heading: host.heading, floor: host.floor)
        }
        plan = (try? HousePlan(hosts: hosts, rooms: options.plan.rooms)) ?? options.plan
        state = Mutex(State())
    }

    /// The will and birth the watcher's client needs: `offline` / `online` on the house's
    /// status topic.
    public static func configure(_ configuration: inout MQTTClientConfiguration, topicPrefix: String) {
        let status = HouseDiscovery(topicPrefix: topicPrefix, softwareVersion: "").statusTopic
        configuration.will = MQTTMessage(topic: status, text: "offline", qos: .atLeastOnce, retain: true)
        configuration.birth = MQTTMessage(topic: status, text: "online", qos: .atLeastOnce, retain: true)
    }

    /// Subscribes to Home Assistant's birth message, announces the house and starts the clock
    /// that turns silence into `not_home` (every 0.25 s). Call before the client starts.
    public func start() {
        client.subscribe(discovery.birthTopic)
        if options.discovery { client.publish(discovery.houseConfig()) }
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                self?.tick(now: WallClock.now())
            }
        }
        ticker.withLock { $0 = task }
    }

    /// Stops the clock.
    public func stop() {
        ticker.withLock { $0?.cancel() }
    }

    /// Takes one understood message of the house; `arrival` is the watcher's clock when it came.
    public func observe(_ update: HouseUpdate, in house: HouseView, arrival: Double) {
        switch update.kind {
        case .status:
            let offline = house.host(update.host)?.online == false
            state.withLock { state in
                guard offline else {
                    state.offline[update.host] = nil
                    return
                }
                state.offline[update.host] = state.offline[update.host] ?? arrival
                for key in state.accessories.keys { state.accessories[key]?.fusion.hostOffline(update.host, at: arrival) }
            }
        case .state:
            guard let level = update.accessory, let accessory = house.accessory(host: update.host, level: level), let time = accessory.time else { return }
            let published: HousePosition? = state.withLock { state in
                let correction = clockCorrection(&state, host: update.host, time: time, arrival: update.retained ? nil : arrival)
                // A host that publishes its samples on `range` gives positions there; its states then say only whether it hears.
                let ranged = state.ranged[update.host].map { arrival - $0 < 3 } ?? false
                let report = HostReport(
                    host: update.host, time: time + correction, tracking: accessory.tracking == "tracking", range: ranged ? nil : accessory.rawDistance,
                    smoothedRange: ranged ? nil : accessory.distance, azimuth: ranged ? nil : accessory.azimuth, figureOfMerit: accessory.figureOfMerit,
                    nonLineOfSight: accessory.nlos ?? false, lastSeen: accessory.lastSeen.map { $0 + correction })
                return apply(report, level: level, accessory: accessory, offlineSince: state.offline[update.host].map { min($0, time) }, state: &state)
            }
            if let published { output(published) }
            if options.espresense, let range = accessory.distance ?? accessory.rawDistance, accessory.tracking == "tracking" {
                client.publish(Self.espresenseMessage(level: level, id: accessory.id ?? level, name: accessory.name, host: update.host, distance: range))
            }
        case .range:
            guard let level = update.accessory, let accessory = house.accessory(host: update.host, level: level), let range = accessory.range,
                !update.retained
            else { return }
            let published: HousePosition? = state.withLock { state in
                state.ranged[update.host] = arrival
                guard state.offline[update.host] == nil else { return nil }
                let correction = clockCorrection(&state, host: update.host, time: range.time, arrival: arrival)
                let report = HostReport(
                    host: update.host, time: range.time + correction, tracking: accessory.tracking != "lost", range: range.distance, azimuth: range.azimuth,
                    figureOfMerit: range.figureOfMerit, nonLineOfSight: range.nlos ?? false, lastSeen: range.time + correction)
                return apply(report, level: level, accessory: accessory, offlineSince: nil, state: &state)
            }
            if let published { output(published) }
        case .event, .distance:
            break
        }
    }

    /// The fusion of `level` takes `report`; what to publish, if anything.
    private func apply(_ report: HostReport, level: String, accessory: HouseView.Accessory, offlineSince: Double?, state: inout State) -> HousePosition? {
        var entry = state.accessories[level]
            ?? Accessory(fusion: AccessoryFusion(plan: plan, parameters: options.parameters), id: accessory.id ?? level, name: accessory.name)
        entry.name = accessory.name
        if let id = accessory.id { entry.id = id }
        let change = entry.fusion.apply(report, offlineSince: offlineSince)
        let result = publishIfDue(&entry, level: level, change: change, force: false)
        state.accessories[level] = entry
        return result
    }

    /// The correction of `host`'s times (`ClockSkewEstimator`), after adding a
    /// live message sent at `time` that arrived at `arrival` (`nil`: retained); says once when
    /// the host's clock is off.
    private func clockCorrection(_ state: inout State, host: String, time: Double, arrival: Double?) -> Double {
        var skew = state.skews[host] ?? ClockSkewEstimator()
        if let arrival { skew.add(time: time, arrival: arrival) }
        state.skews[host] = skew
        if let offset = skew.offset, abs(offset) > skew.tolerance, abs(offset - (state.reportedSkew[host] ?? 0)) > 0.25 {
            state.reportedSkew[host] = offset
            let direction = offset < 0 ? "ahead of" : "behind"
            notes(
                "house: host \(host)'s clock is \(DecimalText.fixed(abs(offset), 2)) s \(direction) this machine's (its states arrive \(offset < 0 ? "before their time" : "late")); its times are shifted by \(DecimalText.fixed(offset, 2)) s. Run NTP on every host (chrony or systemd-timesyncd).")
        }
        return skew.correction
    }

    /// Applies the passage of time (presence) at `now` (the watcher's wall clock).
    public func tick(now: Double) {
        let published: [HousePosition] = state.withLock { state in
            var results: [HousePosition] = []
            for level in state.accessories.keys.sorted() {
                guard var entry = state.accessories[level] else { continue }
                let change = entry.fusion.tick(now: now)
                let heartbeat = entry.fusion.current.presence == .home && options.heartbeat > 0
                    && now - (entry.lastPublished ?? now) >= options.heartbeat
                if let result = publishIfDue(&entry, level: level, change: change, force: heartbeat) { results.append(result) }
                state.accessories[level] = entry
            }
            return results
        }
        for position in published { output(position) }
    }

    /// Home Assistant came online: every config and position again.
    public func reannounce() {
        let messages: [MQTTMessage] = state.withLock { state in
            var messages: [MQTTMessage] = options.discovery ? [discovery.houseConfig()] : []
            for level in state.accessories.keys.sorted() {
                guard let entry = state.accessories[level], entry.announced else { continue }
                if options.discovery { messages.append(discovery.accessoryConfig(level: level, name: entry.name)) }
                if let last = entry.lastMessage { messages.append(last) }
            }
            return messages
        }
        for message in messages { client.publish(message) }
    }

    /// The positions now, by accessory level.
    public var positions: [HousePosition] {
        state.withLock { state in
            state.accessories.keys.sorted().compactMap { level in
                state.accessories[level].map { HousePosition(level: level, accessory: $0.id, name: $0.name, fused: $0.fusion.current) }
            }
        }
    }

    /// The clock offsets estimated so far, by host level (seconds to add to its times).
    public var clockOffsets: [String: Double] {
        state.withLock { state in state.skews.compactMapValues(\.offset) }
    }

    // MARK: Publishing (under the lock; the client never blocks)

    private func publishIfDue(_ entry: inout Accessory, level: String, change: FusionChange, force: Bool) -> HousePosition? {
        let fused = entry.fusion.current
        guard fused.presence == .home ? fused.point != nil : change.presence else { return nil }
        let urgent = change.room || change.presence || entry.lastPublished == nil
        let due = change.position && fused.time - (entry.lastPublished ?? -Double.infinity) >= 1 / max(options.positionRate, 0.001)
        guard urgent || due || force else { return nil }
        if !entry.announced {
            entry.announced = true
            if options.discovery { client.publish(discovery.accessoryConfig(level: level, name: entry.name)) }
        }
        entry.lastPublished = force ? WallClock.now() : fused.time
        let position = HousePosition(level: level, accessory: entry.id, name: entry.name, fused: fused)
        if let topic = options.roomTopic {
            if change.room, let previous = change.previousRoom, let room = plan.room(named: previous) {
                let outside = fused.point.map { max(0, -room.polygon.depth($0)) } ?? 100
                client.publish(roomMessage(topic: topic, room: previous, entry: entry, distance: outside))
            }
            if fused.presence == .home, let room = fused.room {
                client.publish(roomMessage(topic: topic, room: room, entry: entry, distance: 0))
            }
        }
        let message = MQTTMessage(topic: discovery.positionTopic(level), text: position.json.text, qos: .atMostOnce, retain: true, format: .json)
        entry.lastMessage = message
        client.publish(message)
        return position
    }

    private func roomMessage(topic: String, room: String, entry: Accessory, distance: Double) -> MQTTMessage {
        let payload = JSONObject([("id", .string(entry.id)), ("name", .string(entry.name)), ("distance", .number(distance, decimals: 2))])
        return MQTTMessage(topic: "\(topic)/\(room)", text: payload.text, qos: .atMostOnce, retain: false, format: .json)
    }

    /// An ESPresense node's device message (ESPresense Companion reads
    /// `espresense/devices/<device>/<node>` with `id`, `name`, `distance`).
    static func espresenseMessage(level: String, id: String, name: String, host: String, distance: Double) -> MQTTMessage {
        let payload = JSONObject([
            ("id", .string(level)), ("name", .string(name)), ("distance", .number(distance, decimals: 2)), ("var", .number(0.01, decimals: 2)),
        ])
        return MQTTMessage(topic: "espresense/devices/\(level)/\(host)", text: payload.text, qos: .atMostOnce, retain: false, format: .json)
    }
}
