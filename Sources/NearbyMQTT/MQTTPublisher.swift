public import Logging
public import MQTT
import NIProtocol
public import NearbyInteraction
public import NearbyRuntime
import NearbyBase
import NearbySupport
import Ranging

/// How ``MQTTPublisher`` publishes.
public struct MQTTPublisherOptions: Sendable, Hashable {
    /// Publish Home Assistant discovery configs.
    public var discovery = true
    /// Home Assistant's discovery prefix.
    public var discoveryPrefix = HomeAssistantDiscovery.defaultPrefix
    /// Most state / distance publications per accessory per second (Hz).
    public var distanceRate = 2.0
    /// Smallest distance change published, metres.
    public var distanceStep = 0.1
    /// `nearby`'s version, shown on Home Assistant's devices.
    public var softwareVersion = "0.1.0"
    /// How long the end of a run waits for queued zone events to be acknowledged.
    public var stopTimeout: Duration = .seconds(3)

    /// The defaults: discovery on, 2 Hz, 0.1 m.
    public init() {}
}

/// A ``NearbyRuntime/RunOutput`` that publishes a run to an MQTT broker (specs/mqtt.md):
///
/// - at the start: the host's `online` status (the last will says `offline`), Home Assistant
///   discovery configs for the host and every accessory, and each accessory's state;
/// - every zone change, `lost`, `found` and retry: a QoS 1 `event` (queued while the broker is
///   unreachable, bounded) and the retained `state`;
/// - updates: the retained `state` and the `distance`, at most ``MQTTPublisherOptions/distanceRate``
///   times a second and only after a change of ``MQTTPublisherOptions/distanceStep`` metres
///   (``DistanceThrottle``), and at once when the tracking state changes;
/// - at the end: the final states and `offline`, then a clean disconnect.
///
/// It never blocks the run: ``handle(_:status:)`` decides what to publish (no allocation for an
/// update that is not published) and posts it to a mailbox; a task of its own encodes the JSON
/// and hands it to the ``MQTT/MQTTClient``, which never blocks either. State updates are
/// droppable if that task falls behind (the next one replaces them); events are not.
/// Connection problems become notes (``init(client:topics:options:logger:notes:hint:)``);
/// ranging goes on regardless.
public final class MQTTPublisher: RunOutput, @unchecked Sendable {
    // @unchecked: `context`, `trackers` and the tasks are touched only by the run's calls,
    // which ``NearbyRuntime/RangingRun`` makes one at a time.

    /// The client it publishes with (it starts and stops it).
    public let client: MQTTClient
    /// The host's topics.
    public let topics: MQTTTopics
    /// How it publishes.
    public let options: MQTTPublisherOptions

    private enum Work: Sendable {
        case message(MQTTMessage)
        case announce(AccessoryIdentity)
        case state(AccessoryStatus, time: Double)
        case event(RangingEvent, AccessoryIdentity, distance: Double?)
        case sessionEvent(NearbySessionEvent)
    }

    private struct Tracker {
        var throttle: DistanceThrottle
        var tracking: TrackingState?
    }

    private let discovery: HomeAssistantDiscovery
    private let logger: Logger
    private let notes: @Sendable (String) -> Void
    private let hint: @Sendable (MQTTError) -> String
    private let mailbox = Mailbox<Work>(capacity: 1024)
    private var context = RunContext(accessories: [], zones: .standard, start: 0, wallStart: 0)
    private var trackers: [String: Tracker] = [:]
    private var drainer: Task<Void, Never>?
    private var watcher: Task<Void, Never>?

    /// - Parameters:
    ///   - client: a client that has not been started (with the host's will and birth).
    ///   - topics: the host's topics.
    ///   - notes: receives notes for people (connected, a failure with what to do, drops).
    ///   - hint: what to add to a connection failure's message (which setting to check).
    public init(
        client: MQTTClient, topics: MQTTTopics, options: MQTTPublisherOptions = MQTTPublisherOptions(),
        logger: Logger = Logger(label: "nearby.mqtt"), notes: @escaping @Sendable (String) -> Void = { _ in },
        hint: @escaping @Sendable (MQTTError) -> String = { _ in "" }
    ) {
        self.client = client
        self.topics = topics
        self.options = options
        self.logger = logger
        self.notes = notes
        self.hint = hint
        discovery = HomeAssistantDiscovery(prefix: options.discoveryPrefix, topics: topics, softwareVersion: options.softwareVersion)
    }

    // MARK: RunOutput (the run's thread, one call at a time)

    public func runStarted(_ context: RunContext) {
        self.context = context
        watcher = Self.watch(client: client, topics: topics, notes: notes, hint: hint)
        client.start()
        drainer = Task { [mailbox, client, topics, discovery, options] in
            let zoneNames = context.zones.zones.map(\.name)
            for await work in mailbox {
                Self.publish(work, client: client, topics: topics, discovery: discovery, options: options, zoneNames: zoneNames, context: context)
            }
        }
        if options.discovery { mailbox.post(.message(discovery.hostConfig())) }
        for identity in context.accessories {
            _ = tracker(identity)
            mailbox.post(.state(AccessoryStatus(identity: identity), time: context.start))
        }
    }

