public import Synchronization

/// A bounded many-producer, single-consumer FIFO queue: the inbox of a session's state machine
/// and the output queue of a run. Producers ``post(_:droppable:)`` from any task or thread
/// without blocking; one consumer ``receive()``s the elements in posting order.
///
/// Bounded where it matters: at most ``capacity`` *droppable* elements (range samples, updates)
/// wait; posting one more drops the oldest droppable element and counts it (``droppedCount``),
/// so a consumer that falls behind costs a known number of samples, never unbounded memory.
/// Elements posted with `droppable: false` (control inputs, zone events) are never dropped;
/// they are rare, so they do not grow the queue in practice. The order between droppable and
/// other elements is kept (each element carries its posting sequence number).
///
/// Once warmed up, posting and receiving do not allocate (the buffers keep their capacity).
/// Cancelling the receiving task ends the mailbox for good (``receive()`` returns `nil` from then
/// on, as after ``finish()`` once it is drained).
///
/// Every method is `@inlinable` (and so are the internals they reach): posting and receiving
/// happen per range sample in other modules, which specialize them for their element type
/// instead of going through generic metadata at every call (specs/runtime.md §6.1).
public final class Mailbox<Element: Sendable>: Sendable {
    @usableFromInline
    struct Lane {
        /// The queue; a slot's element is moved out (left `nil`) when it is taken, so taking
        /// one neither copies it nor leaves a reference behind.
        @usableFromInline var elements: [(sequence: UInt64, element: Element?)] = []
        @usableFromInline var head = 0

        @inlinable init() {}

        @inlinable var count: Int { elements.count - head }
        /// The posting sequence number of the first element, without copying the element.
        @inlinable var firstSequence: UInt64? { head < elements.count ? elements[head].sequence : nil }

        @inlinable mutating func append(_ element: Element, sequence: UInt64) { elements.append((sequence, element)) }

        @inlinable mutating func removeFirst() -> Element {
            var element: Element? = nil
            swap(&element, &elements[head].element)
            head += 1
            if head == elements.count {
                elements.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024, head * 2 >= elements.count {
                elements.removeFirst(head)
                head = 0
            }
            return element!
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var droppable = Lane()
        @usableFromInline var kept = Lane()
        @usableFromInline var sequence: UInt64 = 0
        @usableFromInline var dropped = 0
        @usableFromInline var refused = 0
        @usableFromInline var waiter: CheckedContinuation<Element?, Never>?
        @usableFromInline var cancelled = false
        @usableFromInline var finished = false
        /// A ``WakeBatch`` holds the waiter's wake-up back: elements queue although it waits.
        @usableFromInline var wakeDeferred = false

        @inlinable init() {}

        @inlinable var isEmpty: Bool { droppable.count == 0 && kept.count == 0 }

        @inlinable mutating func takeFirst() -> Element? {
            switch (droppable.firstSequence, kept.firstSequence) {
            case (nil, nil): return nil
            case (.some, nil): return droppable.removeFirst()
            case (nil, .some): return kept.removeFirst()
            case (let d?, let k?): return d < k ? droppable.removeFirst() : kept.removeFirst()
            }
        }
    }

    /// The most droppable elements that wait at once.
    public let capacity: Int
    @usableFromInline let state = Mutex(State())

    /// Creates a mailbox holding at most `capacity` droppable elements (at least 1).
    public init(capacity: Int = 1024) {
        self.capacity = Swift.max(1, capacity)
    }

    /// Queues `element` (or hands it to the waiting receiver). A droppable element beyond
    /// ``capacity`` drops the oldest waiting droppable one. Ignored after ``finish()`` or once
    /// the receiver was cancelled (a droppable one is then counted in ``refusedCount``).
    /// - Returns: `false` if an element was dropped to make room (an ignored one is not a drop:
    ///   the receiver is gone, and whoever stopped it accounts for ``refusedCount``).
    ///
    /// Inside a ``WakeBatch`` on this thread, the waiting receiver is woken when the batch ends
    /// (once for the whole burst), not by this post.
    @inlinable @discardableResult
    public func post(_ element: Element, droppable: Bool = false) -> Bool {
        let batching = WakeBatch.isActive
        let (waiter, dropped, deferWake): (CheckedContinuation<Element?, Never>?, Bool, Bool) = state.withLock { state in
            guard !state.finished, !state.cancelled else {
                if droppable { state.refused += 1 }
                return (nil, false, false)
            }
            var deferWake = false
            if state.waiter != nil {
                if !batching {
                    defer { state.waiter = nil }
                    return (state.waiter, false, false)
                }
                // Queued below; the batch wakes the receiver (registered once per batch).
                deferWake = !state.wakeDeferred
                state.wakeDeferred = true
            }
            state.sequence &+= 1
            var dropped = false
            if droppable {
                if state.droppable.count >= capacity {
                    _ = state.droppable.removeFirst()
                    state.dropped += 1
                    dropped = true
                }
                state.droppable.append(element, sequence: state.sequence)
            } else {
                state.kept.append(element, sequence: state.sequence)
            }
            return (nil, dropped, deferWake)
        }
        waiter?.resume(returning: element)
        if deferWake, !WakeBatch.deferWake(self, wake: { unsafeDowncast($0, to: Mailbox<Element>.self).wakeDeferred() }) {
            wakeDeferred()
        }
        return !dropped
    }

    /// The ``WakeBatch`` that held the receiver's wake-up back ended: hands it the first element
    /// (it takes the rest of the burst itself, ``receive(into:limit:)``).
    @inlinable public func wakeDeferred() {
        let (waiter, element): (CheckedContinuation<Element?, Never>?, Element?) = state.withLock { state in
            state.wakeDeferred = false
            guard state.waiter != nil, let element = state.takeFirst() else { return (nil, nil) }
            defer { state.waiter = nil }
            return (state.waiter, element)
        }
        waiter?.resume(returning: element)
    }

    /// How many droppable elements were ignored because they came after ``finish()`` or after
    /// the receiver was cancelled: never queued, never received (a session that stops counts
    /// the samples that arrived while it was closing).
    @inlinable public var refusedCount: Int { state.withLock { $0.refused } }

    /// Ends the mailbox: what waits is still received, then ``receive()`` returns `nil`.
    @inlinable public func finish() {
        let (waiter, element): (CheckedContinuation<Element?, Never>?, Element?) = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            // A receiver waits with elements queued only while a WakeBatch holds its wake back.
            return (state.waiter, state.waiter == nil ? nil : state.takeFirst())
        }
        waiter?.resume(returning: element)
    }

