import Foundation
public import NIProtocol
public import NearbyBase
public import NearbyRuntime
public import Ranging
import Synchronization

/// The house of `nearby watch` in the vocabulary of a run's outputs, for views made for a run
/// (the web view of `nearby watch --web`): each (host, accessory) becomes an
/// `AccessoryStatus` and each event a log object like `RunJSON`'s.
///
/// - An accessory's ID is `<host>/<accessory level>` (`hall/sim-1`), its name
///   `<name> @ <host>` (`sim-1 @ hall`).
/// - The events' clock is the wall clock (Unix seconds, what the hosts put in `time`); ``context``
///   starts when the feed was made, so `t_s` counts seconds since the watch started (0 for a
///   retained state from before).
/// - A zone is matched by name to the zone map given (the watcher's `[zones]`, whose rings the
///   view draws); a zone this map does not have gets the index after its last zone.
///
/// Feed it with ``observe(_:in:)`` (``HouseWatch``'s observer); it calls `status` for every
/// retained or live state, distance and host status change, and `log` for every event, host
/// status and session change. Thread-safe; never blocks beyond its own small lock.
public final class HouseFeed: Sendable {
    /// The zones and the clocks: no accessories announced, start = wall-clock start.
    public let context: RunContext
    private let onStatus: @Sendable (AccessoryStatus) -> Void
    private let onLog: @Sendable (JSONObject, Double?) -> Void
    /// The last session state and name seen per accessory ID (a change goes to the log).
    private let sessions = Mutex<[String: (state: String, identity: AccessoryIdentity)]>([:])

    /// - Parameters:
    ///   - zones: the zone map of the view (`[zones]`).
    ///   - start: the wall-clock time `t_s` counts from (Unix seconds; default now).
    ///   - status: receives an accessory's status after every change.
    ///   - log: receives an event object and its time (Unix seconds) for the log.
    public init(
        zones: ZoneMap, start: Double = WallClock.now(), status: @escaping @Sendable (AccessoryStatus) -> Void,
        log: @escaping @Sendable (JSONObject, Double?) -> Void
    ) {
        context = RunContext(accessories: [], zones: zones, start: start, wallStart: start)
        onStatus = status
        onLog = log
    }

    /// The identity of an accessory of a host: ID `hall/sim-1`, name `Keys @ hall`.
    public static func identity(host: String, level: String, name: String) -> AccessoryIdentity {
        AccessoryIdentity(id: host + "/" + level, displayName: name + " @ " + host)
    }

    /// An accessory of the house as a status: the host's values from its retained `state`
    /// (session, tracking, distances, direction, rate, counts) and `time` as the last update.
    /// - Parameters:
    ///   - accessory: the accessory as one host hears it.
    ///   - hostOnline: `false` adds `(host offline)` to the session detail.
    public func status(of accessory: HouseView.Accessory, hostOnline: Bool?) -> AccessoryStatus {
        var status = AccessoryStatus(identity: Self.identity(host: accessory.host, level: accessory.level, name: accessory.name))
        status.sessionState = accessory.session ?? "unknown"
        status.sessionDetail = status.sessionState + (hostOnline == false ? " (\(accessory.host) offline)" : "")
        switch accessory.tracking {
        case "tracking": status.tracking = .tracking
        case "lost": status.tracking = .lost
        default: status.tracking = .waiting
        }
        status.distance = accessory.distance
        status.rawDistance = accessory.rawDistance
        status.lastDistance = accessory.distance
        status.velocity = accessory.velocity
        status.azimuth = accessory.azimuth
        status.elevation = accessory.elevation
        status.confidence = accessory.confidence ?? 0
        status.zone = accessory.zone.map { name in
            ZoneRef(index: context.zones.zones.firstIndex { $0.name == name } ?? context.zones.zones.count, name: name)
        }
        status.figureOfMerit = accessory.figureOfMerit.flatMap { UInt8(exactly: $0) }
        status.isNonLineOfSight = accessory.nlos
        status.updateRate = accessory.updateRate ?? 0
        status.lastUpdate = accessory.time
        status.updates = accessory.updates ?? 0
        status.zoneChanges = accessory.zoneChanges ?? 0
        status.retries = accessory.retries ?? 0
        return status
    }