    public func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        guard let identity = event.accessory, let status else { return }
        if trackers[identity.id] == nil { _ = tracker(identity) }
        switch event.kind {
        case .update(let update):
            for ranging in update.events { mailbox.post(.event(ranging, identity, distance: update.distance)) }
            let fallback = Tracker(throttle: DistanceThrottle(rate: options.distanceRate, step: options.distanceStep))
            guard let significant = Self.shouldPublish(update, status: status, at: event.time, tracker: &trackers[identity.id, default: fallback]) else { return }
            mailbox.post(.state(status, time: event.time), droppable: !significant)
        case .ranging(let ranging):
            mailbox.post(.event(ranging, identity, distance: nil))
            if case .lost = ranging { trackers[identity.id]?.throttle.reset() }
            trackers[identity.id]?.tracking = status.tracking
            mailbox.post(.state(status, time: event.time))
        case .retry:
            mailbox.post(.sessionEvent(event))
            mailbox.post(.state(status, time: event.time))
        case .state:
            mailbox.post(.state(status, time: event.time))
        default:
            break
        }
    }

    public func runFinished(_ summary: RunSummary) async {
        let end = context.start + summary.duration
        for status in summary.accessories { mailbox.post(.state(status, time: status.lastUpdate ?? end)) }
        mailbox.finish()
        await drainer?.value
        await client.stop(timeout: options.stopTimeout)
        watcher?.cancel()
        notes(Self.summary(client.statistics, skippedStates: mailbox.droppedCount))
    }

    /// `mqtt: 1234 messages published (56 acknowledged); ...` with what was lost, if anything.
    static func summary(_ statistics: MQTTStatistics, skippedStates: Int) -> String {
        var text = "mqtt: \(statistics.published) message\(statistics.published == 1 ? "" : "s") published (\(statistics.acknowledged) acknowledged)"
        if statistics.droppedOffline > 0 { text += ", \(statistics.droppedOffline) state/distance updates dropped while offline" }
        if statistics.droppedQueueFull > 0 { text += ", \(statistics.droppedQueueFull) zone events dropped (offline queue full)" }
        if statistics.queued > 0 { text += ", \(statistics.queued) not acknowledged at the end" }
        if skippedStates > 0 { text += ", \(skippedStates) state updates skipped (the publisher fell behind)" }
        return text
    }

    // MARK: Internals

    /// Whether an update's state is published: `nil` no, `false` yes (a droppable rate-limited
    /// one), `true` yes (it carries events or a tracking change). One dictionary access.
    private static func shouldPublish(_ update: RangingUpdate, status: AccessoryStatus, at time: Double, tracker: inout Tracker) -> Bool? {
        var significant = !update.events.isEmpty || tracker.tracking != status.tracking
        for case .lost in update.events {
            tracker.throttle.reset()
            significant = true
        }
        guard significant || tracker.throttle.shouldPublish(status.distance, at: time) else { return nil }
        tracker.throttle.published(status.distance, at: time)
        tracker.tracking = status.tracking
        return significant
    }

    private func tracker(_ identity: AccessoryIdentity) -> Tracker {
        if let tracker = trackers[identity.id] { return tracker }
        let tracker = Tracker(throttle: DistanceThrottle(rate: options.distanceRate, step: options.distanceStep))
        trackers[identity.id] = tracker
        mailbox.post(.announce(identity))
        return tracker
    }

    private static func publish(
        _ work: Work, client: MQTTClient, topics: MQTTTopics, discovery: HomeAssistantDiscovery, options: MQTTPublisherOptions,
        zoneNames: [String], context: RunContext
    ) {
        switch work {
        case .message(let message):
            client.publish(message)
        case .announce(let identity):
            guard options.discovery else { return }
            for message in discovery.accessoryConfigs(identity, zoneNames: zoneNames) { client.publish(message) }
        case .state(let status, let time):
            let payload = MQTTPayloads.state(status, host: topics.host, time: time, context: context).text
            client.publish(MQTTMessage(topic: topics.state(status.identity.id), text: payload, retain: true, format: .json))
            if let distance = status.distance {
                client.publish(MQTTMessage(topic: topics.distance(status.identity.id), text: MQTTPayloads.distance(distance)))
            }
        case .event(let event, let identity, let distance):
            let payload = MQTTPayloads.event(event, accessory: identity, distance: distance, host: topics.host, context: context).text
            client.publish(MQTTMessage(topic: topics.event(identity.id), text: payload, qos: .atLeastOnce, format: .json))
        case .sessionEvent(let event):
            guard let identity = event.accessory, let object = MQTTPayloads.event(event, host: topics.host, context: context) else { return }
            client.publish(MQTTMessage(topic: topics.event(identity.id), text: object.text, qos: .atLeastOnce, format: .json))
        }
    }

    /// Turns the client's connection events into notes: the first connect, every distinct
    /// failure once (not every retry), reconnects, drops.
    private static func watch(
        client: MQTTClient, topics: MQTTTopics, notes: @escaping @Sendable (String) -> Void, hint: @escaping @Sendable (MQTTError) -> String
    ) -> Task<Void, Never> {
        let events = client.events()
        let broker = client.configuration.broker
        return Task {
            var connectedBefore = false
            var lastFailure: String?
            for await event in events {
                switch event {
                case .connected:
                    notes(
                        connectedBefore
                            ? "mqtt: reconnected to \(broker.endpoint)"
                            : "mqtt: connected to \(broker) as host '\(topics.host)' (\(topics.prefix)/\(topics.host)/...)")
                    connectedBefore = true
                    lastFailure = nil
                case .connectionFailed(let error, _):
                    guard error.description != lastFailure else { continue }
                    lastFailure = error.description
                    notes("mqtt: \(error)\(hint(error)); retrying in the background, ranging goes on")
                case .disconnected(let error, _):
                    lastFailure = nil
                    notes("mqtt: \(error); reconnecting, zone events wait in the queue")
                case .dropped(let count, let total):
                    if total == count || total % 100 == 0 { notes("mqtt: \(MQTTClientEvent.dropped(count: count, total: total))") }
                case .message:
                    break
                }
            }
        }
    }
}
