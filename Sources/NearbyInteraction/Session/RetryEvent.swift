public import LowEnergy
public import UCI
import NearbyBase

/// A try of a recovery, reported before its backoff wait (``NearbySessionEvent/Kind/retry(_:)``).
public struct RetryEvent: Sendable, Hashable, CustomStringConvertible {
    /// What stopped ranging (or a start).
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// No usable range sample for `seconds` while ranging: the pipeline reported `lost`
        /// (``AccessorySessionConfiguration/lostAfter``).
        case noRange(seconds: Double)
        /// The local UWBS stopped the session by itself (SESSION_STATUS_NTF IDLE with a reason,
        /// e.g. 0x01 max ranging-round retries).
        case uwbStopped(UCIReasonCode)
        /// The accessory sent accessoryUwbDidStop (0x03) while ranging.
        case accessoryStopped
        /// The accessory answered configureAndStart with accessoryUwbDidStop (0x03): it rejected
        /// the configuration (a cached one: the session ended on its side).
        case configurationRejected
        /// No accessoryUwbDidStart (0x02) within the start timeout.
        case accessoryDidNotStart(timeout: Duration)
        /// No configuration data (0x01) within the configuration timeout after initialize.
        case accessoryDidNotAnswer(timeout: Duration)
        /// The BLE link went down (HCI reason).
        case linkLost(HCIStatus)
        /// Reconnecting the data channel failed (the error in words).
        case reconnectFailed(String)
        /// The accessory is not advertising (the proximity check said so): not tried now.
        case notNearby
        /// The local UWB session failed or was closed (the UCI client's reason).
        case uwbFailed(String)
        /// Sending on the data channel failed (the error in words).
        case dataChannelFailed(String)

        /// A phrase: `no valid range for 5.0 s`, `the accessory sent accessoryUwbDidStop (0x03)`.
        public var description: String {
            switch self {
            case .noRange(let seconds): "no valid range for \((seconds * 10).rounded() / 10) s"
            case .uwbStopped(let reason): "the dev kit stopped the session (\(reason))"
            case .accessoryStopped: "the accessory sent accessoryUwbDidStop (0x03)"
            case .configurationRejected: "the accessory rejected the configuration (0x03 instead of 0x02)"
            case .accessoryDidNotStart(let timeout):
                "the accessory did not send accessoryUwbDidStart (0x02) within \(timeout.secondsText)"
            case .accessoryDidNotAnswer(let timeout):
                "the accessory did not answer initialize with its configuration data within \(timeout.secondsText)"
            case .linkLost(let reason): "the BLE link was lost (\(reason))"
            case .reconnectFailed(let error): "reconnecting failed: \(error)"
            case .notNearby: "the accessory is not advertising"
            case .uwbFailed(let error): "the local UWB session failed: \(error)"
            case .dataChannelFailed(let error): "the data channel failed: \(error)"
            }
        }
    }

    /// What the try does.
    public enum Action: String, Sendable, Hashable, CustomStringConvertible {
        /// Re-create the local UWB session with the cached configuration, for our own kit
        /// restarting a session the accessory still runs; nothing is sent to the accessory.
        case restartWithCachedConfiguration = "restart"
        /// Start over: stop (0x0C) and wait for its 0x03, initialize (0x0A / 0xA5), the fresh
        /// configuration data, a new plan and session, configureAndStart (0x0B).
        case startOver = "start-over"
        /// Reconnect the data channel, then start over.
        case reconnect = "reconnect"

        /// `restart`, `start-over`, `reconnect`.
        public var description: String { rawValue }
    }

    /// Why.
    public var reason: Reason
    /// What is tried.
    public var action: Action
    /// This try's number in the recovery, 1-based.
    public var attempt: Int
    /// The policy's limit.
    public var maxAttempts: Int
    /// The wait before the try.
    public var delay: Duration

    /// Creates an event.
    public init(reason: Reason, action: Action, attempt: Int, maxAttempts: Int, delay: Duration) {
        self.reason = reason
        self.action = action
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.delay = delay
    }

    /// `no valid range for 5.0 s: restart in 0.25 s (try 1 of 5)`.
    public var description: String {
        "\(reason): \(action) in \(delay.secondsText) (try \(attempt) of \(maxAttempts))"
    }
}
