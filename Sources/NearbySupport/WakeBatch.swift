#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Wakes each waiting receiver (``Mailbox``) once per burst instead of once per element.
///
/// A transport's reader hands every packet of a burst (one `recv`, one USB transfer, one
/// wake-up of the simulated world) down the data path synchronously; each range sample ends
/// as an update posted to the run's ``Mailbox``. Without a batch, the first post of a burst
/// resumes the waiting consumer and the kernel switches to it (on a 2-core machine it
/// preempts the reader), then the next post wakes it again: one thread hand-off per sample.
/// Inside ``run(_:)`` a post that would wake a receiver queues the element and remembers the
/// receiver (``deferWake(_:wake:)``); when the outermost ``run(_:)`` on that thread returns, each remembered receiver is
/// woken once and takes the whole burst (specs/runtime.md §3, issue 25).
///
/// Per thread: a batch covers only the posts its own thread makes in `body`; posts from other
/// threads wake as always. `body` must not wait for a receiver whose wake it holds back (the
/// readers that use it only decode, route and post). Nesting is allowed (the inner `run` just
/// joins the outer batch). Posting inside a batch does not allocate once the thread's list of
/// receivers has grown to the number of receivers one burst reaches.
public enum WakeBatch {
    /// Runs `body` as one batch on this thread: wake-ups of receivers (``Mailbox``) that
    /// posts inside it would cause happen when the outermost batch ends, once per receiver.
    @inlinable
    public static func run<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let scope = Scope.current(creating: true).unsafelyUnwrapped
        scope.depth += 1
        defer {
            scope.depth -= 1
            if scope.depth == 0 { scope.flush() }
        }
        return try body()
    }

    /// Whether this thread is inside ``run(_:)``.
    public static var isActive: Bool { (Scope.current(creating: false)?.depth ?? 0) > 0 }

    /// Called by a receiver that is about to be woken: `true` if this thread is in a batch and
    /// the wake-up was taken over (the batch calls `wake(receiver)` at its end); `false`: wake it
    /// now. The receiver registers at most once per batch (it keeps its own "a wake is pending"
    /// flag), so this is called once per receiver and burst.
    ///
    /// `wake` is a closure, not a protocol requirement, so that a generic receiver (``Mailbox``)
    /// passes the wake-up specialized for its element type from its inlined `post`: called
    /// through a protocol from this module it would run unspecialized and look up generic
    /// metadata at every wake (about 18,000 instructions per demo update, measured).
    @inlinable
    public static func deferWake(_ receiver: AnyObject, wake: @escaping @Sendable (AnyObject) -> Void) -> Bool {
        guard let scope = Scope.current(creating: false), scope.depth > 0 else { return false }
        scope.pending.append((receiver, wake))
        return true
    }

    /// This thread's batch state. Confined to its thread (found through a pthread key), never
    /// shared: `@unchecked Sendable` only so the key's destructor may release it.
    @usableFromInline
    final class Scope: @unchecked Sendable {
        @usableFromInline var depth = 0
        @usableFromInline var pending: [(receiver: AnyObject, wake: @Sendable (AnyObject) -> Void)] = []

        @usableFromInline init() {}

        /// Wakes every receiver registered in this batch, in registration order.
        @usableFromInline func flush() {
            var index = 0
            while index < pending.count {
                let entry = pending[index]
                entry.wake(entry.receiver)
                index += 1
            }
            pending.removeAll(keepingCapacity: true)
        }

        /// This thread's scope (made on first use when `creating`).
        @usableFromInline static func current(creating: Bool) -> Scope? {
            let key = Self.key
            if let pointer = pthread_getspecific(key) {
                return Unmanaged<Scope>.fromOpaque(pointer).takeUnretainedValue()
            }
            guard creating else { return nil }
            let scope = Scope()
            pthread_setspecific(key, Unmanaged.passRetained(scope).toOpaque())
            return scope
        }

        /// The key of the per-thread scope; its destructor releases the scope when the thread ends.
        static let key: pthread_key_t = {
            var key = pthread_key_t()
            let status = pthread_key_create(&key) { pointer in
                guard let pointer else { return }
                Unmanaged<Scope>.fromOpaque(pointer).release()
            }
            precondition(status == 0, "pthread_key_create failed (\(status)): too many thread-specific keys")
            return key
        }()
    }
}
