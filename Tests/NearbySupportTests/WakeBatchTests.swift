import Foundation
import NearbySupport
import Testing

/// `WakeBatch`: a burst posted on one thread wakes a waiting receiver once, at the batch's end,
/// and the receiver takes the whole burst (specs/runtime.md §3).
@Suite struct WakeBatchTests {
    /// Starts a receiver taking bursts into arrays and waits until it waits in the mailbox.
    private func waitingReceiver(_ mailbox: Mailbox<Int>) async -> Task<[[Int]], Never> {
        let receiver = Task {
            var bursts: [[Int]] = []
            var batch: [Int] = []
            while await mailbox.receive(into: &batch) {
                bursts.append(batch)
                batch.removeAll()
            }
            return bursts
        }
        while !mailbox.isReceiverWaiting { try? await Task.sleep(for: .milliseconds(1)) }
        return receiver
    }

    @Test func postsInABatchQueueUntilItEndsThenTheReceiverTakesTheWholeBurst() async {
        let mailbox = Mailbox<Int>(capacity: 16)
        let receiver = await waitingReceiver(mailbox)
        #expect(!WakeBatch.isActive)
        WakeBatch.run {
            #expect(WakeBatch.isActive)
            mailbox.post(1, droppable: true)
            mailbox.post(2)
            mailbox.post(3, droppable: true)
            // Held back: all three wait although the receiver does (without the batch the first
            // post would have been handed to it).
            #expect(mailbox.count == 3)
            #expect(mailbox.isReceiverWaiting)
        }
        #expect(!WakeBatch.isActive)
        while mailbox.count > 0 || !mailbox.isReceiverWaiting { try? await Task.sleep(for: .milliseconds(1)) }
        mailbox.finish()
        #expect(await receiver.value == [[1, 2, 3]], "one wake-up, one burst, in posting order")
    }

    @Test func withoutABatchTheFirstPostGoesStraightToTheWaitingReceiver() async {
        let mailbox = Mailbox<Int>(capacity: 16)
        let receiver = await waitingReceiver(mailbox)
        mailbox.post(1)
        #expect(mailbox.count == 0, "handed to the receiver, not queued")
        mailbox.finish()
        #expect(await receiver.value.flatMap { $0 } == [1])
    }

    @Test func nestedBatchesWakeWhenTheOutermostEndsAndOncePerMailbox() async {
        let first = Mailbox<Int>(capacity: 16)
        let second = Mailbox<Int>(capacity: 16)
        let firstReceiver = await waitingReceiver(first)
        let secondReceiver = await waitingReceiver(second)
        WakeBatch.run {
            first.post(1)
            WakeBatch.run {
                first.post(2)
                second.post(10)
            }
            #expect(first.count == 2 && second.count == 1, "the inner batch's end woke nobody")
            second.post(11)
        }
        for mailbox in [first, second] {
            while mailbox.count > 0 || !mailbox.isReceiverWaiting { try? await Task.sleep(for: .milliseconds(1)) }
            mailbox.finish()
        }
        #expect(await firstReceiver.value == [[1, 2]])
        #expect(await secondReceiver.value == [[10, 11]])
    }

    @Test func finishInsideABatchStillDeliversWhatWaitsThenTheEnd() async {
        let mailbox = Mailbox<Int>(capacity: 16)
        let receiver = await waitingReceiver(mailbox)
        WakeBatch.run {
            mailbox.post(1)
            mailbox.post(2)
            mailbox.finish()
        }
        #expect(await receiver.value.flatMap { $0 } == [1, 2])
    }

    @Test func aBatchOnOneThreadDoesNotHoldBackAnotherThreadsPosts() async {
        let mailbox = Mailbox<Int>(capacity: 16)
        let receiver = await waitingReceiver(mailbox)
        let other = Thread {
            mailbox.post(5)  // no batch on this thread: handed over at once
        }
        WakeBatch.run {
            other.start()
            while !other.isFinished { usleep(1000) }
            #expect(mailbox.count == 0, "the other thread's post woke the receiver")
        }
        while mailbox.count > 0 || !mailbox.isReceiverWaiting { try? await Task.sleep(for: .milliseconds(1)) }
        mailbox.finish()
        #expect(await receiver.value.flatMap { $0 } == [5])
    }
}
