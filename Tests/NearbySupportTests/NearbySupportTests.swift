import Foundation
import NearbySupport
import Testing

@Suite struct PromiseTests {
    @Test func deliversTheValue() async throws {
        let promise = Promise<Int>()
        Task { try? await Task.sleep(for: .milliseconds(10)); promise.fulfill(42) }
        #expect(try await promise.value(timeout: .seconds(2)) == 42)
        #expect(promise.fulfill(7) == false)
    }

    @Test func valueBeforeWaiting() async throws {
        let promise = Promise<String>()
        #expect(promise.fulfill("early"))
        #expect(try await promise.value() == "early")
    }

    @Test func timesOutWhenNobodyAnswers() async throws {
        let promise = Promise<Int>()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await promise.value(timeout: .milliseconds(50), operation: "test reply")
            Issue.record("expected a timeout")
        } catch let error as TimeoutError {
            #expect(error.operation == "test reply")
            #expect(error.description == "test reply timed out after 50 ms")
        }
        #expect(clock.now - start >= .milliseconds(50), "not before the deadline")
        #expect(promise.isSettled)
    }

    @Test func cancellationEndsTheWait() async throws {
        let promise = Promise<Int>()
        let task = Task { try await promise.value() }
        try await Task.sleep(for: .milliseconds(10))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}

@Suite struct BroadcasterTests {
    @Test func everySubscriberGetsEveryEvent() async throws {
        let broadcaster = Broadcaster<Int>()
        let a = broadcaster.subscribe()
        let b = broadcaster.subscribe()
        #expect(broadcaster.subscriberCount == 2)
        for i in 1...3 { broadcaster.yield(i) }
        broadcaster.finish()
        var seenA: [Int] = []
        for await x in a { seenA.append(x) }
        var seenB: [Int] = []
        for await x in b { seenB.append(x) }
        #expect(seenA == [1, 2, 3])
        #expect(seenB == [1, 2, 3])
        var late: [Int] = []
        for await x in broadcaster.subscribe() { late.append(x) }
        #expect(late.isEmpty)
    }

    @Test func slowSubscriberKeepsNewest() async throws {
        let broadcaster = Broadcaster<Int>(bufferingNewest: 2)
        let s = broadcaster.subscribe()
        for i in 1...5 { broadcaster.yield(i) }
        broadcaster.finish()
        var seen: [Int] = []
        for await x in s { seen.append(x) }
        #expect(seen == [4, 5])
    }
}

@Suite struct AtomicFileTests {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-atomic-\(UUID().uuidString)")

    @Test func writesWithMode0600AndCreatesParents() throws {
        let path = dir.appendingPathComponent("a/b/state.json").path
        try AtomicFile.write("hello", to: path)
        #expect(try AtomicFile.read(path) == Array("hello".utf8))
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attrs[.posixPermissions] as? Int) == 0o600)
        let dirAttrs = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("a/b").path)
        #expect((dirAttrs[.posixPermissions] as? Int) == 0o700)
        try AtomicFile.write("replaced", to: path)
        #expect(try AtomicFile.read(path) == Array("replaced".utf8))
        // No temporary files are left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("a/b").path)
        #expect(left == ["state.json"])
        try? FileManager.default.removeItem(at: dir)
    }

    @Test func missingFileReadsAsNil() throws {
        #expect(try AtomicFile.read(dir.appendingPathComponent("nope").path) == nil)
    }

    @Test func failureNamesThePathAndKeepsTheOldFile() throws {
        let path = dir.appendingPathComponent("ro/state.json").path
        try AtomicFile.write("old", to: path)
        let roDir = dir.appendingPathComponent("ro").path
        // Replace the directory by a file to force an error regardless of root privileges.
        let blocked = dir.appendingPathComponent("ro/state.json/child").path
        #expect(throws: FileSystemError.self) { try AtomicFile.write("new", to: blocked) }
        do {
            try AtomicFile.write("new", to: blocked)
        } catch {
            #expect(error.description.contains("state.json"))
        }
        #expect(try AtomicFile.read(path) == Array("old".utf8))
        _ = roDir
        try? FileManager.default.removeItem(at: dir)
    }
}

