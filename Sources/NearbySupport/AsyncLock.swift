import Synchronization

/// A first-in first-out lock for async code: at most one holder; waiters queue in order and
/// can be cancelled while they wait.
///
/// Used where a sequence of awaits must not interleave with another one: the bytes of one
/// packet on a byte stream, the fragments of one L2CAP PDU, one outstanding ATT request.
public final class AsyncLock: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var locked = false
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Creates an unlocked lock.
    public init() {}

    /// Waits until the lock is free, then holds it.
    /// - Throws: `CancellationError` if the task is cancelled while waiting (the lock is not held).
    public func lock() async throws(CancellationError) {
        let acquired: Bool = state.withLock { state in
            if state.locked { return false }
            state.locked = true
            return true
        }
        if acquired { return }
        let id: UInt64 = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        enum Action { case acquired, wait, cancelled }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let action: Action = state.withLock { state in
                        if Task.isCancelled { return .cancelled }
                        if !state.locked {
                            state.locked = true
                            return .acquired
                        }
                        state.waiters.append(Waiter(id: id, continuation: continuation))
                        return .wait
                    }
                    switch action {
                    case .acquired: continuation.resume()
                    case .cancelled: continuation.resume(throwing: CancellationError())
                    case .wait: break
                    }
                }
            } onCancel: {
                let waiter: Waiter? = state.withLock { state in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index)
                }
                waiter?.continuation.resume(throwing: CancellationError())
            }
        } catch {
            throw CancellationError()
        }
    }

    /// Waits until the lock is free, then holds it, whatever happens to the calling task (for
    /// sequences that must not be abandoned halfway, like writing one packet).
    public func lockIgnoringCancellation() async {
        await Task { try? await self.lock() }.value
    }

    /// Releases the lock, handing it to the oldest waiter.
    public func unlock() {
        let next: Waiter? = state.withLock { state in
            if state.waiters.isEmpty {
                state.locked = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }
}