    /// Takes every element that waits now, in posting order, without waiting (a receiver that
    /// stops early accounts for what it will never read).
    @inlinable public func takeAll() -> [Element] {
        state.withLock { state in
            var taken: [Element] = []
            while let element = state.takeFirst() { taken.append(element) }
            return taken
        }
    }

    /// How many droppable elements were dropped so far.
    @inlinable public var droppedCount: Int { state.withLock { $0.dropped } }

    /// Whether the receiver waits in ``receive()`` now (for tests and diagnostics).
    @inlinable public var isReceiverWaiting: Bool { state.withLock { $0.waiter != nil } }

    /// How many elements wait.
    @inlinable public var count: Int { state.withLock { $0.droppable.count + $0.kept.count } }

    /// Waits for at least one element, then moves every element waiting (at most `limit`) into
    /// `batch`, in posting order, under one lock: a consumer handles a burst and writes once.
    /// - Returns: `false` (and `batch` unchanged) once the mailbox is finished and drained, or the
    ///   receiving task was cancelled.
    @inlinable public func receive(into batch: inout [Element], limit: Int = .max) async -> Bool {
        guard let first = await receive() else { return false }
        batch.append(first)
        guard limit > 1 else { return true }
        state.withLock { state in
            var taken = 1
            while taken < limit, let element = state.takeFirst() {
                batch.append(element)
                taken += 1
            }
        }
        return true
    }

    /// The next element in posting order, waiting for one; `nil` once the mailbox is finished
    /// and drained, or the receiving task was cancelled.
    @inlinable public func receive() async -> Element? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let ready: Element?? = state.withLock { state in
                    if state.cancelled { return .some(nil) }
                    if let element = state.takeFirst() { return .some(element) }
                    if state.finished { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Element?, Never>? = state.withLock { state in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}

extension Mailbox: AsyncSequence {
    /// Iterates ``receive()`` until it returns `nil` (single consumer).
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline let mailbox: Mailbox
        @inlinable init(mailbox: Mailbox) { self.mailbox = mailbox }
        /// The next element (``Mailbox/receive()``).
        @inlinable public mutating func next() async -> Element? { await mailbox.receive() }
    }

    /// An iterator over the elements (single consumer).
    @inlinable public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(mailbox: self) }
}
