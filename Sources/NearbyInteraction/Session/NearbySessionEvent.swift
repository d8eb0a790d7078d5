public import LowEnergy
public import Ranging
public import UWBDevice
public import NIProtocol

/// Everything an ``AccessorySession`` (and the ``NearbySessionManager`` merging several)
/// reports, in order: the one stream a consumer reads to print, record, or run hooks.
///
/// `accessory` is `nil` only for device-wide events (``Kind/device(_:)``: the dev kit went away,
/// came back, was reset). `time` is when the event was emitted, in seconds on the range samples'
/// clock (`MonotonicTime`, CLOCK_MONOTONIC, times ``AccessorySessionConfiguration/timeScale``
/// since the session started in a simulation that runs faster than real time).
public struct NearbySessionEvent: Sendable {
    /// What happened.
    ///
    /// The rare cases with large payloads (`configured`, `uwb`, `device`, `error`: 240-500
    /// bytes) are `indirect`, boxed once when made, so an event is the size of its common case,
    /// an update (about 300 bytes instead of 540): every update is copied into and out of the
    /// run's queue.
    public enum Kind: Sendable {
        /// The session's state changed (every change, in order).
        case state(AccessorySessionState)
        /// A session was planned and configureAndStart (0x0B) sent: the plan and how long it took.
        indirect case configured(SessionPlan, SessionLatency)
        /// A range sample went through the accessory's ranging pipeline (one per sample); the
        /// events it caused (zone change with names, `lost`, `found`) are in
        /// `RangingUpdate.events`.
        case update(RangingUpdate)
        /// The pipeline reported an event without a sample: `lost` (and the zone cleared) after a
        /// silence, found by the periodic check.
        case ranging(RangingEvent)
        /// Elements were dropped from a bounded queue because its consumer fell behind.
        case dropped(DropReport)
        /// A recovery try is about to happen (after ``RetryEvent/delay``).
        case retry(RetryEvent)
        /// The local UWB session was interrupted (dev kit error or unplug) or restored by the
        /// UCI client; ranging resumes by itself after `restored`.
        indirect case uwb(UWBSessionEvent)
        /// The data channel's link went down or came back, or its pairing or encryption failed
        /// or was refused (`DataChannelEvent.security(_:)`).
        case link(DataChannelEvent)
        /// A dev-kit-wide event from the UCI client (``accessory`` is `nil`).
        indirect case device(UCIClientEvent)
        /// Something failed; fatal ones are followed by ``state(_:)`` ``AccessorySessionState/failed(_:)``.
        indirect case error(AccessorySessionError)
    }

    /// The accessory, `nil` for device-wide events.
    public var accessory: AccessoryIdentity?
    /// When, seconds (see the type's documentation).
    public var time: Double
    /// What happened.
    public var kind: Kind

    /// Creates an event.
    public init(accessory: AccessoryIdentity?, time: Double, kind: Kind) {
        self.accessory = accessory
        self.time = time
        self.kind = kind
    }

    /// A short name for the kind: `state`, `configured`, `update`, `ranging`, `dropped`, `retry`,
    /// `uwb`, `link`, `security` (a link's pairing or encryption failed or was refused), `device`,
    /// `error` (the `event` key of `nearby range --json`).
    public var kindName: String {
        switch kind {
        case .state: "state"
        case .configured: "configured"
        case .update: "update"
        case .ranging: "ranging"
        case .dropped: "dropped"
        case .retry: "retry"
        case .uwb: "uwb"
        case .link(.security): "security"
        case .link: "link"
        case .device: "device"
        case .error: "error"
        }
    }
}

extension NearbySessionEvent: CustomStringConvertible {
    /// `Keys: entered near at 12.300 s`, `Keys: state ranging`, `dev kit: ...`.
    public var description: String {
        let who = accessory?.displayName ?? "dev kit"
        switch kind {
        case .state(let state): return "\(who): \(state)"
        case .configured(let plan, let latency): return "\(who): configured \(plan.summary); \(latency)"
        case .update(let update):
            let distance = update.distance.map { "\((($0 * 100).rounded()) / 100) m" } ?? "no distance"
            return "\(who): \(distance) (\(update.state))"
        case .ranging(let event): return "\(who): \(event.summary)"
        case .dropped(let report): return "\(who): \(report)"
        case .retry(let retry): return "\(who): \(retry)"
        case .uwb(let event): return "\(who): UWB session \(event)"
        case .link(let event):
            switch event {
            case .disconnected(let reason): return "\(who): BLE link lost (\(reason))"
            case .reconnected: return "\(who): BLE link back"
            case .security(let error): return "\(who): BLE security: \(error)"
            }
        case .device(let event): return "\(who): \(event)"
        case .error(let error): return "\(who): error: \(error.reason)"
        }
    }
}
