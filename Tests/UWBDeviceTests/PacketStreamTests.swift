import Synchronization
import Testing
import UCI
import UWBDevice

/// The transports' packet stream: bounded with counted drops, in order, and handed to a
/// receiver on the producer's thread one packet at a time.
@Suite struct PacketStreamTests {
    func packet(_ index: Int) throws -> UCIPacket {
        // CORE_DEVICE_STATUS_NTF with the index in its (one-byte) payload.
        try UCIPacket(bytes: [0x60, 0x01, 0x00, 0x01, UInt8(truncatingIfNeeded: index)])
    }

    @Test func iterationIsBoundedAndCountsEveryDrop() async throws {
        let (stream, continuation) = UCIPacketStream.makeStream(capacity: 4)
        var kept = 0
        for index in 0..<10 where continuation.yield(try packet(index)) { kept += 1 }
        #expect(kept == 4 && stream.droppedCount == 6 && stream.count == 4)
        continuation.finish(throwing: UWBDeviceError(.disconnected, device: "test", reason: "gone"))
        var received: [UInt8] = []
        do {
            for try await packet in stream { received.append(packet.payload.first ?? 0) }
            Issue.record("the stream ended without its error")
        } catch let error as UWBDeviceError {
            #expect(error.code == .disconnected)
        }
        #expect(received == [6, 7, 8, 9], "the newest, in order, then the end")
        #expect(!continuation.yield(try packet(11)), "nothing after the end")
    }

    @Test func aReceiverGetsWhatWaitedThenEveryPacketInOrderThenTheEnd() throws {
        let (stream, continuation) = UCIPacketStream.makeStream()
        for index in 0..<3 { continuation.yield(try packet(index)) }
        let received = Mutex<[Int]>([])
        let ended = Mutex(false)
        stream.deliver { delivery in
            switch delivery {
            case .packet(let packet, _): received.withLock { $0.append(Int(packet.payload.first ?? 0)) }
            case .finished(let error): ended.withLock { $0 = error == nil }
            }
        }
        for index in 3..<6 { continuation.yield(try packet(index)) }
        continuation.finish()
        #expect(received.withLock { $0 } == [0, 1, 2, 3, 4, 5])
        #expect(ended.withLock { $0 })
    }

    /// A transport that says when a packet was received (the in-process virtual UWBS) has that
    /// time delivered with it, also after the packet waited; one that does not (USB, serial,
    /// TCP) has none, and the client stamps the packet when it reads it.
    @Test func aPacketKeepsTheReceiveTimeItsTransportGaveItInOrder() throws {
        let (stream, continuation) = UCIPacketStream.makeStream()
        continuation.yield(try packet(0), receivedAt: 100.25)
        continuation.yield(try packet(1))
        let received = Mutex<[(Int, Double?)]>([])
        stream.deliver { delivery in
            if case .packet(let packet, let receivedAt) = delivery {
                received.withLock { $0.append((Int(packet.payload.first ?? 0), receivedAt)) }
            }
        }
        continuation.yield(try packet(2), receivedAt: 100.5)
        continuation.yield(try packet(3), receivedAt: 99.0)
        continuation.yield(try packet(4))
        let got = received.withLock { $0 }
        #expect(got.map(\.0) == [0, 1, 2, 3, 4])
        #expect(got.map(\.1) == [100.25, nil, 100.5, 99.0, nil], "each packet's own time, unchanged and not reordered")
    }

    @Test func producersOnSeveralThreadsNeverRunTheReceiverTwiceAtOnce() async throws {
        let (stream, continuation) = UCIPacketStream.makeStream(capacity: 100_000)
        let state = Mutex((inside: false, overlaps: 0, count: 0))
        stream.deliver { delivery in
            guard case .packet = delivery else { return }
            let overlapped = state.withLock { state -> Bool in
                defer { state.inside = true }
                return state.inside
            }
            for _ in 0..<100 { _ = state.withLock { $0.count } }
            state.withLock { state in
                state.inside = false
                state.count += 1
                if overlapped { state.overlaps += 1 }
            }
        }
        let packet = try packet(1)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<2000 { continuation.yield(packet) } }
            }
        }
        // A yield that found the receiver busy returns at once; the busy thread delivers it.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while state.withLock({ $0.count }) < 8000, clock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(state.withLock { $0.count } == 8000 && state.withLock { $0.overlaps } == 0)
        #expect(stream.droppedCount == 0)
    }
}
