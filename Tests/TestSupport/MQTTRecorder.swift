import Foundation
public import MQTT
import Synchronization

/// An MQTT client for tests that records everything it receives and every connection event, for assertions.
public final class MQTTRecorder: Sendable {
    /// The client.
    public let client: MQTTClient
    private final class Store: Sendable {
        let state = Mutex<(messages: [MQTTMessage], events: [String], failures: [MQTTError])>(([], [], []))
    }
    private let store = Store()
    private let reader: Task<Void, Never>

    /// Creates the client, subscribes to `filters`, records, and starts it unless `start` is false.
    public init(_ configuration: MQTTClientConfiguration, subscribe filters: [String] = [], start: Bool = true) throws {
        client = try MQTTClient(configuration: configuration)
        for filter in filters { client.subscribe(filter) }
        let events = client.events()
        let store = self.store
        reader = Task {
            for await event in events {
                store.state.withLock { state in
                    switch event {
                    case .message(let message): state.messages.append(message)
                    case .connectionFailed(let error, _), .disconnected(let error, _):
                        state.failures.append(error)
                        state.events.append("\(event)")
                    default: state.events.append("\(event)")
                    }
                }
            }
        }
        if start { client.start() }
    }

    deinit { reader.cancel() }

    /// Every message received, in order.
    public var messages: [MQTTMessage] { store.state.withLock { $0.messages } }
    /// Every connection event, as text.
    public var events: [String] { store.state.withLock { $0.events } }
    /// Every connection failure.
    public var failures: [MQTTError] { store.state.withLock { $0.failures } }

    /// The messages on `topic`.
    public func messages(on topic: String) -> [MQTTMessage] { messages.filter { $0.topic == topic } }

    /// Waits until `condition` holds, at most `timeout`; the error lists what arrived.
    public func wait(_ what: String, timeout: Duration = .seconds(60), until condition: (MQTTRecorder) -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if condition(self) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        if condition(self) { return }
        throw ChildProcessError("timed out waiting for \(what); events: \(events); messages: \(messages.map(\.description))")
    }

    /// Waits until connected.
    public func connected(timeout: Duration = .seconds(60)) async throws {
        guard await client.waitUntilConnected(timeout: timeout) else {
            throw ChildProcessError("did not connect; events: \(events)")
        }
    }
}

/// A test client configuration: a unique client id from `id`, fast reconnects.
public func mqttConfiguration(_ url: String, id: String, version: MQTTProtocolVersion = .v311) throws -> MQTTClientConfiguration {
    var configuration = MQTTClientConfiguration(broker: try MQTTBrokerURL(parsing: url), clientID: id + "-" + String(UUID().uuidString.prefix(6)))
    configuration.protocolVersion = version
    configuration.reconnectMinimum = 0.2
    configuration.reconnectMaximum = 1
    return configuration
}
