public import NearbyBase
import NIProtocol
import Ranging

extension RunJSON {
    /// A `status` object: an accessory's live state (``AccessoryStatus``) as the web view's
    /// `/api/state` and its `status` events carry it. `t_s` is the time of its last update
    /// (`null` before the first).
    ///
    /// Keys: `t_s`, `event` (`status`), `accessory`, `name`, `session_state`, `session_detail`,
    /// `tracking`, `distance_m`, `raw_distance_m`, `velocity_mps`, `azimuth_deg`,
    /// `elevation_deg`, `confidence`, `zone`, `zone_index`, `held`, `figure_of_merit`, `nlos`,
    /// `update_rate_hz`, `updates`, `measured`, `zone_changes`, `retries`, `configurations`,
    /// `last_distance_m`, `last_error`, `dropped_samples`.
    public static func object(for status: AccessoryStatus, context: RunContext) -> JSONObject {
        JSONObject([
            ("t_s", .number(status.lastUpdate.map(context.elapsed), decimals: 3)), ("event", .string("status")),
            ("accessory", .string(status.identity.id)), ("name", .string(status.identity.displayName)),
            ("session_state", .string(status.sessionState)), ("session_detail", .string(status.sessionDetail)),
            ("tracking", .string("\(status.tracking)")),
            ("distance_m", .number(status.distance, decimals: 3)), ("raw_distance_m", .number(status.rawDistance, decimals: 3)),
            ("velocity_mps", .number(status.velocity, decimals: 3)),
            ("azimuth_deg", .number(status.azimuth, decimals: 2)), ("elevation_deg", .number(status.elevation, decimals: 2)),
            ("confidence", .number(status.confidence, decimals: 3)),
            ("zone", .string(status.zone?.name)), ("zone_index", .integer(status.zone?.index)), ("held", .bool(status.isHeld)),
            ("figure_of_merit", .integer(status.figureOfMerit)), ("nlos", .bool(status.isNonLineOfSight)),
            ("update_rate_hz", .number(status.updateRate, decimals: 2)),
            ("updates", .integer(status.updates)), ("measured", .integer(status.measured)),
            ("zone_changes", .integer(status.zoneChanges)), ("retries", .integer(status.retries)),
            ("configurations", .integer(status.configurations)), ("last_distance_m", .number(status.lastDistance, decimals: 3)),
            ("last_error", .string(status.lastError)), ("dropped_samples", .integer(status.droppedSamples)),
        ])
    }
}
