/// Elements a bounded queue dropped because its consumer fell behind: how many since the last
/// report and in all. Every queue on the way of a range sample is bounded and counts its drops,
/// so overload costs a known number of samples, never unbounded memory.
public struct DropReport: Sendable, Hashable, CustomStringConvertible {
    /// Which queue dropped.
    public enum Queue: String, Sendable, Hashable {
        /// A session's inbox (range samples from the dev kit waiting for the session).
        case sessionInbox = "session-inbox"
        /// The output queue (updates waiting for the printer, hooks, recorder).
        case output
        /// Range samples that arrived after their UWB session stopped (a retry, a stop):
        /// discarded by the session, not a queue that overflowed.
        case stoppedSession = "stopped-session"
    }

    /// The queue.
    public var queue: Queue
    /// Dropped since the previous report.
    public var count: Int
    /// Dropped in all.
    public var total: Int

    /// Creates a report.
    public init(queue: Queue, count: Int, total: Int) {
        self.queue = queue
        self.count = count
        self.total = total
    }

    /// `12 range samples dropped from the session inbox (40 in all)`.
    public var description: String {
        if queue == .stoppedSession {
            return "\(count) range sample\(count == 1 ? "" : "s") of a stopped UWB session discarded (\(total) in all)"
        }
        let what = queue == .sessionInbox ? "range sample" : "update"
        let from = queue == .sessionInbox ? "the session inbox" : "the output queue"
        return "\(count) \(what)\(count == 1 ? "" : "s") dropped from \(from) (\(total) in all): the consumer falls behind"
    }
}
