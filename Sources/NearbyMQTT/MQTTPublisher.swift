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
    /// Seconds after which a state that did not change is published again (a still
    /// accessory), so Home Assistant's `expire_after` (three heartbeats) and the house's
    /// fusion know the host still hears it; 0: never.
    public var heartbeat = 60.0
    /// The host device's `suggested_area` in Home Assistant (its room in the house).
    public var suggestedArea: String?
    /// The host device's `configuration_url` (its `--web` view).
    public var configurationURL: String?
    /// Most measured samples published per accessory per second on the `range` topic (raw:
    /// what `nearby watch --house` fuses); 0: none.
    public var rangeRate = 10.0
    /// Largest random delay before re-announcing after Home Assistant's birth message, seconds
    /// (Home Assistant asks for one, so that every device does not answer at once).
    public var reannounceJitter = 1.0

    /// The defaults: discovery on, 2 Hz, 0.1 m.
    public init() {}
}

/// A `RunOutput` that publishes a run to an MQTT broker (specs/mqtt.md):
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
/// and hands it to the `MQTTClient`, which never blocks either. State updates are
/// droppable if that task falls behind (the next one replaces them); events are not.
/// Connection problems become notes (``init(client:topics:options:logger:notes:hint:)``);
/// ranging goes on regardless.
public final class MQTTPublisher: RunOutput, @unchecked Sendable {
    // @unchecked: `context`, `trackers` and the tasks are touched only by the run's calls,
    // which `RangingRun` makes one at a time.

    /// The client it publishes with (it starts and stops it).
    public let client: MQTTClient
    /// The host's topics.
    public let topics: MQTTTopics
    /// How it publishes.
    public let options: MQTTPublisherOptions

    enum Work: Sendable {
        case message(MQTTMessage)
        case announce(AccessoryIdentity)
        case state(AccessoryStatus, time: Double, lastSeen: Double?)
        case range(AccessoryIdentity, RangeSample)
        case event(RangingEvent, AccessoryIdentity, distance: Double?)
        case sessionEvent(NearbySessionEvent)
        /// Home Assistant came online: every config and state again.
        case reannounce
        /// A legacy single-component config was found on this topic.
        case migrate(String)
    }

    private struct Tracker {
        var throttle: DistanceThrottle
        var tracking: TrackingState?
        /// Event time of the last state published.
        var lastPublished: Double?
        /// Event time of the last measured sample.
        var lastSeen: Double?
        /// Event time of the last sample published on `range`.
        var lastRange: Double?
    }

