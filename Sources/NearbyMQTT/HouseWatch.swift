public import Logging
public import MQTT
import NearbyRuntime
import Synchronization

/// What ``HouseWatch`` reports.
public enum HouseWatchOutput: Sendable {
    /// A message understood (the house changed).
    case update(HouseUpdate)
    /// A note for people: connected, a connection failure with what to do.
    case note(String)
    /// A position of the house published (`--house`).
    case position(HousePosition)
}

/// `nearby watch`: subscribes to every host's topics (`<prefix>/#`) and keeps the
/// ``HouseView``. Retained states and statuses arrive first, so the view is complete at once.
public final class HouseWatch: Sendable {
    /// The client (no will: a watcher is not a host).
    public let client: MQTTClient
    private let topics: MQTTTopics
    private let view: Mutex<HouseView>
    private let observer: (@Sendable (HouseUpdate, HouseView) -> Void)?
    /// The fusion of `--house`, if any.
    public let fusion: HouseFusionService?
    private let outputs: Outputs

    /// Where outputs that do not come from the message loop (positions, notes of the fusion) go.
    private final class Outputs: Sendable {
        let continuation = Mutex<AsyncStream<HouseWatchOutput>.Continuation?>(nil)
        func yield(_ output: HouseWatchOutput) { _ = continuation.withLock { $0?.yield(output) } }
    }

    /// Creates the watcher (nothing connects before ``updates()``).
    /// - Parameters:
    ///   - setup: the broker, the client settings and the topics (the watcher's will and birth
    ///     are dropped: it is not a host).
    ///   - logger: where the client logs.
    ///   - observer: called with every update and the house right after it, in order, before
    ///     the update is reported (``HouseFeed/observe(_:in:)`` for a web view); must not block.
    ///   - house: fuse the hosts of this house and publish positions (``HouseFusionService``);
    ///     the watcher then has a birth and a last will on `<prefix>/house/status`.
    /// - Throws: `MQTTError` for settings that cannot work.
    public init(
        setup: MQTTSetup, logger: Logger = Logger(label: "nearby.watch"), observer: (@Sendable (HouseUpdate, HouseView) -> Void)? = nil,
        house: HouseFusionOptions? = nil
    ) throws(MQTTError) {
        var configuration = setup.client
        configuration.will = nil
        configuration.birth = nil
        if house != nil { HouseFusionService.configure(&configuration, topicPrefix: setup.topics.prefix) }
        let client = try MQTTClient(configuration: configuration, logger: logger)
        self.client = client
        topics = setup.topics
        view = Mutex(HouseView(prefix: setup.topics.prefix))
        self.observer = observer
        let outputs = Outputs()
        self.outputs = outputs
        fusion = house.map { options in
            HouseFusionService(
                options: options, topicPrefix: setup.topics.prefix, client: client, output: { outputs.yield(.position($0)) },
                notes: { outputs.yield(.note($0)) })
        }
    }

    /// Connects, subscribes and reports every update and connection note until ``stop()``.
    /// Call once.
    public func updates() -> AsyncStream<HouseWatchOutput> {
        let events = client.events()
        client.subscribe(topics.everyHost, qos: .atLeastOnce)
        let (stream, continuation) = AsyncStream<HouseWatchOutput>.makeStream(bufferingPolicy: .bufferingNewest(8192))
        outputs.continuation.withLock { $0 = continuation }
        let broker = client.configuration.broker
        fusion?.start()
        let task = Task { [self] in
            var lastFailure: String?
            for await event in events {
                switch event {
                case .message(let message):
                    if let fusion = self.fusion, message.topic == fusion.discovery.birthTopic {
                        if message.text == "online" {
                            Task {
                                try? await Task.sleep(for: .milliseconds(Int.random(in: 0...1000)))
                                fusion.reannounce()
                            }
                        }
                        continue
                    }
                    guard let applied = self.apply(message) else { continue }
                    if let house = applied.house {
                        self.observer?(applied.update, house)
                        self.fusion?.observe(applied.update, in: house, arrival: WallClock.now())
                    }
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
            return (update, observer == nil && fusion == nil ? nil : view)
        }
    }

    /// The house now.
    public var house: HouseView { view.withLock { $0 } }

    /// Disconnects; the updates end.
    public func stop() async {
        fusion?.stop()
        await client.stop(timeout: .seconds(1))
    }
}
