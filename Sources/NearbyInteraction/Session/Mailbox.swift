import Synchronization

/// A many-producer, single-consumer queue: the one inbox of an ``AccessorySession``'s state
/// machine. Producers (the data channel, the UWB session, timers) ``post(_:)`` from any task;
/// the session's run loop ``receive()``s one element at a time, so everything is handled in
/// order on the actor. Cancelling the receiving task ends it for good (``receive()`` returns
/// `nil` from then on).
final class Mailbox<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        var head = 0
        var waiter: CheckedContinuation<Element?, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Queues `element` (or hands it to the waiting receiver).
    func post(_ element: Element) {
        let waiter: CheckedContinuation<Element?, Never>? = state.withLock { state in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.buffer.append(element)
            return nil
        }
        waiter?.resume(returning: element)
    }

    /// The next element, waiting for one; `nil` once the receiving task was cancelled.
    func receive() async -> Element? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let ready: Element?? = state.withLock { state in
                    if state.cancelled { return .some(nil) }
                    if state.head < state.buffer.count {
                        let element = state.buffer[state.head]
                        state.head += 1
                        if state.head == state.buffer.count {
                            state.buffer.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        return .some(element)
                    }
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
