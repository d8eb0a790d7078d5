/// The sessions of one ``VirtualUWBS``, in creation order, found by token.
///
/// A device holds a handful of sessions (``VirtualUWBSConfiguration/maximumSessions``, 5 by
/// default), and the world's scheduler and rounds look them up several times per ranging round:
/// an array scanned by token costs a few comparisons where a dictionary hashed the token at
/// every lookup, and a session changed through `values[index]` changes in place where a
/// dictionary's optional subscript moved the whole session out and back. Creation order is the
/// order sessions are listed and scheduled in, so nothing sorts them.
struct VirtualSessionTable: Sendable {
    /// The sessions, in creation order. The rounds change a session in place through
    /// `values[index(of: token)]`; a session's token never changes, so tokens stay unique.
    var values: [VirtualSession] = []

    /// Runs `body` on the sessions in place, in creation order: a scan reading a few fields of
    /// each session through `(buffer.baseAddress! + index).pointee` reads them in place, where
    /// reading them through the array (or the buffer's subscript, a getter that returns a copy
    /// when a computed property such as `isController` is read) copied, retained and released
    /// the whole session each time.
    func withUnsafeSessions<Result>(_ body: (UnsafeBufferPointer<VirtualSession>) -> Result) -> Result {
        values.withUnsafeBufferPointer(body)
    }

    /// How many sessions there are.
    var count: Int { values.count }

    /// The position of the session with `token`, if there is one.
    func index(of token: UInt32) -> Int? {
        withUnsafeSessions { sessions in
            for index in sessions.indices where sessions.baseAddress![index].token == token { return index }
            return nil
        }
    }

    /// A copy of the session with `token`; setting a session replaces the one with its token or
    /// adds it at the end (a new session is the newest), setting `nil` removes it.
    subscript(token: UInt32) -> VirtualSession? {
        get { index(of: token).map { values[$0] } }
        set {
            switch (index(of: token), newValue) {
            case (let index?, let session?): values[index] = session
            case (let index?, nil): values.remove(at: index)
            case (nil, let session?): values.append(session)
            case (nil, nil): break
            }
        }
    }

    /// Removes and returns the session with `token`.
    mutating func remove(_ token: UInt32) -> VirtualSession? {
        guard let index = index(of: token) else { return nil }
        return values.remove(at: index)
    }

    /// Removes every session.
    mutating func removeAll() { values.removeAll() }
}
