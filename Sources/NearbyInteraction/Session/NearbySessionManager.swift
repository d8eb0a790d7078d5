public import Logging
public import LowEnergy
public import NearbySupport
public import UWBDevice
public import NIProtocol

/// Runs Nearby Interaction sessions with several accessories at once on one dev kit: one
/// ``AccessorySession`` per accessory (its own data channel and UWB session) on a shared
/// `UCIClient`, and one queue of ``events`` that every session reports on directly (no
/// forwarding hop).
///
/// Each session recovers on its own; one that fails (for example because the dev kit's session
/// limit is reached: ``AccessorySessionError/Code/sessionLimit``) reports its error and ends
/// while the others keep ranging. Dev-kit events (unplugged, back, reset) come once, with a
/// `nil` accessory.
///
/// ```swift
/// let client = UCIClient(transport: transport)
/// try await client.open()
/// let manager = NearbySessionManager(client: client)
/// try await manager.add(AccessoryIdentity(id: "F0:F1:F2:F3:F4:F5", displayName: "Keys"), channel: channel)
/// for await event in manager.events {
///     if case .update(let update) = event.kind { print(event.accessory!.displayName, update.distance ?? .nan) }
/// }
/// ```
public actor NearbySessionManager {
    /// The shared dev kit.
    public nonisolated let client: UCIClient
    /// The settings new sessions get unless ``add(_:channel:configuration:)`` says otherwise.
    public nonisolated let configuration: AccessorySessionConfiguration
    /// Every session's events and the dev kit's, in arrival order. Single consumer; ends after
    /// ``stop()``. Bounded like a session's own stream: updates that carry no event are dropped
    /// (oldest first) when the consumer falls behind by ``AccessorySessionConfiguration/queueCapacity``
    /// per accessory; ``droppedUpdates`` counts them.
    public nonisolated let events: Mailbox<NearbySessionEvent>

    private let logger: Logger
    private var sessions = SessionTable<AccessorySession>()
    private var deviceForwarder: Task<Void, Never>?

    /// Creates a manager on an opened client.
    /// - Parameters:
    ///   - client: the dev kit's UCI client, opened.
    ///   - configuration: the default settings of every session.
    ///   - eventCapacity: the most updates without events that wait on ``events`` (older ones
    ///     are dropped and counted); default 8 × the configuration's queue capacity.
    ///   - logger: handed to every session (with the accessory's ID as metadata).
    public init(
        client: UCIClient, configuration: AccessorySessionConfiguration = AccessorySessionConfiguration(),
        eventCapacity: Int? = nil, logger: Logger = Logger(label: "nearby.ni")
    ) {
        self.client = client
        self.configuration = configuration
        self.logger = logger
        let events = Mailbox<NearbySessionEvent>(capacity: eventCapacity ?? configuration.queueCapacity * 8)
        self.events = events
        deviceForwarder = SessionPumps.forwardDeviceEvents(of: client, to: events)
    }

    /// Adds an accessory and starts its session.
    /// - Parameters:
    ///   - identity: its identity (the ID must be unique in this manager).
    ///   - channel: its connected data channel (the caller keeps ownership).
    ///   - configuration: its settings; `nil` uses the manager's.
    /// - Returns: the session (already started).
    /// - Throws: ``NearbySessionManagerError`` for a duplicate ID or after ``stop()``.
    @discardableResult
    public func add(
        _ identity: AccessoryIdentity, channel: any DataChannel, configuration: AccessorySessionConfiguration? = nil
    ) async throws(NearbySessionManagerError) -> AccessorySession {
        guard !sessions.isStopped else { throw NearbySessionManagerError("the session manager was stopped; create a new one") }
        guard sessions[identity.id] == nil else {
            throw NearbySessionManagerError("accessory \(identity) is already added; remove it first or use another ID")
        }
        let session = AccessorySession(
            identity: identity, channel: channel, client: client, configuration: configuration ?? self.configuration,
            logger: logger, output: events)
        sessions.insert(session, as: identity.id)
        await session.start()
        return session
    }

    /// The session of accessory `id`, if added.
    public func session(for id: String) -> AccessorySession? { sessions[id] }

    /// Every session, in the order added.
    public var allSessions: [AccessorySession] { sessions.all }

    /// Stops and removes accessory `id` (no-op if unknown). Its final state still comes on
    /// ``events``.
    public func remove(_ id: String) async {
        guard let session = sessions.remove(id) else { return }
        await session.stop()
    }

    /// Updates dropped from ``events`` so far because its consumer fell behind.
    public nonisolated var droppedUpdates: Int { events.droppedCount }

    /// Stops every session (each sends stop (0x0C) and closes its UWB session), then ends
    /// ``events``. The client stays open (the caller closes it).
    public func stop() async {
        guard let running = sessions.markStopped() else { return }
        await SessionTable.stop(running)
        deviceForwarder?.cancel()
        events.finish()
    }
}

/// A misuse of ``NearbySessionManager`` (duplicate accessory, use after stop).
public struct NearbySessionManagerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong and what to do.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
