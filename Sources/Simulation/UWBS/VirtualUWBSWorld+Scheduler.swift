import Logging
import NearbySupport

// Time and the scheduler: world time (``VirtualUWBSTimeline``), the manual clock's
// ``advance(by:)`` and the real-time loop (``VirtualUWBSScheduler``) that run the rounds due.
extension VirtualUWBSWorld {
    /// World time, seconds since the world was created (or as far as ``advance(by:)`` moved it).
    public var now: Double { timeline.now }

    /// Scenario time at world time `time`, `nil` before the scenario started.
    public func scenarioTime(at time: Double) -> Double? {
        timeline.scenarioTime(at: time)
    }

    /// Restarts the scenario: its clock is 0 now (with ``ScenarioStart/firstRanging``, at the
    /// next paired round).
    public func restartScenario() {
        timeline.restartScenario()
    }

    /// Manual clock: moves time forward by `seconds`, running every round due on the way, in
    /// order, before returning.
    /// - Throws: ``VirtualUWBSError``: `notManualClock` with a real-time clock,
    ///   `invalidParameter` unless `0 ≤ seconds ≤ 86400`.
    public func advance(by seconds: Double) throws(VirtualUWBSError) {
        guard timeline.isManual else {
            throw VirtualUWBSError(.notManualClock, "advance(by:) needs a world with the manual clock; this one runs in \(clock)")
        }
        guard seconds >= 0, seconds <= 86400 else {
            throw VirtualUWBSError(.invalidParameter, "cannot advance by \(seconds) s, expected 0 ... 86400 s")
        }
        let target = timeline.now + seconds
        runDueRounds(upTo: target)
        timeline.moveManualTime(to: target)
    }

    /// Real time: starts the scheduler loop (once; never after shutdown).
    func ensureScheduler() {
        guard case .realTime = clock, !scheduler.isStarted, !isShutDown else { return }
        scheduler.start { [weak self] in
            guard let self else { return nil }
            return await self.schedulerStep()
        }
    }

    /// How far ahead of the wall clock a real-time step runs rounds, real seconds, while every
    /// attached device's packets carry their time (in-process transports): the rounds due
    /// within it share one wake-up of the world's thread (8 accessories at 100 Hz on one host
    /// radio: their rounds follow each other about 1.25 ms apart, so one wake-up runs two
    /// intervals' rounds instead of one round). Each round still runs at its own scheduled
    /// world time, in order; its packets leave up to this much earlier, with that time mapped
    /// to the real clock (``VirtualUWBSTimeline/monotonicTime(at:)``), which the host stamps
    /// their samples with, so no sample moves in time (specs/runtime.md §6.1, seventh pass).
    static let batchWindow = 0.020

    /// The window while a device's packets cannot carry their time (a TCP connection: `nearby
    /// sim uwbs`, `demo --serve-kit`), whose host stamps a packet when it reads it: a packet
    /// sent early moves its samples by as much, so the world runs at most 1 ms ahead.
    static let untimedBatchWindow = 0.001

    /// Runs what is due (and due within ``batchWindow``, or ``untimedBatchWindow``) and returns
    /// the real seconds until the next round (or half a second).
    private func schedulerStep() -> Double? {
        guard !isShutDown, case .realTime(let speed) = clock else { return nil }
        scheduler.timer.beginStep()
        // The step's packets reach the host's readers on this thread: their consumers are
        // woken once for the step, not once per round (``WakeBatch``).
        let target = now + (outputsTimed ? timedBatchWindow : Self.untimedBatchWindow) * speed
        WakeBatch.run { runDueRounds(upTo: target) }
        return nextDueTime().map { max(0, ($0 - now) / speed) } ?? 0.5
    }

    /// Something changed (a command, a peer, a fault): the scheduler looks at the rounds now.
    func wakeScheduler() { scheduler.wake() }

    /// Tests: runs rounds up to `seconds` of real time ahead while every output is timed,
    /// instead of ``batchWindow``.
    func setBatchWindow(_ seconds: Double) {
        timedBatchWindow = seconds
        wakeScheduler()
    }

    /// The real time (`MonotonicTime` seconds) at which world time `time` is (or was) with a
    /// real-time clock, `nil` with the manual clock: what an in-process host stamps the samples
    /// of a round at `time` with.
    public func monotonicTime(at time: Double) -> Double? {
        timeline.monotonicTime(at: time)
    }

    private func nextDueTime() -> Double? {
        var earliest: Double?
        for device in devicesInOrder {
            guard let due = device.uwbs.nextDueTime() else { continue }
            if let current = earliest, current <= due { continue }
            earliest = due
        }
        return earliest
    }

    /// Runs every round due at or before `target`, earliest first; at equal times controllers
    /// before controlees (so a controlee's reception check sees the round of that instant), and
    /// among rounds due at once (several waiting for one radio) the least recently run first.
    func runDueRounds(upTo target: Double) {
        var guardCount = 0
        while guardCount < 1_000_000 {
            guardCount += 1
            // Devices in identifier order, each one's first due round (VirtualUWBS orders its
            // own): the first device with the earliest round wins a tie.
            var best: (round: VirtualUWBS.DueRound, device: Device)?
            for device in devicesInOrder {
                guard let round = device.uwbs.earliestDueRound(upTo: target) else { continue }
                if let current = best, !round.precedes(current.round) { continue }
                best = (round, device)
            }
            guard let best else { return }
            timeline.moveManualTime(to: best.round.due)
            runRound(best.device, token: best.round.token, at: best.round.due)
        }
        logger.error("more than a million ranging rounds were due at once; the scheduler stopped early")
    }
}
