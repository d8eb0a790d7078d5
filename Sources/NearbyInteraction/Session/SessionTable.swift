/// A session a manager can stop: ``AccessorySession`` (phone role) and
/// ``AccessoryRoleSession`` (accessory role).
protocol StoppableSession: Actor {
    /// Stops the session (idempotent).
    func stop() async
}

extension AccessorySession: StoppableSession {}
extension AccessoryRoleSession: StoppableSession {}

/// The sessions of a manager (``NearbySessionManager``, ``AccessoryRoleManager``): by ID, in
/// the order they came, and stopped all together once.
struct SessionTable<Session: StoppableSession>: Sendable {
    private var byID: [String: Session] = [:]
    private var order: [String] = []
    /// Whether ``stopAll()`` ran: a stopped manager takes no new session.
    private(set) var isStopped = false

    /// The session of `id`, if any.
    subscript(id: String) -> Session? { byID[id] }

    /// Every session, in the order they came.
    var all: [Session] { order.compactMap { byID[$0] } }

    /// Adds `session` as `id` (a session already there under `id` is replaced and moves last).
    mutating func insert(_ session: Session, as id: String) {
        if byID.updateValue(session, forKey: id) != nil { order.removeAll { $0 == id } }
        order.append(id)
    }

    /// Removes and returns the session of `id`.
    mutating func remove(_ id: String) -> Session? {
        guard let session = byID.removeValue(forKey: id) else { return nil }
        order.removeAll { $0 == id }
        return session
    }

    /// Marks the table stopped and returns its sessions to stop; `nil` if it was stopped already.
    mutating func markStopped() -> [Session]? {
        guard !isStopped else { return nil }
        isStopped = true
        return all
    }

    /// Stops `sessions` at once (each in its own task) and returns when all have stopped.
    static func stop(_ sessions: [Session]) async {
        await withTaskGroup(of: Void.self) { group in
            for session in sessions {
                group.addTask { await session.stop() }
            }
        }
    }
}
