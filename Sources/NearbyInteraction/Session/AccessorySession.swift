public import Logging
public import LowEnergy
public import NearbySupport
import Ranging
import UCI
public import UWBDevice
import NearbyBase
public import NIProtocol

/// One accessory's Nearby Interaction session, with the host in the phone's role: the NI
/// exchange over the accessory's data channel, the local UWB session on the shared dev kit, the
/// ranging pipeline, and timeout recovery. State machine, timers and figures: specs/session.md.
///
/// 1. Sends initialize (0x0A, or 0xA5 in the Android dialect) and waits for the accessory's
///    configuration data (0x01) (``AccessorySessionConfiguration/configurationTimeout``); data
///    that does not parse ends the session with an error naming the field.
/// 2. Plans the session (`SessionPlanner`), opens and configures the local UWB session
///    (`UCIClient.openSession(id:type:parameters:samples:)`), sends configureAndStart (0x0B). The host's
///    own work from 0x01 arriving to 0x0B leaving is measured (``SessionLatency``, budget 5 ms),
///    logged and reported in ``NearbySessionEvent/Kind/configured(_:_:)``.
/// 3. Waits for accessoryUwbDidStart (0x02) (``AccessorySessionConfiguration/startTimeout``),
///    starts the local session, and ranges: the UCI client routes the session's range samples
///    to the session's `RangingLane` (the per-sample middle both roles share), which runs each
///    through the ranging pipeline on the transport's reader, where it was decoded, and queues
///    the update: no queue and no hand-off between the kit and the pipeline.
/// 4. When ranging stops (the pipeline reports `lost`: no usable sample for
///    ``AccessorySessionConfiguration/lostAfter`` on the samples' clock, the one silence
///    detector, timed by the lane only while ranging; the dev kit stopping the session;
///    accessoryUwbDidStop) restarts with the cached
///    configuration; when the session has
///    ended (the accessory rejects the cached configuration, does not start, the local session
///    is gone) starts over (0x0C, 0x0A, a new configuration); after a link loss reconnects the
///    data channel and starts over. Each try waits an exponential backoff; after
///    ``RetryPolicy/maxAttempts`` it gives up with the reason. Dev-kit errors and unplugs are
///    recovered by the `UCIClient`; the session reports them and waits.
///
/// Everything is reported on ``events`` (one consumer), in order. ``NearbySessionManager`` runs
/// several sessions on one client; their sessions report on the manager's one queue.
///
/// ```swift
/// let session = AccessorySession(identity: AccessoryIdentity(id: "F0:F1:F2:F3:F4:F5", displayName: "Keys"),
///                                channel: channel, client: client)
/// await session.start()
/// for await event in session.events { print(event) }
/// ```
public actor AccessorySession {
    /// Who the accessory is (carried by every event).
    public nonisolated let identity: AccessoryIdentity
    /// The accessory's data channel (the caller owns it: ``stop()`` does not close it).
    public nonisolated let channel: any DataChannel
    /// The UCI client of the local dev kit (opened by the caller).
    public nonisolated let client: UCIClient
    /// The settings.
    public nonisolated let configuration: AccessorySessionConfiguration
    /// Every state change, configuration, update, ranging event, retry and error, in order.
    /// Single consumer; ends after the final state (``AccessorySessionState/stopped`` or
    /// ``AccessorySessionState/failed(_:)``). Bounded: updates that carry no event are dropped
    /// (oldest first, counted) when the consumer falls behind by
    /// ``AccessorySessionConfiguration/queueCapacity``; nothing else is. A session run by a
    /// ``NearbySessionManager`` reports on the manager's queue instead (this one stays empty).
    public nonisolated let events: Mailbox<NearbySessionEvent>

    /// The current state.
    public internal(set) var state: AccessorySessionState = .idle
    /// The cached configuration: the last session planned (what a restart sends again).
    public internal(set) var plan: SessionPlan?
    /// The last latency measurement (0x01 in → 0x0B out).
    public internal(set) var latency: SessionLatency?
    /// How many sessions were planned (fresh starts that got as far as configureAndStart).
    public internal(set) var configurationCount = 0
    /// Range samples that went through the pipeline (one update each).
    public var samplesProcessed: Int { lane.processed }

    /// Where events go: ``events``, or the manager's queue.
    let output: Mailbox<NearbySessionEvent>
    /// `true` if ``output`` is the session's own (it ends with the session).
    let ownsOutput: Bool
    let logger: Logger
    /// The one inbox of the state machine: messages, link and UWB events, the lane's signals,
    /// deadlines, stop. Range samples never wait here: the lane takes them where they arrive.
    let mailbox: Mailbox<SessionInput>
    /// The per-sample middle: the pipeline, on the transport's reader.
    let lane: RangingLane
    /// The lane's epoch of the current ranging (its older signals are stale).
    var laneEpoch = 0
    var planner: SessionPlanner

    var runTask: Task<Void, Never>?
    var pumps: [Task<Void, Never>] = []
    var uwbPumps: [Task<Void, Never>] = []
    var uwbSession: UWBSession?
    var uwbGeneration = 0
    var uwbInterrupted = false
    var localDevice: LocalUWBDevice?
    var linkUp = true
    var lastLinkReason: HCIStatus = .connectionTimeout
    var accessoryConfigured = false
    var attempts = 0
    var deadlineToken = 0

    /// Creates a session; nothing happens until ``start()``.
    /// - Parameters:
    ///   - identity: how events name the accessory.
    ///   - channel: a connected data channel to the accessory.
    ///   - client: an opened UCI client (shared by every accessory).
    ///   - configuration: dialect, timeouts, recovery, pipeline.
    ///   - logger: the exchange at debug, state changes and latency at info, retries at notice,
    ///     failures at warning / error.
    public init(
        identity: AccessoryIdentity, channel: any DataChannel, client: UCIClient,
        configuration: AccessorySessionConfiguration = AccessorySessionConfiguration(),
        logger: Logger = Logger(label: "nearby.ni.session")
    ) {
        self.init(identity: identity, channel: channel, client: client, configuration: configuration, logger: logger, output: nil)
    }

    /// A session reporting on `output` (a manager's queue) or, if `nil`, on its own ``events``.
    init(
        identity: AccessoryIdentity, channel: any DataChannel, client: UCIClient,
        configuration: AccessorySessionConfiguration, logger: Logger, output: Mailbox<NearbySessionEvent>?
    ) {
        self.identity = identity
        self.channel = channel
        self.client = client
        self.configuration = configuration
        var logger = logger
        logger[metadataKey: "accessory"] = "\(identity.id)"
        self.logger = logger
        self.planner = SessionPlanner(options: configuration.planning)
        let mailbox = Mailbox<SessionInput>(capacity: configuration.queueCapacity)
        self.mailbox = mailbox
        self.events = Mailbox(capacity: configuration.queueCapacity)
        if let output {
            self.output = output
            self.ownsOutput = false
            events.finish()
        } else {
            self.output = events
            self.ownsOutput = true
        }
        self.lane = RangingLane(identity: identity, configuration: configuration, output: self.output, logger: logger) { signal in
            mailbox.post(.lane(signal))
        }
    }

    /// Range samples dropped because the session fell behind the kit: always 0, since samples
    /// no longer wait in an inbox (the lane takes each on the transport's reader). Samples the
    /// session could not use are counted as discarded (``NearbySessionEvent/Kind/dropped(_:)``
    /// with queue `stopped-session`); updates its consumer did not keep up with, by the manager.
    public nonisolated var droppedSamples: Int { 0 }

    /// Starts the session (no-op if already started).
    public func start() {
        guard runTask == nil, !state.isFinal else { return }
        pumps = SessionPumps.start(
            channel: channel, into: mailbox, message: { .message($0, at: $1) }, ended: .messagesEnded, link: { .link($0) })
        runTask = Task { await self.run() }
    }

    /// Stops the session: stop (0x0C) to the accessory if it was configured and the link is up,
    /// the local UWB session closed, state ``AccessorySessionState/stopped``, ``events`` ends.
    /// Returns once done; no-op once final.
    public func stop() async {
        guard !state.isFinal else { return }
        mailbox.post(.stop)
        runTask?.cancel()
        await runTask?.value
        guard !state.isFinal else { return }
        await cleanUp()
        finish(.stopped)
    }

    /// Waits until the session is final (stopped or failed) and returns that state.
    public func waitUntilFinished() async -> AccessorySessionState {
        await runTask?.value
        return state
    }

    // MARK: Events

    /// The pipeline's clock: MonotonicTime, scaled by ``AccessorySessionConfiguration/timeScale``
    /// around the session's creation.
    func scaled(_ time: Double) -> Double { lane.scaled(time) }

    /// Reports an event; `droppable` ones (updates without events) may be dropped when the
    /// consumer falls behind.
    func emit(_ kind: NearbySessionEvent.Kind, at time: Double? = nil, droppable: Bool = false) {
        output.post(NearbySessionEvent(accessory: identity, time: time ?? scaled(MonotonicTime.seconds()), kind: kind), droppable: droppable)
    }

    func setState(_ new: AccessorySessionState) {
        guard new != state else { return }
        if state == .ranging { lane.pause() }
        reportLosses()
        state = new
        logger.info("state: \(new)")
        emit(.state(new))
    }

    /// Final state: reported, streams ended, tasks stopped.
    func finish(_ final: AccessorySessionState) {
        for pump in pumps { pump.cancel() }
        for pump in uwbPumps { pump.cancel() }
        pumps = []
        uwbPumps = []
        // Samples the kit delivered after ranging stopped were discarded by the lane: their
        // count is reported before the final state.
        lane.close()
        reportLosses()
        setState(final)
        if ownsOutput { output.finish() }
    }

    /// Stop (0x0C) if the accessory runs our configuration and the link is up; close the local
    /// UWB session. Errors are logged, not thrown: this runs on the way out.
    func cleanUp() async {
        if accessoryConfigured, linkUp {
            do {
                try await channel.send(NIMessage.stop.encoded())
                logger.debug("> stop (0x0C)")
            } catch {
                logger.notice("could not send stop (0x0C): \(error)")
            }
        }
        accessoryConfigured = false
        await closeUWBSession()
    }

    /// Closes the local UWB session, if any; late events of it are ignored from now on.
    func closeUWBSession() async {
        guard let session = uwbSession else { return }
        uwbSession = nil
        uwbGeneration += 1
        lane.pause()
        for pump in uwbPumps { pump.cancel() }
        uwbPumps = []
        do {
            try await session.close()
        } catch where error.code == .sessionNotOpen || error.code == .unavailable || error.code == .closed {
            // Already gone with the dev kit or closed by the UWBS.
        } catch {
            logger.notice("could not close UWB session \(Hex.prefixed(session.id)): \(error.reason)")
        }
    }

    /// Adopts a new local UWB session (opened with the lane's sink: the client routes its
    /// samples there) and routes its events to the mailbox, tagged with a new generation.
    func attach(_ session: UWBSession) {
        for pump in uwbPumps { pump.cancel() }
        uwbGeneration += 1
        let generation = uwbGeneration
        let mailbox = mailbox
        uwbSession = session
        uwbInterrupted = false
        uwbPumps = [
            Task {
                for await event in session.events { mailbox.post(.uwb(event, generation: generation)) }
            }
        ]
    }
}

/// What the run loop of an ``AccessorySession`` reacts to, in arrival order.
enum SessionInput: Sendable {
    /// A message from the accessory, with its arrival time (the latency budget starts there).
    case message([UInt8], at: ContinuousClock.Instant)
    /// The data channel's message stream ended (the channel was closed).
    case messagesEnded
    /// The data channel's link changed.
    case link(DataChannelEvent)
    /// An event of the local UWB session `generation`.
    case uwb(UWBSessionEvent, generation: Int)
    /// The lane lost the accessory, or ranges again.
    case lane(RangingLane.Signal)
    /// A wait's deadline passed (`token` names the wait).
    case deadline(Int)
    /// ``AccessorySession/stop()`` was called.
    case stop
}
