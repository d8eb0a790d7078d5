public import Synchronization

/// Fans one stream of events out to any number of subscribers, each an `AsyncStream`.
///
/// Used for device notifications, connection events and store changes: producers call
/// ``yield(_:)`` from any thread; every subscriber sees every event from the moment it
/// subscribed. A subscriber that stops iterating is removed automatically. A slow subscriber
/// buffers up to its `bufferingNewest` limit and then drops its oldest events (never blocks the
/// producer).
public final class Broadcaster<Element: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var subscribers: [UInt64: AsyncStream<Element>.Continuation] = [:]
        @usableFromInline var nextID: UInt64 = 0
        @usableFromInline var finished = false

        @inlinable init() {}
    }

    @usableFromInline let state = Mutex(State())
    /// How many subscribers there are (kept with `state`): ``yield(_:)`` with none returns
    /// without taking the lock or building the event.
    @usableFromInline let subscribers = Atomic<Int>(0)
    private let defaultLimit: Int

    /// Creates a broadcaster.
    /// - Parameter bufferingNewest: per-subscriber buffer size (events) when it does not keep up.
    public init(bufferingNewest: Int = 1024) {
        self.defaultLimit = bufferingNewest
    }

    /// Subscribes to events from now on. The stream ends when ``finish()`` is called.
    public func subscribe(bufferingNewest limit: Int? = nil) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(
            bufferingPolicy: .bufferingNewest(limit ?? defaultLimit))
        let id: UInt64? = state.withLock { state in
            if state.finished { return nil }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = continuation
            subscribers.store(state.subscribers.count, ordering: .relaxed)
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.subscribers.removeValue(forKey: id)
                self?.subscribers.store(state.subscribers.count, ordering: .relaxed)
            }
        }
        return stream
    }

    /// Number of live subscribers.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Delivers `element` to every current subscriber; with none, `element` is not even built
    /// (producers announce every packet and round, mostly to nobody).
    ///
    /// `@inlinable`: called per packet and round from other modules, specialized there.
    @inlinable
    public func yield(_ element: @autoclosure () -> Element) {
        guard subscribers.load(ordering: .relaxed) > 0 else { return }
        // One subscriber (the usual case) is yielded to without building an array.
        let (single, targets): (AsyncStream<Element>.Continuation?, [AsyncStream<Element>.Continuation]) = state.withLock { state in
            if state.subscribers.count == 1, let only = state.subscribers.first { return (only.value, []) }
            return (nil, Array(state.subscribers.values))
        }
        if let single {
            single.yield(element())
            return
        }
        guard !targets.isEmpty else { return }
        let element = element()
        for continuation in targets { continuation.yield(element) }
    }

    /// Ends every subscriber's stream; later subscribers get an empty stream.
    public func finish() {
        let targets = state.withLock { state -> [AsyncStream<Element>.Continuation] in
            state.finished = true
            defer {
                state.subscribers.removeAll()
                subscribers.store(0, ordering: .relaxed)
            }
            return Array(state.subscribers.values)
        }
        for continuation in targets { continuation.finish() }
    }
}
