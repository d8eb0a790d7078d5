public import Logging
import NearbySupport
import Synchronization
import NearbyBase

/// Runs hooks on events without ever stalling the caller (the ranging pipeline).
///
/// - ``submit(_:)`` is synchronous, non-blocking and callable from any thread: it puts the event
///   in a bounded queue (``Options/queueCapacity``; when full the oldest queued event is dropped
///   and the drops are counted and logged) and returns at once. Events that match no hook are
///   not queued at all.
/// - A dispatcher takes events from the queue and starts every matching hook as a child process
///   (``HookDefinition``: argv only, event data in the environment), off the caller's thread.
/// - At most one instance of each hook runs at a time. Events that match a hook while it runs are
///   coalesced: only the latest is kept, and the hook runs once more for it when the current run
///   ends (its outcome says how many events it stands for, and the log says so).
/// - Cooldown: a hook does not start again until ``HookDefinition/cooldown`` seconds after its
///   previous start; events in between (and a coalesced run that would start too early) are
///   dropped and logged.
/// - Timeout: a run still going after ``HookDefinition/timeout`` gets SIGTERM (its whole process
///   group: every hook runs in its own session), then SIGKILL after ``Options/killGracePeriod``.
/// - Every run's exit status, duration and output tails are logged and streamed
///   (``outcomes()``).
///
/// Shut down with ``finish()`` (waits for queued and running hooks, each bounded by its timeout)
/// or ``cancel()`` (ends running hooks now). Contract: `specs/hooks.md`.
public actor HookRunner {
    /// Tuning of a runner.
    public struct Options: Sendable, Hashable {
        /// Events that can wait for the dispatcher (≥ 1, default 256).
        public var queueCapacity: Int
        /// Time between SIGTERM and SIGKILL for a hook past its timeout (default 2 s).
        public var killGracePeriod: Duration
        /// Bytes of stdout and of stderr kept per run for logs and outcomes (default 4096).
        public var outputTailBytes: Int

        /// Creates options.
        public init(queueCapacity: Int = 256, killGracePeriod: Duration = .seconds(2), outputTailBytes: Int = 4096) {
            self.queueCapacity = max(queueCapacity, 1)
            self.killGracePeriod = killGracePeriod
            self.outputTailBytes = max(outputTailBytes, 0)
        }
    }

    /// Counters since the runner started.
    public struct Statistics: Sendable, Hashable {
        /// Events accepted by ``HookRunner/submit(_:)`` (those matching at least one hook).
        public var submitted = 0
        /// Events dropped because the queue was full.
        public var dropped = 0
        /// Events taken from the queue and matched against the hooks (`submitted − dropped` once idle).
        public var dispatched = 0
        /// Runs started.
        public var runs = 0
        /// Events folded into a later run because the hook was still running.
        public var coalesced = 0
        /// Events (or coalesced runs) dropped because the hook was in its cooldown.
        public var suppressedByCooldown = 0
    }

    private struct Counters {
        var submitted = 0
        var dropped = 0
        var closed = false
    }

    private struct HookState {
        var task: Task<Void, Never>?
        var lastStart: Double?
        var pending: HookEvent?
        var pendingCount = 0
    }

    /// The hooks, in order (``HookOutcome/hookIndex`` indexes this).
    public nonisolated let hooks: [HookDefinition]
    /// The options in use.
    public nonisolated let options: Options
    private nonisolated let input: AsyncStream<HookEvent>.Continuation
    private nonisolated let counters = Mutex(Counters())
    private nonisolated let broadcaster = Broadcaster<HookOutcome>(bufferingNewest: 4096)
    private let logger: Logger
    private let timeSource: TimeSource
    private var states: [HookState]
    private var consumed = 0
    private var reportedDrops = 0
    private var stats = Statistics()
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var cancelling = false

    /// Creates a runner and starts its dispatcher.
    /// - Parameters:
    ///   - hooks: the hooks (validated ``HookDefinition``s); may be empty.
    ///   - options: queue size, kill grace period, output tail size.
    ///   - logger: receives one line per run (info on success, warning on failure or timeout,
    ///     error when a command cannot start), coalescing, cooldown and queue drops.
    ///   - timeSource: the clock of the cooldowns (a monotonic clock; tests pass a manual one).
    public init(
        hooks: [HookDefinition], options: Options = Options(), logger: Logger = Logger(label: "nearby.hooks"),
        timeSource: TimeSource = .continuous
    ) {
        self.hooks = hooks
        self.options = options
        self.timeSource = timeSource
        self.logger = logger
        self.states = Array(repeating: HookState(), count: hooks.count)
        let (stream, continuation) = AsyncStream.makeStream(
            of: HookEvent.self, bufferingPolicy: .bufferingNewest(options.queueCapacity))
        self.input = continuation
        Task { await self.consume(stream) }
    }

    /// Queues `event` for the hooks that match it and returns at once (never blocks, never
    /// waits for a hook).
    /// - Returns: `true` if the event was queued; `false` if no hook matches it or the runner
    ///   is finishing. When the queue is full the *oldest* queued event is dropped (counted in
    ///   ``statistics()`` and logged), and the new one is queued.
    @discardableResult
    public nonisolated func submit(_ event: HookEvent) -> Bool {
        guard hooks.contains(where: { $0.matches(event) }) else { return false }
        let open = counters.withLock { counters -> Bool in
            if counters.closed { return false }
            counters.submitted += 1
            return true
        }
        guard open else { return false }
        switch input.yield(event) {
        case .enqueued:
            return true
        case .dropped:
            counters.withLock { $0.dropped += 1 }
            return true
        case .terminated:
            counters.withLock { $0.submitted -= 1 }
            return false
        @unknown default:
            return true
        }
    }

    /// A stream of the outcome of every run from now on, in completion order; it ends after
    /// ``finish()`` or ``cancel()``. Subscribe before submitting events you want to observe.
    public nonisolated func outcomes() -> AsyncStream<HookOutcome> {
        broadcaster.subscribe()
    }

    /// The counters so far.
    public func statistics() -> Statistics {
        var result = stats
        let counts = counters.withLock { $0 }
        result.submitted = counts.submitted
        result.dropped = counts.dropped
        result.dispatched = consumed
        return result
    }

    /// Waits until every submitted event has been dispatched and no hook is running or pending.
    /// Bounded by the hooks' timeouts (plus the kill grace period).
    public func waitUntilIdle() async {
        if isIdle { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    /// Stops accepting events, runs what is queued and waits for every hook to finish (each
    /// bounded by its timeout), then ends the ``outcomes()`` streams. Call it before exiting.
    public func finish() async {
        close()
        await waitUntilIdle()
        reportDrops()
        broadcaster.finish()
    }

    /// Stops accepting events, drops queued and coalesced ones, ends running hooks (SIGTERM to
    /// their process groups, SIGKILL after the grace period), waits for them and ends the
    /// ``outcomes()`` streams. For a fast shutdown (e.g. on a second Ctrl-C).
    public func cancel() async {
        cancelling = true
        close()
        for index in states.indices {
            if states[index].pending != nil {
                logger.notice("hook '\(hooks[index].name)': dropped \(states[index].pendingCount) waiting events (shutting down)")
            }
            states[index].pending = nil
            states[index].pendingCount = 0
            states[index].task?.cancel()
        }
        await waitUntilIdle()
        broadcaster.finish()
    }

    // MARK: - Dispatcher

    private nonisolated func close() {
        counters.withLock { $0.closed = true }
        input.finish()
    }

    private var isIdle: Bool {
        let counts = counters.withLock { $0 }
        return consumed == counts.submitted - counts.dropped && states.allSatisfy { $0.task == nil && $0.pending == nil }
    }

    private func checkIdle() {
        guard isIdle, !idleWaiters.isEmpty else { return }
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    private func consume(_ stream: AsyncStream<HookEvent>) async {
        for await event in stream {
            consumed += 1
            reportDrops()
            if !cancelling { dispatch(event) }
            checkIdle()
        }
        checkIdle()
    }

    private func reportDrops() {
        let dropped = counters.withLock { $0.dropped }
        guard dropped > reportedDrops else { return }
        logger.warning(
            "hook queue full (capacity \(options.queueCapacity)): dropped \(dropped - reportedDrops) events (\(dropped) in total); events arrive faster than the dispatcher takes them")
        reportedDrops = dropped
    }

    private func dispatch(_ event: HookEvent) {
        for index in hooks.indices where hooks[index].matches(event) {
            let hook = hooks[index]
            if states[index].task != nil {
                states[index].pending = event
                states[index].pendingCount += 1
                stats.coalesced += 1
                logger.debug("hook '\(hook.name)' is still running; \(event) waits (coalesced with \(states[index].pendingCount - 1) earlier)")
                continue
            }
            if let remaining = cooldownRemaining(index) {
                stats.suppressedByCooldown += 1
                logger.info("hook '\(hook.name)': skipped \(event), cooldown (\(HookEvent.fixed3(remaining)) s left of \(HookEvent.fixed3(hook.cooldown)) s)")
                continue
            }
            start(index, event, coalesced: 0)
        }
    }

    /// Seconds left of hook `index`'s cooldown, `nil` if it may start now.
    private func cooldownRemaining(_ index: Int) -> Double? {
        let hook = hooks[index]
        guard hook.cooldown > 0, let last = states[index].lastStart else { return nil }
        let elapsed = timeSource.now() - last
        return elapsed < hook.cooldown ? hook.cooldown - elapsed : nil
    }

    private func start(_ index: Int, _ event: HookEvent, coalesced: Int) {
        let hook = hooks[index]
        states[index].lastStart = timeSource.now()
        stats.runs += 1
        logger.debug("hook '\(hook.name)': running \(hook.run) for \(event)")
        let timeout = Duration.milliseconds(Int64((hook.timeout * 1000).rounded(.up)))
        let grace = options.killGracePeriod
        let tailLimit = options.outputTailBytes
        // `make perf`: the latency from the sample's read to the hook's process running.
        var started: (@Sendable () -> Void)?
        if let probe = LatencyProbe.shared {
            let eventTime = event.timestamp
            started = { probe.recordHook(readAt: eventTime, startedAt: LatencyProbe.wallNow()) }
        }
        let onStart = started
        states[index].task = Task {
            let result = await HookProcess.run(
                hook.run, environment: event.environment, timeout: timeout, grace: grace, tailLimit: tailLimit, started: onStart)
            self.completed(index, event: event, coalesced: coalesced, result: result)
        }
    }

    private func completed(_ index: Int, event: HookEvent, coalesced: Int, result: HookProcess.Result) {
        let hook = hooks[index]
        let outcome = HookOutcome(
            hookIndex: index, hookName: hook.name, event: event, status: result.status, timedOut: result.timedOut,
            duration: result.duration, coalescedEvents: coalesced, standardOutputTail: result.standardOutput,
            standardErrorTail: result.standardError)
        log(outcome, hook: hook)
        broadcaster.yield(outcome)
        states[index].task = nil
        if let pending = states[index].pending {
            let count = states[index].pendingCount
            states[index].pending = nil
            states[index].pendingCount = 0
            if let remaining = cooldownRemaining(index) {
                stats.suppressedByCooldown += 1
                logger.info("hook '\(hook.name)': dropped \(count) events that arrived while it ran, cooldown (\(HookEvent.fixed3(remaining)) s left)")
            } else {
                logger.notice("hook '\(hook.name)': coalesced \(count) events that arrived while it ran; running once more for the latest (\(pending))")
                start(index, pending, coalesced: count)
            }
        }
        checkIdle()
    }

    private func log(_ outcome: HookOutcome, hook: HookDefinition) {
        var metadata: Logger.Metadata = [
            "hook": .string(hook.name), "event": .string(outcome.event.kind.rawValue),
            "status": .string(outcome.status.description), "duration_s": .string(HookEvent.fixed3(outcome.duration)),
        ]
        if !outcome.standardOutputTail.isEmpty { metadata["stdout"] = .string(outcome.standardOutputTail) }
        if !outcome.standardErrorTail.isEmpty { metadata["stderr"] = .string(outcome.standardErrorTail) }
        switch outcome.status {
        case .failedToStart:
            logger.error("\(outcome)", metadata: metadata)
        case _ where outcome.timedOut:
            logger.warning(
                "\(outcome): still running after its \(HookEvent.fixed3(hook.timeout)) s timeout, ended; raise `timeout` if it needs longer",
                metadata: metadata)
        case .exited(0):
            logger.info("\(outcome)", metadata: metadata)
        default:
            logger.warning("\(outcome)", metadata: metadata)
        }
    }
}

extension HookRunner {
    /// The clock of cooldowns: seconds on a monotonic clock.
    public struct TimeSource: Sendable {
        /// The current time, seconds (any origin, never going back).
        public let now: @Sendable () -> Double

        /// A time source of `now`.
        public init(now: @escaping @Sendable () -> Double) { self.now = now }

        /// The process's monotonic clock.
        public static var continuous: TimeSource {
            let clock = ContinuousClock()
            let origin = clock.now
            return TimeSource { (clock.now - origin).inSeconds }
        }
    }
}
