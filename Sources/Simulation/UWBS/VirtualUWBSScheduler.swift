/// The real-time scheduler of a ``VirtualUWBSWorld``: one loop that runs the rounds due and
/// sleeps until the next one (at most half a second), woken early when something changes (a
/// command, a peer, a fault). A manual clock has none: ``VirtualUWBSWorld/advance(by:)`` runs
/// the rounds.
struct VirtualUWBSScheduler {
    private var loop: Task<Void, Never>?
    private var sleeper: Task<Void, Never>?

    /// `true` once the loop was started.
    var isStarted: Bool { loop != nil }

    /// Starts the loop: it calls `step` (which runs what is due and returns the sleep until the
    /// next round) until `step` returns `nil`.
    mutating func start(_ step: @escaping @Sendable () async -> Task<Void, Never>?) {
        guard loop == nil else { return }
        loop = Task {
            while let sleeper = await step() {
                await sleeper.value
            }
        }
    }

    /// The sleep until the next round: `seconds`, at most 0.5 s (cut short by ``wake()``).
    mutating func sleep(seconds: Double) -> Task<Void, Never> {
        let task = Task { _ = try? await Task.sleep(for: .seconds(min(seconds, 0.5))) }
        sleeper = task
        return task
    }

    /// Ends the current sleep: the loop looks at the rounds again now.
    func wake() { sleeper?.cancel() }

    /// Stops the loop for good.
    func stop() {
        loop?.cancel()
        sleeper?.cancel()
    }
}
