import Synchronization

/// Routes notification and indication values to the streams subscribed to their handle.
///
/// Each subscriber gets its own unbounded stream (no value is dropped for a slow consumer); a
/// subscriber that stops iterating is removed. ``finishAll()`` ends every stream (on disconnect).
final class NotificationRouter: Sendable {
    private struct State {
        var routes: [UInt16: [UInt64: AsyncStream<[UInt8]>.Continuation]] = [:]
        var nextID: UInt64 = 0
        var finished = false
    }

    private let state = Mutex(State())

    init() {}

    /// A new stream of the values notified or indicated on `handle`.
    func subscribe(handle: UInt16) -> (id: UInt64, stream: AsyncStream<[UInt8]>) {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .unbounded)
        let id: UInt64? = state.withLock { state in
            if state.finished { return nil }
            let id = state.nextID
            state.nextID += 1
            state.routes[handle, default: [:]][id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return (0, stream)
        }
        continuation.onTermination = { [weak self] _ in self?.remove(handle: handle, id: id) }
        return (id, stream)
    }

    /// Ends and removes one subscription.
    func remove(handle: UInt16, id: UInt64) {
        let continuation = state.withLock { state -> AsyncStream<[UInt8]>.Continuation? in
            let removed = state.routes[handle]?.removeValue(forKey: id)
            if state.routes[handle]?.isEmpty == true { state.routes[handle] = nil }
            return removed
        }
        continuation?.finish()
    }

    /// Number of subscriptions on `handle`.
    func subscriberCount(handle: UInt16) -> Int {
        state.withLock { $0.routes[handle]?.count ?? 0 }
    }

    /// Delivers `value` to every subscriber of `handle`. Returns `false` if there is none.
    @discardableResult
    func deliver(handle: UInt16, value: [UInt8]) -> Bool {
        let targets = state.withLock { Array(($0.routes[handle] ?? [:]).values) }
        for continuation in targets { continuation.yield(value) }
        return !targets.isEmpty
    }

    /// Ends every stream; later subscriptions get finished streams.
    func finishAll() {
        let all = state.withLock { state -> [AsyncStream<[UInt8]>.Continuation] in
            state.finished = true
            defer { state.routes.removeAll() }
            return state.routes.values.flatMap(\.values)
        }
        for continuation in all { continuation.finish() }
    }
}
