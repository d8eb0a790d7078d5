import Synchronization
public import UCI
public import UWBDevice

/// FiRa two-way ranging with explicit parameters on one dev kit (no BLE): opens the client and a
/// session, starts it, delivers every range sample, and stops on a count, on ``stop(_:)`` (e.g.
/// a signal) or when the session or the dev kit ends it; then stops and deinitializes the
/// session (SESSION_STOP, SESSION_DEINIT) and closes the client. What `nearby uwb range` runs.
///
///     let run = try await UWBRangeRun.open(client: client, sessionID: 42, parameters: parameters)
///     let result = await run.run(count: 10, sample: { print($0) }, event: { print($0) })
public final class UWBRangeRun: Sendable {
    /// The client (opened by ``open(client:sessionID:parameters:)``, closed by ``run(count:sample:event:)``).
    public let client: UCIClient
    /// The session ID both peers use.
    public let sessionID: UInt32
    /// The session's parameters.
    public let parameters: FiRaSessionParameters
    /// What CORE_GET_DEVICE_INFO said.
    public let deviceInfo: UCIDeviceInfo
    /// When the session was started, ``UWBDevice/MonotonicTime`` seconds (time zero of the samples).
    public let start: Double
    private let session: UWBSession
    private let state = Mutex<(reason: UWBRangeStop?, reading: Task<Int, Never>?)>((nil, nil))

    private init(client: UCIClient, sessionID: UInt32, parameters: FiRaSessionParameters, deviceInfo: UCIDeviceInfo,
                 session: UWBSession, start: Double) {
        self.client = client
        self.sessionID = sessionID
        self.parameters = parameters
        self.deviceInfo = deviceInfo
        self.session = session
        self.start = start
    }

    /// Opens `client` (reset, device info, capabilities), opens the session (init, app config)
    /// and starts it.
    /// - Throws: ``UWBDevice/UCIClientError`` of the step that failed; the client is closed then.
    public static func open(client: UCIClient, sessionID: UInt32, parameters: FiRaSessionParameters) async throws(UCIClientError) -> UWBRangeRun {
        do {
            let info = try await client.open()
            let session = try await client.openSession(id: sessionID, parameters: parameters)
            let start = MonotonicTime.seconds()
            try await session.start()
            return UWBRangeRun(client: client, sessionID: sessionID, parameters: parameters, deviceInfo: info, session: session, start: start)
        } catch {
            await client.close()
            throw error
        }
    }

    /// The first reason the run stopped for, if any.
    public var stopReason: UWBRangeStop? { state.withLock { $0.reason } }

    /// Stops the run (the first reason wins): ``run(count:sample:event:)`` stops reading samples
    /// and closes the session. Safe from any task, before or during the run.
    public func stop(_ reason: UWBRangeStop) {
        let reading = state.withLock { state -> Task<Int, Never>? in
            if state.reason == nil { state.reason = reason }
            return state.reading
        }
        reading?.cancel()
    }

    /// Delivers samples until `count` of them (`nil`: no limit) or a stop, then closes the
    /// session and the client.
    /// - Parameters:
    ///   - sample: each range sample, in order.
    ///   - event: session and dev-kit news in words (`session 42: ...`, `dev kit lost: ...`);
    ///     state changes the host's own commands caused are left out.
    /// - Returns: how many samples came, why the run stopped, and the errors (a failure reason,
    ///   the session ending early, closing failures), each a sentence.
    public func run(
        count: Int?, sample: @escaping @Sendable (UCIPeerRangeSample) -> Void, event: @escaping @Sendable (String) -> Void
    ) async -> UWBRangeResult {
        let session = self.session
        let id = sessionID
        // Stopped before the run began (a signal while the session was starting): not one
        // sample is delivered, even one the kit sent already.
        let stoppedBefore = state.withLock { $0.reason != nil }
        let reading = Task { () -> Int in
            var delivered = 0
            if stoppedBefore { return delivered }
            for await item in session.samples {
                if Task.isCancelled { break }
                sample(item)
                delivered += 1
                if let count, delivered >= count { break }
            }
            return delivered
        }
        let alreadyStopped = state.withLock { state -> Bool in
            state.reading = reading
            return state.reason != nil
        }
        if alreadyStopped { reading.cancel() }
        let client = self.client
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
                        event("\(news)")
                        stop(.failed(error.description))
                    default: event("\(news)")
                    }
                }
            },
        ]
        let delivered = await reading.value
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
