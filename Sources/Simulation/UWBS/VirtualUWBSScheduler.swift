import Dispatch
import Synchronization

/// The real-time scheduler of a ``VirtualUWBSWorld``: one loop, for the world's lifetime, that
/// runs the rounds due and sleeps on one timer until the next one (at most half a second),
/// woken early when something changes (a command, a peer, a fault). A manual clock has none:
/// ``VirtualUWBSWorld/advance(by:)`` runs the rounds.
///
/// The loop is one task and the sleep one re-armed dispatch timer resuming a continuation:
/// a step used to start a new task for each sleep (and cancel it to wake early), about 8,000
/// instructions of task machinery per step, at 8 × 100 Hz 1.6 steps per update
/// (specs/runtime.md §6.1).
struct VirtualUWBSScheduler {
    private var loop: Task<Void, Never>?
    /// The loop's timer (shared with the loop task).
    let timer = VirtualUWBSSchedulerTimer()

    /// `true` once the loop was started.
    var isStarted: Bool { loop != nil }

    /// Starts the loop: it calls `step` (which runs what is due and returns the seconds until
    /// the next round) and sleeps that long, until `step` returns `nil`.
    mutating func start(_ step: @escaping @Sendable () async -> Double?) {
        guard loop == nil else { return }
        loop = Task { [timer] in
            while let wait = await step() {
                await timer.sleep(seconds: wait)
            }
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

/// The one timer a ``VirtualUWBSScheduler`` sleeps on: ``sleep(seconds:)`` arms it and waits
/// until it fires or ``wake()`` ends the sleep early. A wake while the loop is not asleep (its
/// step is done, the sleep not yet begun) ends the next sleep at once, so no change is missed;
/// ``beginStep()`` forgets wakes the step about to run sees anyway.
final class VirtualUWBSSchedulerTimer: Sendable {
    private struct State {
        var source: (any DispatchSourceTimer)?
        var waiter: CheckedContinuation<Void, Never>?
        var pendingWake = false
        var stopped = false
    }

    private let state = Mutex(State())

    /// How late the timer may fire, at most (lets the kernel coalesce wake-ups).
    static let leeway = DispatchTimeInterval.microseconds(100)

    /// Sleeps `seconds` (at most half a second), or less if woken or stopped.
    func sleep(seconds: Double) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.stopped || state.pendingWake {
                    state.pendingWake = false
                    return true
                }
                state.waiter = continuation
                let source = state.source ?? makeSource()
                state.source = source
                let nanoseconds = Int((min(max(seconds, 0), 0.5) * 1e9).rounded(.up))
                source.schedule(deadline: .now() + .nanoseconds(nanoseconds), leeway: Self.leeway)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// The loop's step starts: wakes so far are covered by it.
    func beginStep() {
        state.withLock { $0.pendingWake = false }
    }

    /// Ends the current sleep (or the next one, if none is under way).
    func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.stopped else { return nil }
            guard let waiter = state.waiter else {
                state.pendingWake = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Ends the sleep under way and every later one at once, and releases the timer.
    func stop() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.stopped = true
            state.source?.cancel()
            state.source = nil
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    deinit {
        state.withLock { $0.source?.cancel() }
    }

    /// The timer fired: the sleep under way ends (a fire armed by an earlier, woken sleep may
    /// end a later one early; the loop then just looks again).
    private func fire() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    private func makeSource() -> any DispatchSourceTimer {
        let source = DispatchSource.makeTimerSource()
        source.setEventHandler { [weak self] in self?.fire() }
        source.activate()
        return source
    }
}
