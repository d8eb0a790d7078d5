import Logging
import NearbySupport
import NIProtocol
import Ranging
import Synchronization
import UCI
import UWBDevice

/// The per-sample middle of a Nearby Interaction session, the one both roles use
/// (``AccessorySession`` as the phone, ``AccessoryRoleSession`` as the accessory): the kit's
/// range samples through the ranging pipeline into the run's event queue, on the thread that
/// read them.
///
/// - **Where samples go.** ``sink(for:)`` is what the session opens its kit session with; the
///   `UCIClient` routes the session's range data to it by session token and calls it
///   on the transport's reader, so a sample is decoded, filtered and queued as an update with no
///   hand-off between. A sample is processed only while the lane ranges (``begin(session:at:)``
///   until ``pause()``) and only if it belongs to the kit session the lane ranges with; any
///   other (a stopped session's, one that came while not ranging) is discarded and counted, and
///   reported as a ``DropReport`` of queue `stopped-session` (``takeLossReport()``), so every
///   sample the kit sent is an update or counted.
/// - **Silence.** While ranging, one timer is pending for the moment the pipeline would report
///   `lost` (last usable sample + `lostAfter`); samples do not touch it, so it wakes once per
///   `lostAfter` at most, and nothing runs while the lane does not range.
/// - **What the session hears** (``Signal``, through its own inbox, at most once per ``begin``
///   each): `lost` (the pipeline lost the accessory while the kit was not away: a lane that
///   `recovers` stops ranging and its session starts its recovery; the accessory role, which
///   the phone drives, ranges on) and `rangingAgain` (the first usable sample).
final class RangingLane: Sendable {
    /// What the lane tells its session.
    enum Signal: Sendable {
        /// The accessory was lost while ranging in lane epoch `epoch` (``begin(session:at:)``'s
        /// result): the lane stopped ranging; the session recovers.
        case lost(epoch: Int)
        /// The first usable sample since ``begin(session:at:)`` of epoch `epoch`.
        case rangingAgain(epoch: Int)
    }

    private struct State {
        var pipeline: RangingPipeline<ConfiguredFilter>
        var ranging = false
        var session: UInt32?
        var epoch = 0
        var interrupted = false
        var awaitingUsable = false
        var processed = 0
        var discarded = 0
        var reportedDiscarded = 0
        /// Where silence counts from, on the samples' clock: the last usable sample or the
        /// last ``expect(since:)``; `nil` once lost.
        var silenceFrom: Double?
        var timer: Task<Void, Never>?
        var closed = false
    }

    /// Who the events name.
    let identity: AccessoryIdentity
    /// Where updates and silence events go (the manager's queue); `nil`: nowhere (a simulated
    /// accessory's own samples are not even filtered).
    private let output: Mailbox<NearbySessionEvent>?
    private let signal: @Sendable (Signal) -> Void
    private let logger: Logger
    private let timeScale: Double
    private let lostAfter: Double
    private let recovers: Bool
    private let epochTime: Double
    private let state: Mutex<State>

    /// A lane with a pipeline built from `configuration` (``AccessorySessionConfiguration/makePipeline()``).
    /// - Parameters:
    ///   - output: the queue updates go to; `nil` for none.
    ///   - recovers: `lost` stops ranging (the phone role, which starts over); `false`: ranging
    ///     goes on until the session pauses the lane (the accessory role).
    ///   - signal: how the session hears `lost` and `rangingAgain` (posts to its inbox).
    init(
        identity: AccessoryIdentity, configuration: AccessorySessionConfiguration, output: Mailbox<NearbySessionEvent>?,
        recovers: Bool = true, logger: Logger, signal: @escaping @Sendable (Signal) -> Void
    ) {
        self.identity = identity
        self.recovers = recovers
        self.output = output
        self.signal = signal
        self.logger = logger
        self.timeScale = configuration.timeScale
        self.epochTime = configuration.timeEpoch ?? MonotonicTime.seconds()
        let pipeline = configuration.makePipeline()
        self.lostAfter = pipeline.lostAfter
        self.state = Mutex(State(pipeline: pipeline))
    }

    deinit {
        state.withLock { $0.timer?.cancel() }
    }

    // MARK: Clock

    /// The pipeline's clock: `MonotonicTime`, scaled by the time scale around the
    /// configuration's `timeEpoch` or the lane's creation (simulations faster than real time).
    func scaled(_ time: Double) -> Double {
        timeScale == 1 ? time : epochTime + (time - epochTime) * timeScale
    }

    private func unscaled(_ time: Double) -> Double {
        timeScale == 1 ? time : epochTime + (time - epochTime) / timeScale
    }

    // MARK: The session's side

    /// The sink to open kit session `id` with: its samples come to ``accept(_:)``.
    func sink(for id: UInt32) -> UWBSampleSink {
        UWBSampleSink { [self] sample in accept(sample) }
    }

