@testable import NearbyInteraction
import Logging
import NearbySupport
import Testing

/// Both roles' sessions account for every range sample they do not turn into an update:
/// dropped by the inbox, discarded as stale, left in the inbox or refused by it at the end.
@Suite struct SampleLossesTests {
    @Test func dropsDiscardsLeftoversAndRefusalsAreEachReportedOnce() async {
        let inbox = Mailbox<Int>(capacity: 2)
        var losses = SampleLosses()
        #expect(losses.newReports(inbox).isEmpty)

        for sample in 0..<5 { inbox.post(sample, droppable: true) }   // 3 dropped, 2 wait
        losses.discard()
        losses.discard(2)
        #expect(losses.newReports(inbox) == [
            DropReport(queue: .sessionInbox, count: 3, total: 3), DropReport(queue: .stoppedSession, count: 3, total: 3),
        ])
        #expect(losses.newReports(inbox).isEmpty, "nothing new, nothing reported twice")

        // The receiver is cancelled while the session closes; the kit still delivers 4 samples.
        let receiver = Task { await inbox.receive() }
        #expect(await receiver.value == 3)
        let cancelled = Task { await inbox.receive() }
        cancelled.cancel()
        _ = await cancelled.value
        for sample in 10..<14 { inbox.post(sample, droppable: true) }
        // At the end: 1 sample still waits (4), 4 were refused.
        let leftovers = inbox.takeAll().count
        losses.closing(inbox, leftovers: leftovers)
        #expect(leftovers == 1 && losses.discarded == 8)
        #expect(losses.newReports(inbox) == [DropReport(queue: .stoppedSession, count: 5, total: 8)])
        losses.closing(inbox, leftovers: 0)
        #expect(losses.discarded == 8, "refusals are counted once")

        var reported: [DropReport] = []
        losses.discard()
        losses.report(inbox, logger: Logger(label: "test")) { reported.append($0) }
        #expect(reported == [DropReport(queue: .stoppedSession, count: 1, total: 9)])
    }
}
