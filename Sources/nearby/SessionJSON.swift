import Foundation
import NearbyInteraction
import Ranging
import UWBDevice
import NIProtocol
import UCI

/// One JSON object per session event (`nearby range --json`, `nearby demo --json`).
///
/// Every object has `t_s` (seconds since the command started), `event` (`update`, `ranging`,
/// `state`, `configured`, `retry`, `uwb`, `link`, `device`, `error`), `accessory` (its ID, `null`
/// for dev-kit events) and `name` (its display name), then:
///
/// | event | keys |
/// |---|---|
/// | update | `distance_m`, `velocity_mps`, `azimuth_deg`, `elevation_deg` (smoothed; `null` when unknown), `confidence` (0-1), `zone` (name), `held`, `tracking` (`waiting` / `tracking` / `lost`), `raw_distance_m`, `status` (UCI measurement status) |
/// | ranging | `type` (`entered`, `exited`, `lost`, `found`), `zone` (name for entered / exited) |
/// | state | `state` (`initializing`, `configuring`, `starting`, `ranging`, `retrying`, `connecting`, `stopped`, `failed`), `detail` |
/// | configured | `session_id`, `channel`, `preamble`, `interval_ms`, `own_work_ms`, `total_ms` |
/// | retry | `reason`, `action` (`restart`, `start-over`, `reconnect`), `attempt`, `max_attempts`, `delay_s` |
/// | error | `code`, `message` |
/// | uwb, link, device | `message` |
enum SessionJSON {
    /// The object for `event`; `zones` names the zone index of updates.
    static func object(for event: NearbySessionEvent, start: Double, zones: ZoneMap) -> String {
        var fields: [(String, String)] = [
            ("t_s", String(format: "%.3f", max(0, event.time - start))),
            ("event", string(event.kindName)),
            ("accessory", event.accessory.map { string($0.id) } ?? "null"),
            ("name", event.accessory.map { string($0.displayName) } ?? "null"),
        ]
        switch event.kind {
        case .update(let update):
            fields += [
                ("distance_m", number(update.distance)),
                ("velocity_mps", number(update.velocity)),
                ("azimuth_deg", number(update.direction?.azimuth)),
                ("elevation_deg", number(update.direction?.elevation)),
                ("confidence", number(update.confidence)),
                ("zone", update.zone.map { string(zones.zones.indices.contains($0) ? zones.zones[$0].name : "zone \($0)") } ?? "null"),
                ("held", update.isHeld ? "true" : "false"),
                ("tracking", string("\(update.state)")),
                ("raw_distance_m", number(update.sample.distance)),
                ("status", "\(update.sample.status)"),
            ]
        case .ranging(let ranging, let zone):
            let type: String
            switch ranging {
            case .entered: type = "entered"
            case .exited: type = "exited"
            case .lost: type = "lost"
            case .found: type = "found"
            }
            fields += [("type", string(type)), ("zone", zone.map(string) ?? "null")]
        case .state(let state):
            fields += [("state", string(state.name)), ("detail", string(state.description))]
        case .configured(let plan, let latency):
            fields += [
                ("session_id", "\(plan.sessionID)"),
                ("channel", "\(plan.hostParameters.channel)"),
                ("preamble", "\(plan.hostParameters.preambleCodeIndex)"),
                ("interval_ms", "\(plan.hostParameters.rangingInterval)"),
                ("own_work_ms", String(format: "%.3f", latency.ownWorkMilliseconds)),
                ("total_ms", String(format: "%.3f", latency.totalMilliseconds)),
            ]
        case .retry(let retry):
            fields += [
                ("reason", string(retry.reason.description)),
                ("action", string(retry.action.rawValue)),
                ("attempt", "\(retry.attempt)"),
                ("max_attempts", "\(retry.maxAttempts)"),
                ("delay_s", number(Double(retry.delay.components.seconds) + Double(retry.delay.components.attoseconds) * 1e-18)),
            ]
        case .error(let error):
            fields += [("code", string(error.code.name)), ("message", string(error.description))]
        case .uwb, .link, .device:
            fields += [("message", string(event.description))]
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }

    /// A JSON string literal.
    static func string(_ text: String) -> String { JSONLine.quote(text) }
}
