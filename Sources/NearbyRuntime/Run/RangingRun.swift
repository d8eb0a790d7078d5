public import Hooks
import NIProtocol
public import NearbyInteraction
public import NearbySupport
import Synchronization
import Ranging

/// One run of the ranging engine: events in (from live sessions, the simulator or a trace),
/// status, summary, hooks and outputs out. It prints nothing itself: outputs do.
///
/// ```swift
/// let run = RangingRun(context: context, outputs: [JSONLinesOutput(write: { print($0, terminator: "") }, notes: { _ in })],
///                      hooks: HookRunner(hooks: settings.hooks))
/// await run.consume(manager.events, droppedUpdates: { manager.droppedUpdates })
/// let summary = await run.finish(interrupted: false)
/// ```
///
/// Hooks see each event once, built statelessly from the event (a zone change carries both
/// zones, the update carries the distance), with `NEARBY_TIMESTAMP` the event's own time.
public final class RangingRun: Sendable {
    /// Who ranges, the zones, the clocks.
    public let context: RunContext
    /// Every accessory's live status.
    public let status = StatusBoard()
    /// The zone-trigger hooks, if any.
    public let hooks: HookRunner?

    private let outputs: [any RunOutput]
    private let gate = Mutex(Gate())
    private let reporter = Mutex<Task<Int, Never>?>(nil)

    private struct Gate {
        var lastTime: Double?
        var reportedOutputDrops = 0
    }

    /// Starts a run: announces the accessories and tells every output.
    /// - Parameters:
    ///   - context: accessories, zones, clocks.
    ///   - outputs: where events go, in this order.
    ///   - hooks: the hook runner (its outcomes go to the outputs), `nil` for none.
    public init(context: RunContext, outputs: [any RunOutput], hooks: HookRunner? = nil) {
        self.context = context
        self.outputs = outputs
        self.hooks = hooks
        for identity in context.accessories { status.add(identity) }
        for output in outputs { output.runStarted(context) }
        if let hooks {
            let outcomes = hooks.outcomes()
            let task = Task { [weak self] in
                var failures = 0
                for await outcome in outcomes {
                    if !outcome.succeeded { failures += 1 }
                    self?.report(outcome)
                }
                return failures
            }
            reporter.withLock { $0 = task }
        }
    }

    private func report(_ outcome: HookOutcome) {
        let time = context.eventTime(wallClock: outcome.event.timestamp)
        gate.withLock { _ in
            for output in outputs {
                output.hookFinished(outcome, at: time)
                output.flush()
            }
        }
    }

    /// A note for people, to every output.
    public func note(_ text: String) {
        gate.withLock { _ in
            for output in outputs {
                output.flush()
                output.note(text)
            }
        }
    }

    /// Handles one event: status, outputs, hooks.
    /// - Returns: `true` if a hook event was queued for it (a replay at full speed waits for
    ///   hooks then).
    @discardableResult
    public func handle(_ event: NearbySessionEvent) -> Bool {
        let after = status.apply(event)
        gate.withLock { gate in
            gate.lastTime = max(gate.lastTime ?? event.time, event.time)
            for output in outputs { output.handle(event, status: after) }
        }
        return dispatchHooks(event)
    }

    /// Consumes `events` until they end (a manager's `NearbySessionManager.events`
    /// after it stopped). Drops of the output queue (`droppedUpdates`) are reported as they happen.
    public func consume<Events: AsyncSequence<NearbySessionEvent, Never>>(
        _ events: Events, droppedUpdates: @escaping @Sendable () -> Int = { 0 }
    ) async {
        for await event in events {
            handle(event)
            reportOutputDrops(droppedUpdates(), at: event.time)
            flush()
        }
        reportOutputDrops(droppedUpdates(), at: gate.withLock { $0.lastTime } ?? context.start)
        flush()
    }

    /// Consumes a queue of events until it ends, a burst at a time: every event that waits is
    /// handled, then the outputs write once (``RunOutput/flush()``). One wake-up and one
    /// `write(2)` per burst, however many accessories it carries.
    public func consume(_ events: Mailbox<NearbySessionEvent>, droppedUpdates: @escaping @Sendable () -> Int = { 0 }) async {
        var batch: [NearbySessionEvent] = []
        batch.reserveCapacity(256)
        while await events.receive(into: &batch, limit: 256) {
            // By index: `for event in batch` and `batch.last` would copy each event (~300 bytes).
            for index in batch.indices { handle(batch[index]) }
            if !batch.isEmpty { reportOutputDrops(droppedUpdates(), at: batch[batch.count - 1].time) }
            batch.removeAll(keepingCapacity: true)
            flush()
        }
        reportOutputDrops(droppedUpdates(), at: gate.withLock { $0.lastTime } ?? context.start)
        flush()
    }

    /// Tells every output to write what it gathered (after a burst of events).
    public func flush() {
        gate.withLock { _ in
            for output in outputs { output.flush() }
        }
    }

    /// Ends the run: waits for the hooks (or, if `interrupted`, ends running ones: they run in
    /// their own process groups, so the terminal's Ctrl-C does not reach them), then tells every
    /// output the summary.
    public func finish(interrupted: Bool) async -> RunSummary {
        var summary = RunSummary(accessories: status.snapshot)
        if let hooks {
            if interrupted { await hooks.cancel() } else { await hooks.finish() }
            let statistics = await hooks.statistics()
            summary.hookRuns = statistics.runs
            summary.hookEventsDropped = statistics.dropped
            summary.hookFailures = await reporter.withLock({ $0 })?.value ?? 0
        }
        let (last, drops) = gate.withLock { ($0.lastTime, $0.reportedOutputDrops) }
        summary.duration = last.map { context.elapsed($0) } ?? 0
        summary.droppedUpdates = drops
        summary.interrupted = interrupted
        flush()
        for output in outputs { await output.runFinished(summary) }
        return summary
    }

    private func dispatchHooks(_ event: NearbySessionEvent) -> Bool {
        guard let hooks, let accessory = event.accessory else { return false }
        var submitted = false
        func submit(_ ranging: RangingEvent, distance: Double?) {
            for hookEvent in HookEvent.events(
                for: ranging, accessoryName: accessory.displayName, accessoryID: accessory.id, distance: distance,
                timestamp: context.wallClock(ranging.timestamp))
            {
                if hooks.submit(hookEvent) { submitted = true }
            }
        }
        switch event.kind {
        case .update(let update):
            for ranging in update.events { submit(ranging, distance: update.distance) }
        case .ranging(let ranging):
            submit(ranging, distance: nil)
        default:
            break
        }
        return submitted
    }

    private func reportOutputDrops(_ total: Int, at time: Double) {
        let new: Int = gate.withLock { gate in
            guard total > gate.reportedOutputDrops else { return 0 }
            defer { gate.reportedOutputDrops = total }
            return total - gate.reportedOutputDrops
        }
        guard new > 0 else { return }
        handle(NearbySessionEvent(accessory: nil, time: time, kind: .dropped(DropReport(queue: .output, count: new, total: total))))
    }
}
