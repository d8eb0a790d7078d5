/// What happens to an ``MQTTClient``, in order: connections, failures (each with a message a
/// user can act on), received messages, dropped queued messages.
public enum MQTTClientEvent: Sendable, CustomStringConvertible {
    /// Connected (the broker accepted the CONNECT); birth, retained messages and subscriptions
    /// were (re)sent. `broker` is `host:port`.
    case connected(broker: String)
    /// A connection attempt failed (network, TLS, refused login); the client tries again after
    /// `retryIn` seconds.
    case connectionFailed(MQTTError, retryIn: Double)
    /// An established connection broke; the client reconnects after `retryIn` seconds.
    case disconnected(MQTTError, retryIn: Double)
    /// A message on a subscribed topic.
    case message(MQTTMessage)
    /// The offline queue was full: `count` more QoS 1 messages were dropped (`total` so far).
    case dropped(count: Int, total: Int)

    public var description: String {
        switch self {
        case .connected(let broker): "connected to \(broker)"
        case .connectionFailed(let error, let delay): "\(error); retrying in \(Self.seconds(delay))"
        case .disconnected(let error, let delay): "connection lost: \(error); reconnecting in \(Self.seconds(delay))"
        case .message(let message): "message \(message)"
        case .dropped(let count, let total): "offline queue full: dropped \(count) QoS 1 message\(count == 1 ? "" : "s") (\(total) in all)"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\((value * 10).rounded() / 10) s"
    }
}

/// Counts of what a client did.
public struct MQTTStatistics: Sendable, Hashable {
    /// Successful connects (CONNACK accepted).
    public var connections = 0
    /// Failed connection attempts.
    public var connectionFailures = 0
    /// Messages handed to a live connection.
    public var published = 0
    /// QoS 1 messages the broker acknowledged.
    public var acknowledged = 0
    /// QoS 0 messages dropped because the broker was unreachable.
    public var droppedOffline = 0
    /// QoS 1 messages dropped because the offline queue was full.
    public var droppedQueueFull = 0
    /// QoS 1 messages waiting or in flight now.
    public var queued = 0
    /// Messages received on subscriptions.
    public var received = 0

    /// No counts yet.
    public init() {}
}

/// What ``MQTTClient/publish(_:)`` did with a message.
public enum MQTTPublishOutcome: Sendable, Hashable {
    /// Handed to the live connection.
    case sent
    /// Kept: a QoS 1 message in the offline queue, or a retained message to re-publish on connect.
    case queued
    /// Dropped: a QoS 0 message while disconnected, or anything after ``MQTTClient/stop(timeout:)``.
    case dropped
}
