import Synchronization
public import UCI
public import UWBDevice

/// FiRa two-way ranging with explicit parameters on one dev kit (no BLE): opens the client and a
/// session, starts it, delivers every range sample, and stops on a count, on ``stop(_:)`` (e.g.
/// a signal) or when the session or the dev kit ends it; then stops and deinitializes the
/// session (SESSION_STOP, SESSION_DEINIT) and closes the client. What `nearby uwb range` runs.
///
/// Samples are delivered on the transport's reader, where they were decoded (the session's
/// `UWBSampleSink`): no queue and no task between the kit and the printer. Samples
/// that arrive before ``run(count:sample:batchEnd:event:)`` (at most
/// `UCIClientConfiguration.sampleBufferSize`) wait for it.
///
///     let run = try await UWBRangeRun.open(client: client, sessionID: 42, parameters: parameters)
///     let result = await run.run(count: 10, sample: { print($0) }, event: { print($0) })
public final class UWBRangeRun: Sendable {
    /// The client (opened by ``open(client:sessionID:parameters:)``, closed by ``run(count:sample:batchEnd:event:)``).
    public let client: UCIClient
    /// The session ID both peers use.
    public let sessionID: UInt32
    /// The session's parameters.
    public let parameters: FiRaSessionParameters
    /// What CORE_GET_DEVICE_INFO said.
    public let deviceInfo: UCIDeviceInfo
    /// When the session was started, `MonotonicTime` seconds (time zero of the samples).
    public let start: Double
    private let session: UWBSession
    private let delivery: Delivery

    private init(client: UCIClient, sessionID: UInt32, parameters: FiRaSessionParameters, deviceInfo: UCIDeviceInfo,
                 session: UWBSession, delivery: Delivery, start: Double) {
        self.client = client
        self.sessionID = sessionID
        self.parameters = parameters
        self.deviceInfo = deviceInfo
        self.session = session
        self.delivery = delivery
        self.start = start
    }

    /// Where the session's samples go: waiting (bounded) until the run begins, then to its
    /// handler, on the transport's reader; the count and the stop reason.
    final class Delivery: Sendable {
        struct State {
            var reason: UWBRangeStop?
            var waiting: [UCIPeerRangeSample] = []
            var handler: (@Sendable (UCIPeerRangeSample) -> Void)?
            var batchEnd: (@Sendable () -> Void)?
            var delivered = 0
            var limit: Int?
            var ended = false
            var waiter: CheckedContinuation<Void, Never>?
        }

        let state = Mutex(State())
        let capacity: Int

        /// At most `capacity` samples wait for the run (the oldest are dropped and counted by
        /// the client).
        init(capacity: Int) {
            self.capacity = max(1, capacity)
        }

        var sink: UWBSampleSink {
            UWBSampleSink(
                deliver: { [self] sample in receive(sample) }, endOfBatch: { [self] in endOfBatch() }, finish: { [self] in end() })
        }

        private func receive(_ sample: UCIPeerRangeSample) -> Bool {
            state.withLock { state in
                guard !state.ended, state.reason == nil else { return true }
                guard let handler = state.handler else {
                    var kept = true
                    if state.waiting.count >= capacity {
                        state.waiting.removeFirst()
                        kept = false
                    }
                    state.waiting.append(sample)
                    return kept
                }
                handler(sample)
                state.delivered += 1
                if let limit = state.limit, state.delivered >= limit { finishLocked(&state) }
                return true
            }
        }

        private func endOfBatch() {
            let batchEnd = state.withLock { $0.batchEnd }
            batchEnd?()
        }

        /// The session is gone (closed, or ended by the kit).
        func end() {
            state.withLock { finishLocked(&$0) }
        }

        /// Stops (the first reason wins).
        func stop(_ reason: UWBRangeStop) {
            state.withLock { state in
                if state.reason == nil { state.reason = reason }
                finishLocked(&state)
            }
        }

        private func finishLocked(_ state: inout State) {
            state.ended = true
            state.handler = nil
            state.waiter?.resume()
            state.waiter = nil
        }

