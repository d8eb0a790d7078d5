import NearbyBase

/// Where an ``AccessorySession`` is in its state machine (specs/session.md). Every change is
/// reported as ``NearbySessionEvent/Kind/state(_:)``.
public enum AccessorySessionState: Sendable, Hashable, CustomStringConvertible {
    /// Created, not started.
    case idle
    /// The data channel is down; reconnecting it (try `attempt` of the recovery).
    case connecting(attempt: Int)
    /// Initialize (0x0A / 0xA5) sent; waiting for the accessory's configuration data (0x01).
    case initializing
    /// Configuration data received: planning the session and configuring the local dev kit.
    case configuring
    /// configureAndStart (0x0B) sent; waiting for accessoryUwbDidStart (0x02). `cached`: the
    /// cached configuration was sent again (a restart after a timeout).
    case starting(cached: Bool)
    /// Ranging: range samples flow into the pipeline.
    case ranging
    /// A problem stopped ranging; waiting `delay` before try `attempt` of the recovery.
    case waitingToRetry(attempt: Int, delay: Duration)
    /// Stopped by the caller (``AccessorySession/stop()``): stop (0x0C) sent, UWB session closed.
    case stopped
    /// Gave up: the reason in words (also reported as an error event with the details).
    case failed(String)

    /// `true` for ``stopped`` and ``failed(_:)``: the session does nothing more.
    public var isFinal: Bool {
        switch self {
        case .stopped, .failed: true
        default: false
        }
    }

    /// One word for compact displays: `idle`, `connecting`, `initializing`, `configuring`,
    /// `starting`, `ranging`, `retrying`, `stopped`, `failed`.
    public var name: String {
        switch self {
        case .idle: "idle"
        case .connecting: "connecting"
        case .initializing: "initializing"
        case .configuring: "configuring"
        case .starting: "starting"
        case .ranging: "ranging"
        case .waitingToRetry: "retrying"
        case .stopped: "stopped"
        case .failed: "failed"
        }
    }

    /// A phrase: `waiting 0.5 s before try 2`, `failed: ...`.
    public var description: String {
        switch self {
        case .connecting(let attempt): "connecting (try \(attempt))"
        case .starting(let cached): cached ? "starting (cached configuration)" : "starting"
        case .waitingToRetry(let attempt, let delay): "waiting \(delay.secondsText) before try \(attempt)"
        case .failed(let reason): "failed: \(reason)"
        default: name
        }
    }
}
