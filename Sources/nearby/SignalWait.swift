import Foundation

/// Waits until Ctrl-C / SIGTERM or until `finished()` says the run is over (checked every 50 ms).
/// - Returns: `true` if a signal ended the wait.
func waitForSignalOr(_ finished: @escaping @Sendable () async -> Bool) async -> Bool {
    let signals = SignalStream([SIGINT, SIGTERM])
    defer { signals.cancel() }
    return await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            for await _ in signals.stream { return true }
            return false
        }
        group.addTask {
            while !Task.isCancelled {
                if await finished() { return false }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
    }
}
