public import Logging
public import LowEnergy
public import NearbySupport
public import NIProtocol
public import UWBDevice

/// The accessory role for several phones at once on one kit: one ``AccessoryRoleSession`` per
/// connected phone (its own data channel, its own FiRa session on the shared `UCIClient`),
/// every session reporting on one queue of ``events``. A phone that misbehaves or leaves never
/// disturbs the others.
///
/// ```swift
/// let manager = AccessoryRoleManager(client: client, configuration: AccessoryRoleConfiguration(profile: profile))
/// for await channel in dataChannels.channels {
///     try await manager.add(AccessoryIdentity(id: channel.peerAddress.description), channel: channel)
/// }
/// ```
public actor AccessoryRoleManager {
    /// The kit.
    public nonisolated let client: UCIClient
    /// The settings of every phone's session.
    public nonisolated let configuration: AccessoryRoleConfiguration
    /// Every session's events and the kit's, in arrival order; ends after ``stop()``. Updates
    /// that carry no event are dropped (oldest first, counted) when the consumer falls behind.
    public nonisolated let events: Mailbox<NearbySessionEvent>

    private let logger: Logger
    private var sessions = SessionTable<AccessoryRoleSession>()
    private var deviceForwarder: Task<Void, Never>?

    /// Creates a manager on an opened client.
    public init(client: UCIClient, configuration: AccessoryRoleConfiguration, logger: Logger = Logger(label: "nearby.ni.accessory-role")) {
        self.client = client
        self.configuration = configuration
        self.logger = logger
        let events = Mailbox<NearbySessionEvent>(capacity: configuration.ranging.queueCapacity * 8)
        self.events = events
        deviceForwarder = SessionPumps.forwardDeviceEvents(of: client, to: events)
    }

    /// Starts answering a connected phone. A phone that connects again while its previous
    /// session still runs (Apple's sample reconnects from `didDisconnectPeripheral` at once,
    /// before this side has stopped the old session on the kit) replaces it: the old session
    /// stops (SESSION_STOP + SESSION_DEINIT) and its channel closes, then the new one starts.
    /// Its messages wait in its channel meanwhile; nothing is refused or dropped.
    /// - Returns: the session (started, unless an even newer connection of the same phone
    ///   replaced it meanwhile).
    /// - Throws: ``NearbySessionManagerError`` after ``stop()``.
    @discardableResult
    public func add(_ phone: AccessoryIdentity, channel: any DataChannel) async throws(NearbySessionManagerError) -> AccessoryRoleSession {
        guard !sessions.isStopped else { throw NearbySessionManagerError("the accessory role was stopped; create a new manager") }
        let session = AccessoryRoleSession(phone: phone, channel: channel, client: client, configuration: configuration,
                                           output: events, logger: logger)
        let previous = sessions[phone.id]
        sessions.insert(session, as: phone.id)
        if let previous {
            if await !previous.state.isFinal {
                logger.info("\(phone) connected again: its previous session stops and closes, the new one starts")
                replacedSessions += 1
            }
            await previous.stop()
            if previous.channel !== channel { await previous.channel.close() }
        }
        if sessions.isStopped {
            await session.stop()
            await channel.close()
            throw NearbySessionManagerError("the accessory role was stopped; create a new manager")
        }
        // A newer connection of the same phone may have replaced this one while the old stopped.
        if sessions[phone.id] === session { await session.start() }
        return session
    }

    /// Sessions a reconnecting phone's new session replaced while they still ran.
    public private(set) var replacedSessions = 0

    /// The session of phone `id`, if any.
    public func session(for id: String) -> AccessoryRoleSession? { sessions[id] }

    /// Every session, in the order the phones came.
    public var allSessions: [AccessoryRoleSession] { sessions.all }

    /// Updates dropped from ``events`` so far.
    public nonisolated var droppedUpdates: Int { events.droppedCount }

    /// Stops every session (each stops and deinitializes its kit session and tells its phone
    /// 0x03), then ends ``events``. The client stays open.
    public func stop() async {
        guard let running = sessions.markStopped() else { return }
        await SessionTable.stop(running)
        deviceForwarder?.cancel()
        events.finish()
    }
}