    let discovery: HomeAssistantDiscovery
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
    ///   - options: discovery, rates and the device info for Home Assistant.
    ///   - logger: where the publisher logs.
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
        discovery = HomeAssistantDiscovery(
            prefix: options.discoveryPrefix, topics: topics, softwareVersion: options.softwareVersion, suggestedArea: options.suggestedArea,
            configurationURL: options.configurationURL, expireAfter: options.heartbeat > 0 ? Int((options.heartbeat * 3).rounded(.up)) : 0)
    }

    // MARK: RunOutput (the run's thread, one call at a time)

    public func runStarted(_ context: RunContext) {
        self.context = context
        if options.discovery {
            client.subscribe(discovery.birthTopic)
            for filter in discovery.legacyFilters { client.subscribe(filter) }
        }
        watcher = Self.watch(client: client, topics: topics, discovery: options.discovery ? discovery : nil, mailbox: mailbox, jitter: options.reannounceJitter, notes: notes, hint: hint)
        client.start()
        drainer = Task { [mailbox, client, topics, discovery, options] in
            let zoneNames = context.zones.zones.map(\.name)
            var memory = Memory()
            for await work in mailbox {
                Self.publish(work, client: client, topics: topics, discovery: discovery, options: options, zoneNames: zoneNames, context: context, memory: &memory)
            }
        }
        if options.discovery { mailbox.post(.message(discovery.hostConfig())) }
        for identity in context.accessories {
            _ = tracker(identity)
            mailbox.post(.state(AccessoryStatus(identity: identity), time: context.start, lastSeen: nil))
        }
    }

    public func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        guard let identity = event.accessory, let status else { return }
        if trackers[identity.id] == nil { _ = tracker(identity) }
        switch event.kind {
        case .update(let update):
            for ranging in update.events { mailbox.post(.event(ranging, identity, distance: update.distance)) }
            let fallback = Tracker(throttle: DistanceThrottle(rate: options.distanceRate, step: options.distanceStep))
            let (state, range) = Self.decide(update, status: status, at: event.time, options: options, tracker: &trackers[identity.id, default: fallback])
            if range { mailbox.post(.range(identity, update.sample), droppable: true) }
            guard let (significant, lastSeen) = state else { return }
            mailbox.post(.state(status, time: event.time, lastSeen: lastSeen), droppable: !significant)
        case .ranging(let ranging):
            mailbox.post(.event(ranging, identity, distance: nil))
            if case .lost = ranging { trackers[identity.id]?.throttle.reset() }
            trackers[identity.id]?.tracking = status.tracking
            trackers[identity.id]?.lastPublished = event.time
            mailbox.post(.state(status, time: event.time, lastSeen: trackers[identity.id]?.lastSeen))
        case .retry:
            mailbox.post(.sessionEvent(event))
            mailbox.post(.state(status, time: event.time, lastSeen: trackers[identity.id]?.lastSeen))
        case .state:
            mailbox.post(.state(status, time: event.time, lastSeen: trackers[identity.id]?.lastSeen))
        default:
            break
        }
    }

    public func runFinished(_ summary: RunSummary) async {
        let end = context.start + summary.duration
        for status in summary.accessories { mailbox.post(.state(status, time: status.lastUpdate ?? end, lastSeen: trackers[status.identity.id]?.lastSeen)) }
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

    /// Whether an update's state is published (`nil` no; `false` yes, a droppable rate-limited
    /// one or a heartbeat; `true` yes, it carries events or a tracking change; with the time of
    /// the last measured sample), and whether its sample goes on the `range` topic. One
    /// dictionary access.
    private static func decide(
        _ update: RangingUpdate, status: AccessoryStatus, at time: Double, options: MQTTPublisherOptions, tracker: inout Tracker
    ) -> (state: (Bool, Double?)?, range: Bool) {
        var range = false
        if update.sample.usableDistance != nil {
            tracker.lastSeen = time
            if options.rangeRate > 0, time - (tracker.lastRange ?? -Double.infinity) >= 1 / options.rangeRate {
                tracker.lastRange = time
                range = true
            }
        }
        let heartbeat = options.heartbeat
        var significant = !update.events.isEmpty || tracker.tracking != status.tracking
        for case .lost in update.events {
            tracker.throttle.reset()
            significant = true
        }
        let due = heartbeat > 0 && time - (tracker.lastPublished ?? -Double.infinity) >= heartbeat
        guard significant || due || tracker.throttle.shouldPublish(status.distance, at: time) else { return (nil, range) }
        tracker.throttle.published(status.distance, at: time)
        tracker.tracking = status.tracking
        tracker.lastPublished = time
        return ((significant, tracker.lastSeen), range)
    }

    private func tracker(_ identity: AccessoryIdentity) -> Tracker {
        if let tracker = trackers[identity.id] { return tracker }
        let tracker = Tracker(throttle: DistanceThrottle(rate: options.distanceRate, step: options.distanceStep))
        trackers[identity.id] = tracker
        mailbox.post(.announce(identity))
        return tracker
    }

    /// What the publishing task remembers: the accessories announced and their last states
    /// (re-published after Home Assistant's birth message).
    struct Memory {
        var announced: [AccessoryIdentity] = []
        var states: [String: MQTTMessage] = [:]
        var migrated: Set<String> = []
        /// Legacy config topics of the run's accessories not announced yet: migrated at their
        /// announcement, so the new config still comes between the migration and the clearing.
        var pendingMigrations: Set<String> = []
    }

    static func publish(
        _ work: Work, client: MQTTClient, topics: MQTTTopics, discovery: HomeAssistantDiscovery, options: MQTTPublisherOptions,
        zoneNames: [String], context: RunContext, memory: inout Memory
    ) {
        switch work {
        case .message(let message):
            client.publish(message)
        case .announce(let identity):
            if !memory.announced.contains(where: { $0.id == identity.id }) { memory.announced.append(identity) }
            guard options.discovery else { return }
            let legacy = discovery.legacyTopics(accessoryLevel: MQTTTopics.accessoryLevel(identity.id))
            let pending = legacy.filter { memory.pendingMigrations.contains($0) }
            for topic in pending { client.publish(HomeAssistantDiscovery.migration(topic)) }
            client.publish(discovery.accessoryConfig(identity, zoneNames: zoneNames))
            for topic in pending {
                client.publish(HomeAssistantDiscovery.legacyClearing(topic))
                memory.pendingMigrations.remove(topic)
                memory.migrated.insert(topic)
            }
        case .reannounce:
            client.publish(discovery.hostConfig())
            for identity in memory.announced { client.publish(discovery.accessoryConfig(identity, zoneNames: zoneNames)) }
            for identity in memory.announced {
                if let state = memory.states[identity.id] { client.publish(state) }
            }
        case .migrate(let topic):
            guard !memory.migrated.contains(topic), !memory.pendingMigrations.contains(topic) else { return }
            let announced = memory.announced.contains { discovery.legacyTopics(accessoryLevel: MQTTTopics.accessoryLevel($0.id)).contains(topic) }
            if !announced, !discovery.legacyTopics().contains(topic),
                context.accessories.contains(where: { discovery.legacyTopics(accessoryLevel: MQTTTopics.accessoryLevel($0.id)).contains(topic) })
            {
                // Seen before the accessory's first update announced it (the broker hands the
                // retained legacy config over at once): clearing it now would come before its
                // new config, and Home Assistant would drop the entity with its settings.
                memory.pendingMigrations.insert(topic)
                return
            }
            memory.migrated.insert(topic)
            client.publish(HomeAssistantDiscovery.migration(topic))
            if discovery.legacyTopics().contains(topic) {
                client.publish(discovery.hostConfig())
            } else if let identity = memory.announced.first(where: { discovery.legacyTopics(accessoryLevel: MQTTTopics.accessoryLevel($0.id)).contains(topic) }) {
                client.publish(discovery.accessoryConfig(identity, zoneNames: zoneNames))
            }
            client.publish(HomeAssistantDiscovery.legacyClearing(topic))
        case .range(let identity, let sample):
            let payload = MQTTPayloads.range(sample, context: context).text
            client.publish(MQTTMessage(topic: topics.range(identity.id), text: payload, format: .json))
        case .state(let status, let time, let lastSeen):
            let payload = MQTTPayloads.state(status, host: topics.host, time: time, lastSeen: lastSeen, context: context).text
            let message = MQTTMessage(topic: topics.state(status.identity.id), text: payload, retain: true, format: .json)
            memory.states[status.identity.id] = message
            client.publish(message)
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

    /// Turns the client's connection events into notes (the first connect, every distinct
    /// failure once, not every retry; reconnects, drops), Home Assistant's birth message into a
    /// re-announcement after a random delay of up to `jitter` seconds, and a legacy config
    /// into its migration.
    private static func watch(
        client: MQTTClient, topics: MQTTTopics, discovery: HomeAssistantDiscovery?, mailbox: Mailbox<Work>, jitter: Double,
        notes: @escaping @Sendable (String) -> Void, hint: @escaping @Sendable (MQTTError) -> String
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
                case .message(let message):
                    guard let discovery else { continue }
                    if message.topic == discovery.birthTopic {
                        guard message.text == "online" else { continue }
                        let delay = jitter > 0 ? Double.random(in: 0...jitter) : 0
                        Task {
                            try? await Task.sleep(for: .milliseconds(Int(delay * 1000)))
                            mailbox.post(.reannounce)
                        }
                    } else if !message.payload.isEmpty, !message.text.contains("migrate_discovery"), message.topic.hasSuffix("/config") {
                        mailbox.post(.migrate(message.topic))
                    }
                }
            }
        }
    }
}
