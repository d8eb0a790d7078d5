import NearbyBase

/// What a run did: every accessory's final status and the run's own counts.
public struct RunSummary: Sendable, Hashable {
    /// Every accessory, in the order announced.
    public var accessories: [AccessoryStatus]
    /// Updates dropped from the output queue because the outputs fell behind.
    public var droppedUpdates = 0
    /// Hook commands run.
    public var hookRuns = 0
    /// Hook runs that failed (non-zero exit, signal, timeout, could not start).
    public var hookFailures = 0
    /// Hook events dropped because the hook queue was full.
    public var hookEventsDropped = 0
    /// Seconds from the start of the run to its last event (events' clock).
    public var duration = 0.0
    /// `true` if the run was ended by a signal (Ctrl-C, SIGTERM).
    public var interrupted = false

    /// Creates a summary.
    public init(accessories: [AccessoryStatus]) {
        self.accessories = accessories
    }

    /// `true` if any accessory produced a usable distance.
    public var anythingRanged: Bool { accessories.contains { $0.measured > 0 } }

    /// One line per accessory, then the run's counts when there is something to say.
    public var lines: [String] {
        var lines = accessories.map(\.summaryLine)
        var extra: [String] = []
        if hookRuns > 0 || hookFailures > 0 { extra.append("\(hookRuns) hook run\(hookRuns == 1 ? "" : "s")" + (hookFailures > 0 ? " (\(hookFailures) failed)" : "")) }
        if hookEventsDropped > 0 { extra.append("\(hookEventsDropped) hook event\(hookEventsDropped == 1 ? "" : "s") dropped (queue full)") }
        if droppedUpdates > 0 { extra.append("\(droppedUpdates) update\(droppedUpdates == 1 ? "" : "s") dropped (output queue full)") }
        if !extra.isEmpty { lines.append(extra.joined(separator: ", ")) }
        return lines
    }
}
