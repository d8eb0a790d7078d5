import Testing
@testable import NearbyWeb

/// The per-stream queue: bounded events, statuses coalesced to the latest, gaps reported.
@Suite struct WebClientQueueTests {
    typealias Queue = WebClientQueue<Int>

    func describe(_ frames: [Queue.Frame]) -> [String] {
        frames.map { frame in
            switch frame {
            case .text(let text): text
            case .gap(let dropped): "gap \(dropped)"
            case .status(let value): "status \(value)"
            }
        }
    }

    @Test func drainsHelloThenLogsThenTheLatestStatusesThenEnd() {
        var queue = Queue(limit: 10)
        queue.start("hello")
        queue.push(status: 1, for: "a")
        queue.push(log: "log 1")
        queue.push(status: 2, for: "b")
        queue.push(status: 3, for: "a")
        queue.push(log: "log 2")
        queue.finish("end")
        #expect(queue.pendingStatuses == 2 && queue.pendingLogs == 2 && queue.coalesced == 1)
        #expect(describe(queue.drain()) == ["hello", "log 1", "log 2", "status 3", "status 2", "end"])
        #expect(queue.isEmpty && queue.drain().isEmpty)
    }

    @Test func aFullQueueDropsTheOldestEventsAndSaysHowMany() {
        var queue = Queue(limit: 3)
        for i in 1...1000 {
            queue.push(log: "log \(i)")
            queue.push(status: i, for: "a")
            queue.push(status: -i, for: "b")
            #expect(queue.pendingLogs <= 3 && queue.pendingStatuses <= 2)
        }
        #expect(queue.droppedTotal == 997)
        #expect(describe(queue.drain()) == ["gap 997", "log 998", "log 999", "log 1000", "status 1000", "status -1000"])
        queue.push(log: "log 1001")
        #expect(describe(queue.drain()) == ["log 1001"], "the gap is reported once")
        #expect(queue.droppedTotal == 997)
    }
}