        /// Delivers what waits, then everything until `limit` samples or the end.
        func run(
            limit: Int?, handler: @escaping @Sendable (UCIPeerRangeSample) -> Void, batchEnd: @escaping @Sendable () -> Void
        ) async -> Int {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                state.withLock { state in
                    guard !state.ended, state.reason == nil else {
                        state.waiting.removeAll()
                        continuation.resume()
                        return
                    }
                    state.limit = limit
                    for sample in state.waiting {
                        handler(sample)
                        state.delivered += 1
                        if let limit, state.delivered >= limit { break }
                    }
                    state.waiting.removeAll()
                    if state.delivered > 0 { batchEnd() }
                    if let limit, state.delivered >= limit {
                        state.ended = true
                        continuation.resume()
                        return
                    }
                    state.handler = handler
                    state.batchEnd = batchEnd
                    state.waiter = continuation
                }
            }
            return state.withLock { state in
                state.handler = nil
                state.batchEnd = nil
                return state.delivered
            }
        }
    }

    /// Opens `client` (reset, device info, capabilities), opens the session (init, app config)
    /// and starts it.
    /// - Throws: `UCIClientError` of the step that failed; the client is closed then.
    public static func open(client: UCIClient, sessionID: UInt32, parameters: FiRaSessionParameters) async throws(UCIClientError) -> UWBRangeRun {
        do {
            let info = try await client.open()
            let delivery = Delivery(capacity: 1024)
            let session = try await client.openSession(id: sessionID, parameters: parameters, samples: delivery.sink)
            let start = MonotonicTime.seconds()
            try await session.start()
            return UWBRangeRun(
                client: client, sessionID: sessionID, parameters: parameters, deviceInfo: info, session: session, delivery: delivery,
                start: start)
        } catch {
            await client.close()
            throw error
        }
    }

    /// The first reason the run stopped for, if any.
    public var stopReason: UWBRangeStop? { delivery.state.withLock { $0.reason } }

    /// Stops the run (the first reason wins): ``run(count:sample:batchEnd:event:)`` stops
    /// delivering samples and closes the session. Safe from any task, before or during the run.
    public func stop(_ reason: UWBRangeStop) {
        delivery.stop(reason)
    }

    /// Delivers samples until `count` of them (`nil`: no limit) or a stop, then closes the
    /// session and the client.
    /// - Parameters:
    ///   - count: how many samples to deliver; `nil`: no limit.
    ///   - sample: each range sample, in order, on the transport's reader (must not block).
    ///   - batchEnd: after the samples of each range notification (write what `sample` gathered).
    ///   - event: session and dev-kit news in words (`session 42: ...`, `dev kit lost: ...`);
    ///     state changes the host's own commands caused are left out.
    /// - Returns: how many samples came, why the run stopped, and the errors (a failure reason,
    ///   the session ending early, closing failures), each a sentence.
    public func run(
        count: Int?, sample: @escaping @Sendable (UCIPeerRangeSample) -> Void, batchEnd: @escaping @Sendable () -> Void = {},
        event: @escaping @Sendable (String) -> Void
    ) async -> UWBRangeResult {
        let session = self.session
        let id = sessionID
        let client = self.client
        // A recovery under way (the kit was lost or reported an error, and is not back yet).
        let recovering = Mutex(false)
        let watchers = [
            Task {
                for await news in session.events {
                    // State changes the host's own commands caused are not news.
                    if case .stateChanged(_, .stateChangeWithSessionManagementCommands) = news { continue }
                    event("session \(id): \(news)")
                    if let ending = UWBRangeStop(news) { stop(ending) }
                }
            },
            Task {
                for await news in client.events() {
                    switch news {
                    case .deviceStateChanged, .genericError: continue
                    case .recoveryFailed(let error):
                        recovering.withLock { $0 = false }
                        event("\(news)")
                        stop(.failed(error.description))
                    case .transportLost, .deviceErrorReported:
                        recovering.withLock { $0 = true }
                        event("\(news)")
                    case .recovered:
                        event("\(news)")
                        recovering.withLock { $0 = false }
                    default: event("\(news)")
                    }
                }
            },
        ]
        // Stopped before the run began (a signal while the session was starting): not one
        // sample is delivered, even one the kit sent already.
        let delivered = await delivery.run(limit: count, handler: sample, batchEnd: batchEnd)
        // The last sample's line was gathered on the transport's reader: write it.
        batchEnd()
        // Samples of a restored session flow before the client reports the recovery done:
        // closing now would cut the recovery short and lose its news. Wait for it (bounded).
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while recovering.withLock({ $0 }), clock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        for watcher in watchers { watcher.cancel() }

        var errors: [String] = []
        let reason = stopReason
        switch reason {
        case .failed(let message)?: errors.append(message)
        case nil where count.map({ delivered < $0 }) ?? true: errors.append("the session ended after \(delivered) sample(s)")
        default: break
        }
        do {
            try await session.close()
        } catch where error.code == .sessionNotOpen || error.code == .unavailable {
            // The UWBS already ended it, or the dev kit is gone (and the session with it).
        } catch {
            errors.append("\(error)")
        }
        await client.close()
        return UWBRangeResult(samples: delivered, stop: reason, errors: errors)
    }
}

/// How a ``UWBRangeRun`` ended.
public struct UWBRangeResult: Sendable, Hashable {
    /// How many samples were delivered.
    public var samples: Int
    /// Why it stopped early (`nil`: the count was reached, or the session ended on its own).
    public var stop: UWBRangeStop?
    /// What went wrong, each a sentence; empty for a successful run.
    public var errors: [String]

    /// `true` if something went wrong (the run failed).
    public var failed: Bool { !errors.isEmpty }

    /// Creates a result.
    public init(samples: Int, stop: UWBRangeStop?, errors: [String]) {
        self.samples = samples
        self.stop = stop
        self.errors = errors
    }
}