    /// Starts ranging with kit session `id`: silence counts from `time` (`MonotonicTime`).
    /// - Returns: the new epoch (signals of older ones are stale).
    @discardableResult
    func begin(session id: UInt32, at time: Double) -> Int {
        state.withLock { state in
            state.epoch += 1
            state.ranging = true
            state.session = id
            state.interrupted = false
            state.awaitingUsable = true
            expect(since: scaled(time), in: &state)
            armTimer(&state)
            return state.epoch
        }
    }

    /// Stops ranging: samples are discarded (and counted) until the next ``begin(session:at:)``.
    func pause() {
        state.withLock { state in
            state.ranging = false
            state.timer?.cancel()
            state.timer = nil
        }
    }

    /// The kit is away (`true`) or back (`false`, silence counts from `time`): while it is
    /// away, `lost` is reported but is no reason to recover (the client restores the session).
    func setInterrupted(_ interrupted: Bool, at time: Double) {
        state.withLock { state in
            state.interrupted = interrupted
            guard !interrupted else { return }
            expect(since: scaled(time), in: &state)
            armTimer(&state)
        }
    }

    /// Stops for good: nothing is processed or timed any more.
    func close() {
        state.withLock { state in
            state.closed = true
            state.ranging = false
            state.timer?.cancel()
            state.timer = nil
        }
    }

    /// Samples that went through the pipeline (one update each).
    var processed: Int { state.withLock { $0.processed } }

    /// Samples discarded so far.
    var discarded: Int { state.withLock { $0.discarded } }

    /// The discards since the last call, as a report (queue `stopped-session`), or `nil`.
    func takeLossReport() -> DropReport? {
        state.withLock { state in
            guard state.discarded > state.reportedDiscarded else { return nil }
            defer { state.reportedDiscarded = state.discarded }
            return DropReport(queue: .stoppedSession, count: state.discarded - state.reportedDiscarded, total: state.discarded)
        }
    }

    // MARK: Samples (the transport's thread)

    /// One sample of a kit session, on the reader that decoded it: through the pipeline if the
    /// lane ranges with its session, else discarded and counted. Never drops: returns `true`.
    func accept(_ peerSample: UCIPeerRangeSample) -> Bool {
        let raised: Signal? = state.withLock { state in
            guard state.ranging, state.session == peerSample.session else {
                state.discarded += 1
                return nil
            }
            guard let output else { return nil }
            var sample = peerSample.sample
            sample.timestamp = scaled(sample.timestamp)
            let update = state.pipeline.process(sample)
            state.processed += 1
            var raised: Signal?
            if sample.isUsable {
                state.silenceFrom = update.timestamp
                if state.awaitingUsable {
                    state.awaitingUsable = false
                    raised = .rangingAgain(epoch: state.epoch)
                }
            }
            var lost = false
            for event in update.events {
                logger.info("\(event)")
                if case .lost = event { lost = true }
            }
            // An update without events may be dropped if the consumer falls behind; one with a
            // zone change, `lost` or `found` never is.
            output.post(NearbySessionEvent(accessory: identity, time: update.timestamp, kind: .update(update)), droppable: update.events.isEmpty)
            if lost, state.pipeline.state == .lost {
                state.silenceFrom = nil
                if !state.interrupted {
                    if recovers {
                        state.ranging = false
                        state.timer?.cancel()
                        state.timer = nil
                    }
                    return .lost(epoch: state.epoch)
                }
            }
            if state.timer == nil { armTimer(&state) }
            return raised
        }
        if let raised { signal(raised) }
        return true
    }

    // MARK: Silence

    private func expect(since time: Double, in state: inout State) {
        state.pipeline.expectSamples(since: time)
        if state.pipeline.state == .tracking {
            state.silenceFrom = max(state.silenceFrom ?? time, time)
        } else {
            state.silenceFrom = time
        }
    }

    /// Arms the silence timer for the pipeline's deadline (nothing if it has none or the lane
    /// does not range).
    private func armTimer(_ state: inout State) {
        state.timer?.cancel()
        state.timer = nil
        guard state.ranging, !state.closed, let from = state.silenceFrom, lostAfter.isFinite else { return }
        // The pipeline reports lost strictly after lostAfter: a millisecond later.
        let delay = max(0, unscaled(from + lostAfter) - MonotonicTime.seconds()) + 0.001
        state.timer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            guard !Task.isCancelled else { return }
            self?.timerFired()
        }
    }

    private func timerFired() {
        let raised: Signal? = state.withLock { state in
            state.timer = nil
            guard state.ranging else { return nil }
            let events = state.pipeline.tick(now: scaled(MonotonicTime.seconds()))
            var lost = false
            for event in events {
                logger.info("\(event)")
                output?.post(NearbySessionEvent(accessory: identity, time: event.timestamp, kind: .ranging(event)))
                if case .lost = event { lost = true }
            }
            if lost, state.pipeline.state == .lost {
                state.silenceFrom = nil
                if !state.interrupted {
                    if recovers { state.ranging = false }
                    return .lost(epoch: state.epoch)
                }
                return nil
            }
            armTimer(&state)
            return nil
        }
        if let raised { signal(raised) }
    }
}
