public import Logging
public import MQTT
import Synchronization

/// What ``HouseWatch`` reports.
public enum HouseWatchOutput: Sendable {
    /// A message understood (the house changed).
    case update(HouseUpdate)
    /// A note for people: connected, a connection failure with what to do.
    case note(String)
}

/// `nearby watch`: subscribes to every host's topics (`<prefix>/#`) and keeps the
/// ``HouseView``. Retained states and statuses arrive first, so the view is complete at once.
public final class HouseWatch: Sendable {
    /// The client (no will: a watcher is not a host).
    public let client: MQTTClient
    private let topics: MQTTTopics
    private let view: Mutex<HouseView>
    private let observer: (@Sendable (HouseUpdate, HouseView) -> Void)?

    /// Creates the watcher (nothing connects before ``updates()``).
    /// - Parameter observer: called with every update and the house right after it, in order,
    ///   before the update is reported (``HouseFeed/observe(_:in:)`` for a web view); must not block.
    /// - Throws: ``MQTT/MQTTError`` for settings that cannot work.
    public init(
        setup: MQTTSetup, logger: Logger = Logger(label: "nearby.watch"), observer: (@Sendable (HouseUpdate, HouseView) -> Void)? = nil
    ) throws(MQTTError) {
        var configuration = setup.client
        configuration.will = nil
        configuration.birth = nil
        client = try MQTTClient(configuration: configuration, logger: logger)
        topics = setup.topics
        view = Mutex(HouseView(prefix: setup.topics.prefix))
        self.observer = observer
    }

    /// Connects, subscribes and reports every update and connection note until ``stop()``.
    /// Call once.
    public func updates() -> AsyncStream<HouseWatchOutput> {
        let events = client.events()
        client.subscribe(topics.everyHost, qos: .atLeastOnce)
        let (stream, continuation) = AsyncStream<HouseWatchOutput>.makeStream(bufferingPolicy: .bufferingNewest(8192))
        let broker = client.configuration.broker
        let task = Task { [self] in
            var lastFailure: String?
            for await event in events {
                switch event {
                case .message(let message):
                    guard let applied = self.apply(message) else { continue }
                    if let house = applied.house { self.observer?(applied.update, house) }
                    continuation.yield(.update(applied.update))
                case .connected:
                    lastFailure = nil
                    continuation.yield(.note("watching \(broker) (\(self.topics.everyHost))"))
                case .connectionFailed(let error, _), .disconnected(let error, _):
                    guard error.description != lastFailure else { continue }
                    lastFailure = error.description
                    continuation.yield(.note("mqtt: \(error)\(MQTTSetup.hint(for: error)); retrying"))
                case .dropped:
                    break
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        client.start()
        return stream
    }

    /// Applies a message; the house after it only when there is an observer (a copy is cheap,
    /// but not free).
    private func apply(_ message: MQTTMessage) -> (update: HouseUpdate, house: HouseView?)? {
        view.withLock { view in
            guard let update = view.apply(message) else { return nil }
            return (update, observer == nil ? nil : view)
        }
    }

    /// The house now.
    public var house: HouseView { view.withLock { $0 } }

    /// Disconnects; the updates end.
    public func stop() async { await client.stop(timeout: .seconds(1)) }
}
