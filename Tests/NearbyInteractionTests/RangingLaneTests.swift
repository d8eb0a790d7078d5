@testable import NearbyInteraction
import Logging
import NIProtocol
import NearbySupport
import Ranging
import Synchronization
import Testing
import UCI
import UWBDevice

/// The per-sample middle both roles share: every sample the kit sends is an update or a counted
/// discard, reported once; silence is timed only while ranging and reported as `lost`.
@Suite struct RangingLaneTests {
    let identity = AccessoryIdentity(id: "lane", displayName: "lane")

    final class Signals: Sendable {
        let received = Mutex<[RangingLane.Signal]>([])
        func append(_ signal: RangingLane.Signal) { received.withLock { $0.append(signal) } }
        var lost: [Int] { received.withLock { $0.compactMap { if case .lost(let epoch) = $0 { epoch } else { nil } } } }
        var rangingAgain: [Int] { received.withLock { $0.compactMap { if case .rangingAgain(let epoch) = $0 { epoch } else { nil } } } }
    }

    func sample(session: UInt32 = 7, distance: Double? = 1.2) -> UCIPeerRangeSample {
        UCIPeerRangeSample(session: session, peer: .short(2), sample: RangeSample(timestamp: MonotonicTime.seconds(), distance: distance))
    }

    func updates(in output: Mailbox<NearbySessionEvent>) -> [NearbySessionEvent] {
        output.takeAll().filter { if case .update = $0.kind { true } else { false } }
    }

    @Test func samplesAreUpdatesOnlyWhileRangingWithTheirSessionElseCountedDiscards() {
        let output = Mailbox<NearbySessionEvent>(capacity: 100)
        let signals = Signals()
        let lane = RangingLane(
            identity: identity, configuration: AccessorySessionConfiguration(lostAfter: 60), output: output, logger: .init(label: "test"),
            signal: signals.append)
        let sink = lane.sink(for: 7)
        #expect(sink.deliver(sample()), "never a drop")
        #expect(lane.takeLossReport() == DropReport(queue: .stoppedSession, count: 1, total: 1), "before ranging: discarded")
        #expect(lane.takeLossReport() == nil, "reported once")

        let epoch = lane.begin(session: 7, at: MonotonicTime.seconds())
        for _ in 0..<5 { _ = sink.deliver(sample()) }
        _ = sink.deliver(sample(session: 8))  // another kit session's
        #expect(updates(in: output).count == 5)
        #expect(lane.processed == 5)
        #expect(signals.rangingAgain == [epoch], "the first usable sample, once")
        #expect(lane.takeLossReport() == DropReport(queue: .stoppedSession, count: 1, total: 2))

        lane.pause()
        for _ in 0..<3 { _ = sink.deliver(sample()) }
        #expect(updates(in: output).isEmpty)
        #expect(lane.processed == 5 && lane.discarded == 5)
        #expect(lane.takeLossReport() == DropReport(queue: .stoppedSession, count: 3, total: 5))
        lane.close()
    }

    @Test func silenceWhileRangingIsLostOnceAndStopsTheLane() async throws {
        let output = Mailbox<NearbySessionEvent>(capacity: 100)
        let signals = Signals()
        let lane = RangingLane(
            identity: identity, configuration: AccessorySessionConfiguration(lostAfter: 0.2), output: output, logger: .init(label: "test"),
            signal: signals.append)
        let epoch = lane.begin(session: 7, at: MonotonicTime.seconds())
        _ = lane.sink(for: 7).deliver(sample())
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while signals.lost.isEmpty, clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(signals.lost == [epoch])
        let lost = output.takeAll().filter { if case .ranging(.lost) = $0.kind { true } else { false } }
        #expect(lost.count == 1, "lost reported by the timer, once")
        // Not ranging any more: the next sample is a discard, not an update. (Relative: on a
        // loaded machine the timer may fire before the first sample, which is then a discard too.)
        let discarded = lane.discarded
        _ = lane.sink(for: 7).deliver(sample())
        #expect(lane.discarded == discarded + 1)
        #expect(updates(in: output).isEmpty)
        lane.close()
    }

    @Test func whileTheKitIsAwayLostIsReportedButIsNoReasonToRecover() async throws {
        let output = Mailbox<NearbySessionEvent>(capacity: 100)
        let signals = Signals()
        let lane = RangingLane(
            identity: identity, configuration: AccessorySessionConfiguration(lostAfter: 1), output: output, logger: .init(label: "test"),
            signal: signals.append)
        // lostAfter 1 s: the sample after the kit is back must come before the next silence
        // ends, which a loaded machine can delay by a few hundred milliseconds.
        lane.begin(session: 7, at: MonotonicTime.seconds())
        lane.setInterrupted(true, at: MonotonicTime.seconds())
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        var events: [NearbySessionEvent] = []
        while events.isEmpty, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            events += output.takeAll()
        }
        #expect(events.contains { if case .ranging(.lost) = $0.kind { true } else { false } })
        #expect(signals.lost.isEmpty)
        // Back: samples are updates again and found follows.
        lane.setInterrupted(false, at: MonotonicTime.seconds())
        _ = lane.sink(for: 7).deliver(sample())
        let found = output.takeAll().contains {
            if case .update(let update) = $0.kind { update.events.contains { if case .found = $0 { true } else { false } } } else { false }
        }
        #expect(found)
        lane.close()
    }
}
