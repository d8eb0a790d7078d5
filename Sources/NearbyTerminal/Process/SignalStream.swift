import Dispatch
import Foundation
public import NearbyRuntime
public import Simulation

/// Signals (SIGINT, SIGTERM, SIGUSR1, ...) as an async stream: the default action (exit) is
/// replaced while it lives. `init` returns once the handlers are registered (libdispatch
/// registers a signal source asynchronously; a signal arriving in between, with the action
/// already SIG_IGN, would be lost), so a signal sent on seeing output is never lost.
public final class SignalStream: @unchecked Sendable {
    // @unchecked: the dispatch sources are only touched at init and in cancel(), which is
    // called once by the owner; DispatchSource itself is thread-safe.
    /// The signal numbers, in the order they arrive.
    public let stream: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    /// Starts watching `numbers` (e.g. `[SIGINT, SIGTERM]`); waits at most 2 s per signal for
    /// its handler to be registered.
    public init(_ numbers: [Int32]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        let registered = DispatchSemaphore(value: 0)
        sources = numbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source
        }
        // Bounded: a registration that does not happen within 2 s is not waited for further.
        for _ in numbers { _ = registered.wait(timeout: .now() + 2) }
    }

    /// Stops watching; the signals stay ignored (not the default exit) until another stream
    /// watches them. Call it once.
    ///
    /// Not the default action: libdispatch on Linux reads signals through a signalfd and blocks
    /// a signal in the thread its handler caught it on, re-raising it there; a copy still
    /// pending in such a thread would, once the default action is back, end the process
    /// without its summary (seen: `nearby range` stopped with SIGINT exited 130 mid-shutdown,
    /// about one run in three). A process that is done watching is about to end anyway.
    public func cancel() {
        for source in sources { source.cancel() }
        for source in sources { signal(Int32(source.handle), SIG_IGN) }
    }

    /// `interrupted (SIGINT)` or `terminated (SIGTERM)` (other signals by number).
    public static func describe(_ number: Int32) -> String {
        switch number {
        case SIGINT: "interrupted (SIGINT)"
        case SIGTERM: "terminated (SIGTERM)"
        default: "signal \(number)"
        }
    }
}

/// Waits until Ctrl-C / SIGTERM or until `finished()` says the run is over (checked every 50 ms).
/// - Returns: `true` if a signal ended the wait.
public func waitForSignalOr(_ finished: @escaping @Sendable () async -> Bool) async -> Bool {
    // One pending check is enough: a check asks for the present state.
    let (checks, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let ticker = Task {
        while !Task.isCancelled {
            continuation.yield()
            try? await Task.sleep(for: .milliseconds(50))
        }
        continuation.finish()
    }
    defer { ticker.cancel() }
    return await waitForSignalOr(finished, checks: checks, every: nil)
}

/// Waits until Ctrl-C / SIGTERM or until `finished()` says the run is over: asked at once, for
/// every element of `checks`, and every `interval` if one is given. Nothing runs in between.
/// - Returns: `true` if a signal ended the wait.
public func waitForSignalOr(
    _ finished: @escaping @Sendable () async -> Bool, checks: AsyncStream<Void>, every interval: Duration?
) async -> Bool {
    let signals = SignalStream([SIGINT, SIGTERM])
    defer { signals.cancel() }
    return await waitForSignalOr(finished, checks: checks, every: interval, signals: signals)
}

/// ``waitForSignalOr(_:checks:every:)`` with handlers the caller armed earlier (and cancels):
/// a signal that came before the wait started (while the run was starting) ends it at once.
/// - Returns: `true` if a signal ended the wait.
public func waitForSignalOr(
    _ finished: @escaping @Sendable () async -> Bool, checks: AsyncStream<Void>, every interval: Duration?,
    signals: SignalStream
) async -> Bool {
    await withTaskGroup(of: Bool?.self) { group in
        group.addTask {
            for await _ in signals.stream { return true }
            return nil
        }
        group.addTask {
            if await finished() { return false }
            for await _ in checks {
                if await finished() { return false }
            }
            return nil
        }
        if let interval {
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    if Task.isCancelled { break }
                    if await finished() { return false }
                }
                return nil
            }
        }
        var result: Bool?
        while result == nil, let next = await group.next() {
            result = next
        }
        group.cancelAll()
        return result ?? false
    }
}

/// Runs `body` with SIGINT and SIGTERM handled by `handler` (called for each signal, on
/// another task) instead of ending the process; the handlers are armed before `body` starts
/// and ignored again after it returns (``SignalStream/cancel()``).
public func onSignal<T: Sendable>(_ handler: @escaping @Sendable (Int32) -> Void, run body: () async -> T) async -> T {
    let signals = SignalStream([SIGINT, SIGTERM])
    let watcher = Task {
        for await number in signals.stream { handler(number) }
    }
    let result = await body()
    watcher.cancel()
    signals.cancel()
    return result
}

/// Runs `body` until it returns, or until SIGINT / SIGTERM cancels it (the signal handlers are
/// armed before `body` starts and ignored again after).
/// - Returns: what `body` returned or threw (`CancellationError` or whatever `body` throws when
///   cancelled).
public func cancellingOnSignal<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async -> Result<T, any Error> {
    let signals = SignalStream([SIGINT, SIGTERM])
    let work = Task { try await body() }
    let watcher = Task {
        for await _ in signals.stream { work.cancel() }
    }
    let result = await work.result
    watcher.cancel()
    signals.cancel()
    return result
}

/// Runs `body` with SIGUSR1 and SIGUSR2 as faults of the demo's served kit (load and fault
/// tests, `nearby demo --serve-kit`): SIGUSR1 makes the kit fail
/// (`DemoRanging.failServedKit()`), SIGUSR2 drops its connection
/// (`DemoRanging.dropServedKit()`). Without `ranging` the signals are ignored
/// (not the default exit) while `body` runs.
public func withKitFaultSignals<T>(_ ranging: DemoRanging?, run body: () async throws -> T) async rethrows -> T {
    let faults = SignalStream([SIGUSR1, SIGUSR2])
    defer { faults.cancel() }
    let faulting = Task {
        guard let ranging else { return }
        for await number in faults.stream {
            if number == SIGUSR1 { await ranging.failServedKit() } else { await ranging.dropServedKit() }
        }
    }
    defer { faulting.cancel() }
    return try await body()
}

extension VirtualUWBSService {
    /// Serves until SIGINT or SIGTERM, then stops (`nearby sim uwbs`). Meanwhile SIGUSR1 makes
    /// every connected UWBS fail (CORE_DEVICE_STATUS_NTF(ERROR)) and SIGUSR2 drops every
    /// connection, as an unplug would (said through `report`).
    public func serveUntilSignal(report: (String) -> Void) async {
        let signals = SignalStream([SIGINT, SIGTERM, SIGUSR1, SIGUSR2])
        for await number in signals.stream {
            if number == SIGUSR1 {
                await failConnectedDevices()
            } else if number == SIGUSR2 {
                report("dropping every connection (SIGUSR2)")
                await dropConnections()
            } else {
                break
            }
        }
        await stop()
        signals.cancel()
    }
}
