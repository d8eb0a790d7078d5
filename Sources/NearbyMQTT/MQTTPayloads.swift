public import NIProtocol
public import NearbyBase
public import NearbyInteraction
public import NearbyRuntime
public import Ranging

/// The payloads ``MQTTPublisher`` sends (keys: specs/mqtt.md), built on `RunJSON`
/// so they match `--json`. Times: `time` is the event's wall-clock time (Unix seconds, UTC, ms
/// resolution), `t_s` seconds since the run started.
public enum MQTTPayloads {
    /// The retained `state` object of an accessory after an event at `time` (events' clock):
    /// `host`, `accessory`, `name`, `time`, `t_s`, `session`, `tracking`, `zone` (`null` when in
    /// no zone), `near` (in the innermost zone), `distance_m`, `raw_distance_m`, `velocity_mps`,
    /// `azimuth_deg`, `elevation_deg`, `confidence`, `figure_of_merit`, `nlos`, `update_rate_hz`, `updates`,
    /// `zone_changes`, `retries`, `last_seen` (wall-clock time of the last measured sample,
    /// kept after `lost`; `null` before the first).
    public static func state(_ status: AccessoryStatus, host: String, time: Double, lastSeen: Double? = nil, context: RunContext) -> JSONObject {
        let innermost = context.zones.zones.first?.name
        return JSONObject([
            ("host", .string(host)), ("accessory", .string(status.identity.id)), ("name", .string(status.identity.displayName)),
            ("time", .number(context.wallClock(time), decimals: 3)), ("t_s", .number(context.elapsed(time), decimals: 3)),
            ("session", .string(status.sessionState)), ("tracking", .string("\(status.tracking)")),
            ("zone", .string(status.zone?.name)), ("near", .bool(status.zone != nil && status.zone?.name == innermost)),
            ("distance_m", .number(status.distance, decimals: 3)), ("raw_distance_m", .number(status.rawDistance, decimals: 3)),
            ("velocity_mps", .number(status.velocity, decimals: 3)),
            ("azimuth_deg", .number(status.azimuth, decimals: 1)), ("elevation_deg", .number(status.elevation, decimals: 1)),
            ("confidence", .number(status.confidence, decimals: 2)), ("figure_of_merit", .integer(status.figureOfMerit)),
            ("nlos", .bool(status.isNonLineOfSight)),
            ("update_rate_hz", .number(status.updateRate, decimals: 1)), ("updates", .integer(status.updates)),
            ("zone_changes", .integer(status.zoneChanges)), ("retries", .integer(status.retries)),
            ("last_seen", .number(lastSeen.map(context.wallClock), decimals: 3)),
        ])
    }

    /// An `event` object for a zone change, `lost` or `found`: `RunJSON`'s
    /// `ranging` object (`t_s`, `event`, `accessory`, `name`, `type` = `zone` / `lost` / `found`,
    /// `from`, `to`, `zone`) with `host`, `time` and `distance_m` (the smoothed distance of the
    /// sample that caused it, `null` for lost).
    public static func event(
        _ event: RangingEvent, accessory: AccessoryIdentity, distance: Double?, host: String, context: RunContext
    ) -> JSONObject {
        var object = RunJSON.object(for: event, accessory: accessory, context: context)
        object.merge([("host", .string(host)), ("time", .number(context.wallClock(event.timestamp), decimals: 3)), ("distance_m", .number(distance, decimals: 3))])
        return object
    }

    /// An `event` object for a session event that is not a ranging event (a retry: `reason`,
    /// `action`, `attempt`, `max_attempts`, `delay_s`), with `type` = the event's kind, `host`
    /// and `time`.
    public static func event(_ event: NearbySessionEvent, host: String, context: RunContext) -> JSONObject? {
        guard var object = RunJSON.objects(for: event, context: context).last else { return nil }
        object.merge([("type", .string(event.kindName)), ("host", .string(host)), ("time", .number(context.wallClock(event.time), decimals: 3))])
        return object
    }

    /// The `range` payload of one measured sample: `time` (wall clock of the sample),
    /// `distance_m`, `azimuth_deg`, `figure_of_merit`, `nlos` as the kit reported them
    /// (unsmoothed; `null` when absent).
    public static func range(_ sample: RangeSample, context: RunContext) -> JSONObject {
        JSONObject([
            ("time", .number(context.wallClock(sample.timestamp), decimals: 3)), ("distance_m", .number(sample.usableDistance, decimals: 3)),
            ("azimuth_deg", .number(sample.usableAzimuth, decimals: 1)), ("figure_of_merit", .integer(sample.figureOfMerit)),
            ("nlos", .bool(sample.isNonLineOfSight)),
        ])
    }

    /// The `distance` payload: metres with 3 decimals (`1.234`).
    public static func distance(_ metres: Double) -> String { JSONText.number(metres, decimals: 3) }
}
