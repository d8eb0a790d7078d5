#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The thread a ``VirtualUWBSScheduler``'s loop runs on, and the one timer it sleeps on.
///
/// A `TaskExecutor`: the loop task prefers it, so the loop and the world's steps it awaits (the
/// world is a default actor, which runs on its caller's preferred executor) run on this thread,
/// in enqueue order. ``sleep(seconds:)`` parks the loop until a deadline that this thread itself
/// waits for (`pthread_cond_timedwait` on `CLOCK_MONOTONIC`), or until ``wake()``: when the
/// deadline passes the thread resumes the loop and runs it at once, with no other thread
/// involved. A wake while the loop is not asleep (its step is done, the sleep not yet begun)
/// ends the next sleep at once, so no change is missed; ``beginStep()`` forgets wakes the step
/// about to run sees anyway.
///
/// The thread ends after ``stop()`` once nothing waits to run; a job enqueued after that (none
/// is expected: only the loop task prefers this executor) runs on the global executor.
final class VirtualUWBSSchedulerThread: TaskExecutor, @unchecked Sendable {
    // Guarded by `mutex` (a pthread mutex, for the condition variable's timed wait).
    private var jobs: [UnownedJob] = []
    /// The sleeping loop's continuation; whoever ends the sleep (a wake, `stop`, the deadline)
    /// takes it under `mutex` and resumes it, so it is resumed exactly once: unchecked (a
    /// checked continuation allocated a canary at every sleep).
    private var waiter: UnsafeContinuation<Void, Never>?
    private var deadline: timespec?
    private var pendingWake = false
    private var stopped = false
    private var threadRunning = false
    private var threadWaiting = false

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Starts the thread (once).
    func startThread() {
        let start = locked { () -> Bool in
            guard !threadRunning, !stopped else { return false }
            threadRunning = true
            return true
        }
        guard start else { return }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            let executor = Unmanaged<VirtualUWBSSchedulerThread>.fromOpaque(context!).takeRetainedValue()
            executor.run()
            return nil
        }, context)
        if status == 0 {
            pthread_detach(thread)
        } else {
            // No thread: the loop's jobs go to the global executor (see `enqueue`).
            Unmanaged<VirtualUWBSSchedulerThread>.fromOpaque(context).release()
            locked { threadRunning = false; stopped = true }
        }
    }

    /// Runs a job of the loop task on this thread (or on the global executor once it ended).
    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let queued = locked { () -> Bool in
            guard threadRunning else { return false }
            jobs.append(unowned)
            if threadWaiting { pthread_cond_signal(condition) }
            return true
        }
        if !queued { globalConcurrentExecutor.enqueue(unowned) }
    }

    /// Sleeps `seconds` (at most half a second), or less if woken or stopped.
    func sleep(seconds: Double) async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let resumeNow = locked { () -> Bool in
                if stopped || pendingWake {
                    pendingWake = false
                    return true
                }
                waiter = continuation
                deadline = Self.monotonicTime(after: min(max(seconds, 0), 0.5))
                if threadWaiting { pthread_cond_signal(condition) }
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// The loop's step starts: wakes so far are covered by it.
    func beginStep() {
        locked { pendingWake = false }
    }

    /// Ends the current sleep (or the next one, if none is under way).
    func wake() {
        let waiter = locked { () -> UnsafeContinuation<Void, Never>? in
            guard !stopped else { return nil }
            guard let waiter = self.waiter else {
                pendingWake = true
                return nil
            }
            self.waiter = nil
            deadline = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Ends the sleep under way and every later one at once; the thread ends once nothing waits
    /// to run.
    func stop() {
        let waiter = locked { () -> UnsafeContinuation<Void, Never>? in
            stopped = true
            deadline = nil
            if threadWaiting { pthread_cond_signal(condition) }
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?.resume()
    }

    /// The thread: runs the jobs as they come, and resumes the sleeping loop at its deadline.
    private func run() {
        let executor = asUnownedTaskExecutor()
        var batch: [UnownedJob] = []
        while true {
            var due: UnsafeContinuation<Void, Never>?
            pthread_mutex_lock(mutex)
            while jobs.isEmpty {
                if stopped {
                    threadRunning = false
                    pthread_mutex_unlock(mutex)
                    return
                }
                if var until = deadline {
                    threadWaiting = true
                    let status = pthread_cond_timedwait(condition, mutex, &until)
                    threadWaiting = false
                    if status == ETIMEDOUT, let current = deadline, Self.hasPassed(current) {
                        deadline = nil
                        due = waiter
                        waiter = nil
                        break
                    }
                } else {
                    threadWaiting = true
                    pthread_cond_wait(condition, mutex)
                    threadWaiting = false
                }
            }
            swap(&batch, &jobs)
            pthread_mutex_unlock(mutex)
            // Resuming enqueues the loop's job on this executor: it runs in the next turn.
            due?.resume()
            for job in batch { job.runSynchronously(on: executor) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    private static func monotonicTime(after seconds: Double) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = Int(now.tv_nsec) + Int((seconds * 1e9).rounded(.up))
        return timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }

    private static func hasPassed(_ time: timespec) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return (now.tv_sec, now.tv_nsec) >= (time.tv_sec, time.tv_nsec)
    }
}