    /// Turns one update of the house into statuses and log entries. `house` is the view right
    /// after `update` was applied.
    public func observe(_ update: HouseUpdate, in house: HouseView) {
        let now = WallClock.now()
        switch update.kind {
        case .status:
            let online = house.host(update.host)?.online
            for accessory in house.accessories where accessory.host == update.host { onStatus(status(of: accessory, hostOnline: online)) }
            onLog(note("\(update.host): \(update.payload.isEmpty ? "status cleared" : update.payload)", host: update.host, at: now), now)
        case .state:
            guard let level = update.accessory else { return }
            guard let accessory = house.accessory(host: update.host, level: level) else {
                removed(host: update.host, level: level, at: now)
                return
            }
            let current = status(of: accessory, hostOnline: house.host(update.host)?.online)
            let previous = sessions.withLock { $0.updateValue((current.sessionState, current.identity), forKey: current.identity.id)?.state }
            if let previous, previous != current.sessionState {
                let time = accessory.time ?? now
                var object = header(current.identity, event: "state", at: time)
                object.merge([("state", .string(current.sessionState)), ("detail", .string(current.sessionDetail)), ("host", .string(update.host))])
                onLog(object, time)
            }
            onStatus(current)
        case .range:
            return
        case .distance:
            guard let level = update.accessory, let accessory = house.accessory(host: update.host, level: level) else { return }
            onStatus(status(of: accessory, hostOnline: house.host(update.host)?.online))
        case .event:
            guard let level = update.accessory else { return }
            let name = house.accessory(host: update.host, level: level)?.name ?? level
            let (object, time) = event(update, identity: Self.identity(host: update.host, level: level, name: name), now: now)
            onLog(object, time)
        }
    }

    /// An event's log object: `t_s` on the feed's clock, `event` (the host's, `ranging` for a
    /// zone change, lost or found), the feed's `accessory` and `name`, then the host's keys
    /// (`type`, `from`, `to`, `zone`, `reason`, `action`, `attempt`, `max_attempts`, `delay_s`,
    /// `distance_m`, `host`, `time`) as far as present. A payload that is not a JSON object
    /// becomes a `note` with the payload as `message`.
    private func event(_ update: HouseUpdate, identity: AccessoryIdentity, now: Double) -> (JSONObject, Double) {
        guard let payload = HouseView.object(Array(update.payload.utf8)) else {
            var object = header(identity, event: "note", at: now)
            object["message"] = .string(update.payload)
            return (object, now)
        }
        let time = HouseView.number(payload["time"]) ?? now
        var object = header(identity, event: payload["event"] as? String ?? "ranging", at: time)
        for key in ["type", "from", "to", "zone", "reason", "action", "attempt", "max_attempts", "delay_s", "distance_m", "host", "time"] {
            guard let value = payload[key] else { continue }
            if let text = value as? String {
                object[key] = .string(text)
            } else if let number = HouseView.number(value) {
                object[key] = .number(number, decimals: 3)
            } else {
                object[key] = .string(nil)
            }
        }
        object["host"] = .string(update.host)
        return (object, time)
    }

    /// The accessory's retained state was cleared: a lost status saying so, and a note.
    private func removed(host: String, level: String, at time: Double) {
        guard let identity = sessions.withLock({ $0.removeValue(forKey: host + "/" + level)?.identity }) else { return }
        var gone = AccessoryStatus(identity: identity)
        gone.sessionState = "removed"
        gone.sessionDetail = "removed (its retained state was cleared)"
        gone.tracking = .lost
        gone.lastUpdate = time
        onStatus(gone)
        var object = header(identity, event: "note", at: time)
        object["message"] = .string("removed from the broker")
        onLog(object, time)
    }

    private func note(_ message: String, host: String, at time: Double) -> JSONObject {
        var object = JSONObject([
            ("t_s", .number(context.elapsed(time), decimals: 3)), ("event", .string("note")), ("accessory", .string(nil)), ("name", .string(nil)),
        ])
        object.merge([("message", .string(message)), ("host", .string(host))])
        return object
    }

    private func header(_ identity: AccessoryIdentity, event: String, at time: Double) -> JSONObject {
        JSONObject([
            ("t_s", .number(context.elapsed(time), decimals: 3)), ("event", .string(event)), ("accessory", .string(identity.id)),
            ("name", .string(identity.displayName)),
        ])
    }
}