@Suite struct FileLockTests {
    @Test func secondLockerWaitsThenTimesOut() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-lock-\(UUID().uuidString)").path
        let first = try FileLock(path: path)
        // flock locks are per open file description: a second open in the same process conflicts.
        #expect(throws: FileSystemError.self) { _ = try FileLock(path: path, timeout: .milliseconds(50)) }
        first.unlock()
        let second = try FileLock(path: path, timeout: .milliseconds(50))
        second.unlock()
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The bounded mailbox: overload costs counted elements, never memory; order is kept.
@Suite struct MailboxTests {
    @Test func takeAllEmptiesTheMailboxInPostingOrderWithoutWaiting() async {
        let mailbox = Mailbox<Int>(capacity: 4)
        #expect(mailbox.takeAll().isEmpty)
        mailbox.post(1, droppable: true)
        mailbox.post(2)
        mailbox.post(3, droppable: true)
        #expect(mailbox.takeAll() == [1, 2, 3])
        #expect(mailbox.count == 0 && mailbox.takeAll().isEmpty)
        mailbox.post(4)
        mailbox.finish()
        #expect(await mailbox.receive() == 4)
    }

    @Test func overloadDropsTheOldestDroppableElementsAndCountsThemExactly() async {
        let mailbox = Mailbox<Int>(capacity: 64)
        for value in 0..<10_000 { mailbox.post(value, droppable: true) }
        #expect(mailbox.count == 64, "bounded: at most the capacity waits")
        #expect(mailbox.droppedCount == 10_000 - 64)
        mailbox.finish()
        var received: [Int] = []
        for await value in mailbox { received.append(value) }
        #expect(received == Array(9_936..<10_000), "the newest 64, in order")
    }

    @Test func keptElementsAreNeverDroppedAndTheOrderIsKept() async {
        let mailbox = Mailbox<String>(capacity: 2)
        let posted = ["s1", "K1", "s2", "s3", "K2", "s4", "s5", "K3"]
        for element in posted { mailbox.post(element, droppable: element.hasPrefix("s")) }
        #expect(mailbox.droppedCount == 3)  // s1, s2, s3: the oldest droppable ones
        mailbox.finish()
        var received: [String] = []
        for await element in mailbox { received.append(element) }
        #expect(received == ["K1", "K2", "s4", "s5", "K3"])
    }

    /// An element taken out is moved, not copied: the mailbox keeps no reference to it while
    /// later elements still wait (a released update is freed at once, not when the queue drains).
    @Test func aTakenElementIsNotHeldByTheMailboxWhileOthersWait() async {
        final class Payload: Sendable { let value: Int; init(_ value: Int) { self.value = value } }
        let mailbox = Mailbox<Payload>(capacity: 8)
        weak var taken: Payload?
        do {
            let first = Payload(1)
            taken = first
            mailbox.post(first, droppable: true)
        }
        mailbox.post(Payload(2), droppable: true)
        mailbox.post(Payload(3))
        var first = await mailbox.receive()
        #expect(first?.value == 1 && taken != nil)
        first = nil
        #expect(taken == nil, "released by the receiver: nothing in the mailbox holds it")
        #expect(mailbox.count == 2)
        #expect(mailbox.takeAll().map(\.value) == [2, 3])
    }

    @Test func aWaitingReceiverGetsThePostAndCancellationEndsTheMailbox() async {
        let mailbox = Mailbox<Int>(capacity: 4)
        let receiver = Task { await mailbox.receive() }
        try? await Task.sleep(for: .milliseconds(20))
        mailbox.post(7)
        #expect(await receiver.value == 7)
        let cancelled = Task { await mailbox.receive() }
        cancelled.cancel()
        #expect(await cancelled.value == nil)
        mailbox.post(8)
        #expect(mailbox.count == 0, "a cancelled mailbox takes nothing more")
        #expect(await mailbox.receive() == nil)
        // Droppable posts it refuses are counted (a stopping session accounts for them); kept
        // ones are not samples and are not counted.
        #expect(mailbox.refusedCount == 0)
        mailbox.post(9, droppable: true)
        mailbox.post(10, droppable: true)
        #expect(mailbox.refusedCount == 2 && mailbox.droppedCount == 0 && mailbox.count == 0)
        let finished = Mailbox<Int>(capacity: 4)
        finished.finish()
        finished.post(1, droppable: true)
        #expect(finished.refusedCount == 1)
    }
}
