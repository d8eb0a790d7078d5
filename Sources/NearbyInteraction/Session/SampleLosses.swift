import Logging
import NearbySupport

/// The range samples a session lost, and which of them it reported: those its inbox dropped
/// because the session fell behind the kit, and those it discarded because their UWB session
/// had stopped, it was not ranging, or it was ending (what the inbox still held, and what it
/// refused while the session was closing). Both roles' sessions (``AccessorySession``,
/// ``AccessoryRoleSession``) report them as ``NearbySessionEvent/Kind/dropped(_:)`` events, so
/// every sample the kit sent is either an update or counted.
struct SampleLosses: Sendable {
    /// Samples discarded so far.
    private(set) var discarded = 0
    private var reportedDropped = 0
    private var reportedDiscarded = 0
    private var refusedCounted = 0

    /// `count` samples discarded (a stopped UWB session's, or while not ranging).
    mutating func discard(_ count: Int = 1) { discarded += count }

    /// At the end of a session: the `leftovers` samples still in `inbox` and those it refused
    /// since its receiver stopped are discarded.
    mutating func closing<Input>(_ inbox: Mailbox<Input>, leftovers: Int) {
        let refused = inbox.refusedCount
        discarded += leftovers + refused - refusedCounted
        refusedCounted = refused
    }

    /// Logs the losses since the last report and hands each to `emit` (the inbox's drops
    /// first, then the discards).
    mutating func report<Input>(_ inbox: Mailbox<Input>, logger: Logger, emit: (DropReport) -> Void) {
        for report in newReports(inbox) {
            if report.queue == .sessionInbox {
                logger.warning("\(report.count) range sample(s) dropped (\(report.total) in all): the session falls behind the dev kit")
            } else {
                logger.info("\(report.count) range sample(s) of a stopped UWB session discarded (\(report.total) in all)")
            }
            emit(report)
        }
    }

    /// The losses since the last call, as reports: the inbox's drops first, then the discards.
    mutating func newReports<Input>(_ inbox: Mailbox<Input>) -> [DropReport] {
        var reports: [DropReport] = []
        let dropped = inbox.droppedCount
        if dropped > reportedDropped {
            reports.append(DropReport(queue: .sessionInbox, count: dropped - reportedDropped, total: dropped))
            reportedDropped = dropped
        }
        if discarded > reportedDiscarded {
            reports.append(DropReport(queue: .stoppedSession, count: discarded - reportedDiscarded, total: discarded))
            reportedDiscarded = discarded
        }
        return reports
    }
}
