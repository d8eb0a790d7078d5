import NIOCore

/// What one server-sent-event stream still has to send, bounded whatever the browser does.
///
/// - `hello` (the full state when the stream starts) and `end` are always kept.
/// - Log entries (events) queue up to ``limit``; past that the oldest are dropped and counted,
///   and the next drain starts with a `gap` frame saying how many.
/// - Statuses are coalesced: only the latest per accessory waits (a slow browser sees fewer
///   updates, never stale ones, and the run is never slowed).
///
/// Drain order: hello, gap, logs, statuses, end. A log entry thus reaches the page no later than
/// the status that followed it.
struct WebClientQueue<Status> {
    /// Most log entries held.
    let limit: Int
    private var hello: String?
    private var logs: CircularBuffer<String>
    private var statuses: [String: Status] = [:]
    private var statusOrder: [String] = []
    private var end: String?
    /// Log entries dropped since the last drain.
    private(set) var droppedSinceDrain = 0
    /// Log entries dropped in all.
    private(set) var droppedTotal = 0
    /// Statuses replaced by a newer one before they were sent.
    private(set) var coalesced = 0

    /// A queue holding at most `limit` log entries.
    init(limit: Int) {
        precondition(limit > 0)
        self.limit = limit
        logs = CircularBuffer(initialCapacity: min(limit, 64))
    }

    /// What drains: frames in order; statuses are given to `encode` only now.
    enum Frame {
        /// A `hello`, `log` or `end` frame, already encoded.
        case text(String)
        /// `dropped` log entries were skipped.
        case gap(dropped: Int)
        /// The latest status of an accessory.
        case status(Status)
    }

    /// `true` if nothing waits.
    var isEmpty: Bool { hello == nil && logs.isEmpty && statuses.isEmpty && end == nil && droppedSinceDrain == 0 }
    /// Log entries waiting.
    var pendingLogs: Int { logs.count }
    /// Statuses waiting (at most one per accessory).
    var pendingStatuses: Int { statuses.count }

    /// Sets the stream's first frame.
    mutating func start(_ frame: String) { hello = frame }

    /// Queues a log entry, dropping the oldest if full.
    mutating func push(log frame: String) {
        if logs.count >= limit {
            logs.removeFirst()
            droppedSinceDrain += 1
            droppedTotal += 1
        }
        logs.append(frame)
    }

    /// Replaces the waiting status of `id` (or queues it).
    mutating func push(status: Status, for id: String) {
        if statuses.updateValue(status, forKey: id) == nil {
            statusOrder.append(id)
        } else {
            coalesced += 1
        }
    }

    /// Sets the last frame (after it nothing is queued).
    mutating func finish(_ frame: String) { end = frame }

    /// Everything waiting, in order; the queue is empty afterwards.
    mutating func drain() -> [Frame] {
        var frames: [Frame] = []
        frames.reserveCapacity(logs.count + statuses.count + 3)
        if let hello { frames.append(.text(hello)) }
        hello = nil
        if droppedSinceDrain > 0 { frames.append(.gap(dropped: droppedSinceDrain)) }
        droppedSinceDrain = 0
        while let log = logs.popFirst() { frames.append(.text(log)) }
        for id in statusOrder {
            if let status = statuses[id] { frames.append(.status(status)) }
        }
        statuses.removeAll(keepingCapacity: true)
        statusOrder.removeAll(keepingCapacity: true)
        if let end { frames.append(.text(end)) }
        end = nil
        return frames
    }
}
