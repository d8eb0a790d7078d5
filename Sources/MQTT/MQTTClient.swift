public import Logging
import NearbySupport

/// An MQTT 3.1.1 / 5 client over libmosquitto: publish, subscribe, stay connected.
///
/// ```swift
/// var configuration = MQTTClientConfiguration(broker: try MQTTBrokerURL(parsing: "mqtt://127.0.0.1"), clientID: "nearby-hall")
/// configuration.will = MQTTMessage(topic: "nearby/hall/status", text: "offline", qos: .atLeastOnce, retain: true)
/// configuration.birth = MQTTMessage(topic: "nearby/hall/status", text: "online", qos: .atLeastOnce, retain: true)
/// let client = try MQTTClient(configuration: configuration)
/// let events = client.events()
/// client.start()
/// client.publish(MQTTMessage(topic: "nearby/hall/keys/event", text: "{...}", qos: .atLeastOnce))
/// await client.stop()
/// ```
///
/// - Connection: ``start()`` connects on a network thread of its own and keeps the connection:
///   after a failure or a lost connection it tries again after ``MQTTClientConfiguration/reconnectMinimum``
///   seconds, doubling up to ``MQTTClientConfiguration/reconnectMaximum``; every failure is an
///   ``MQTTClientEvent`` with a message a user can act on (bad password, untrusted certificate,
///   connection refused).
/// - Publishing never blocks: QoS 0 messages go out if connected and are dropped (counted)
///   if not; QoS 1 messages that are not retained wait in a bounded queue (the oldest is
///   dropped when ``MQTTClientConfiguration/queueLimit`` is reached) and are re-sent across
///   reconnects until the broker acknowledges them; retained messages are kept (the latest per
///   topic) and re-published after every connect.
/// - Last will and birth: the broker publishes the will when the client vanishes; the birth
///   message follows every connect; ``stop(timeout:)`` publishes the will's payload itself.
///
/// A class with locks rather than an actor: libmosquitto calls back on its network thread, and
/// the queue must change synchronously there (an acknowledgement frees a slot for the next
/// message at once); publishing from a ranging run must not await.
public final class MQTTClient: Sendable {
    /// The settings.
    public var configuration: MQTTClientConfiguration { connection.configuration }
    private let connection: MosquittoConnection

    /// Creates a client (nothing connects before ``start()``).
    /// - Throws: ``MQTTError`` for invalid settings (``MQTTClientConfiguration/validate()``) or TLS
    ///   files that cannot be read.
    public init(configuration: MQTTClientConfiguration, logger: Logger = Logger(label: "nearby.mqtt")) throws(MQTTError) {
        connection = try MosquittoConnection(configuration: configuration, logger: logger)
    }

    deinit { connection.requestStop() }

    /// What happens from now on: connections, failures, received messages, drops. Subscribe
    /// before ``start()`` to see the first connect. Each call returns a new stream; a stream
    /// that is not read keeps the newest `bufferingNewest` events.
    public func events(bufferingNewest: Int = 4096) -> AsyncStream<MQTTClientEvent> {
        connection.broadcaster.subscribe(bufferingNewest: bufferingNewest)
    }

    /// Starts connecting (in the background; returns at once). Calling it again does nothing.
    public func start() { connection.start() }

    /// `true` while connected (the broker accepted the CONNECT).
    public var isConnected: Bool { connection.phase == .connected }

    /// Counts so far.
    public var statistics: MQTTStatistics { connection.statistics }

    /// Publishes (or queues) a message without blocking; see the type's documentation.
    @discardableResult
    public func publish(_ message: MQTTMessage) -> MQTTPublishOutcome { connection.publish(message) }

    /// Subscribes to `filter` now and after every reconnect; messages arrive as
    /// ``MQTTClientEvent/message(_:)``.
    public func subscribe(_ filter: String, qos: MQTTQoS = .atLeastOnce) { connection.subscribe(filter, qos: qos) }

    /// Waits until connected, at most `timeout`.
    /// - Returns: `true` if connected.
    public func waitUntilConnected(timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            switch connection.phase {
            case .connected: return true
            case .stopped: return false
            default: try? await Task.sleep(for: .milliseconds(10))
            }
        }
        return connection.phase == .connected
    }

    /// Stops: publishes the will's payload (``MQTTClientConfiguration/publishesWillOnStop``),
    /// waits up to `timeout` for queued QoS 1 messages to be acknowledged, disconnects cleanly
    /// and ends the network thread. Later publishes are dropped; the ``events(bufferingNewest:)``
    /// streams end.
    public func stop(timeout: Duration = .seconds(3)) async { await connection.stop(timeout: timeout) }
}
