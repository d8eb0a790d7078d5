#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The real-time scheduler of a ``VirtualUWBSWorld``: one loop, for the world's lifetime, that
/// runs the rounds due and sleeps on one timer until the next one (at most half a second),
/// woken early when something changes (a command, a peer, a fault). A manual clock has none:
/// ``VirtualUWBSWorld/advance(by:)`` runs the rounds.
///
/// The loop is one task running on a thread of its own (``VirtualUWBSSchedulerThread``, the
/// task's executor preference, so the world's steps run there too), and the sleep is that
/// thread's timed wait: a wake-up is one thread waking, not libdispatch's timer thread, then a
/// worker for the timer's handler, then one for the task (about 50 µs per wake-up on the 2-core
/// test machine; specs/runtime.md §6.1). Earlier, a step started a new task for each sleep.
struct VirtualUWBSScheduler {
    private var loop: Task<Void, Never>?
    /// The loop's thread and timer (shared with the loop task).
    let timer = VirtualUWBSSchedulerThread()

    /// `true` once the loop was started.
    var isStarted: Bool { loop != nil }

    /// Starts the loop: it calls `step` (which runs what is due and returns the seconds until
    /// the next round) and sleeps that long, until `step` returns `nil`.
    mutating func start(_ step: @escaping @Sendable () async -> Double?) {
        guard loop == nil else { return }
        timer.startThread()
        loop = Task(executorPreference: timer) { [timer] in
            while let wait = await step() {
                await timer.sleep(seconds: wait)
            }
            timer.stop()
        }
    }

    /// Ends the current sleep: the loop looks at the rounds again now.
    func wake() { timer.wake() }

    /// Stops the loop for good.
    func stop() {
        timer.stop()
        loop?.cancel()
    }
}

