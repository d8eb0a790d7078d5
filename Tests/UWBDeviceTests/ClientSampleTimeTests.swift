import NearbyTestSupport
import Ranging
import Testing
import UCI
import UWBDevice

/// When a range sample happened: the receive time its transport gave the packet (the in-process
/// virtual UWBS gives its round's time, which may be a little after the packet left), else the
/// time the client read the packet (USB, serial, TCP). Both routes of range data keep it: the
/// reader's (an unsegmented two-way notification) and the actor's (segmented, OWR-AoA).
@Suite struct ClientSampleTimeTests {
    private static let measurement = UCITwoWayMeasurement(macAddress: .short(0x0002), distance: 150)

    /// An open client with an ACTIVE session 0x2A, its samples collected, and its token.
    private func activeSession(_ harness: ClientHarness) async throws -> (StreamCollector<UCIPeerRangeSample>, UInt32) {
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 0x2A, parameters: ClientHarness.parameters())
        try await session.start()
        return (StreamCollector(session.samples), try #require(harness.fake.token(of: 0x2A)))
    }

    @Test func aSampleHasItsPacketsReceiveTimeWhenTheTransportGivesOne() async throws {
        let harness = try ClientHarness(.memory)
        let (samples, token) = try await activeSession(harness)
        let memory = try #require(harness.memory)
        // A time in the future (a round the world ran ahead of the wall clock), one in the past,
        // then none: read time.
        let ahead = MonotonicTime.seconds() + 0.020
        memory.inject([FakeUWBS.rangeData(token: token, sequence: 1, measurements: [Self.measurement])], receivedAt: ahead)
        memory.inject([FakeUWBS.rangeData(token: token, sequence: 2, measurements: [Self.measurement])], receivedAt: ahead + 0.010)
        let before = MonotonicTime.seconds()
        memory.inject([FakeUWBS.rangeData(token: token, sequence: 3, measurements: [Self.measurement])])
        let got = try await samples.waitForCount(3)
        let after = MonotonicTime.seconds()
        #expect(got[0].sample.timestamp == ahead)
        #expect(got[1].sample.timestamp == ahead + 0.010)
        #expect(got[2].sample.timestamp >= before && got[2].sample.timestamp <= after, "no time given: stamped when read")
        await harness.client.close()
    }

    @Test func aSegmentedNotificationHasTheReceiveTimeOfItsLastPacket() async throws {
        let harness = try ClientHarness(.memory)
        let (samples, token) = try await activeSession(harness)
        let memory = try #require(harness.memory)
        let info = UCISessionInfo(sequenceNumber: 3, session: token, currentRangingInterval: 100, measurements: .twoWay([Self.measurement]))
        let packets = try UCINotification.sessionInfo(info).packets(UCISegmenter(maxControlPayloadSize: 10)).map(\.bytes)
        #expect(packets.count > 2)
        for (index, packet) in packets.enumerated() { memory.inject([packet], receivedAt: 500 + Double(index)) }
        let got = try await samples.waitForCount(1)
        #expect(got[0].sample.distance == 1.5)
        #expect(got[0].sample.timestamp == 500 + Double(packets.count - 1))
        await harness.client.close()
    }

    @Test func anOWRAoASampleHasItsPacketsReceiveTime() async throws {
        let harness = try ClientHarness(.memory)
        let (samples, token) = try await activeSession(harness)
        let memory = try #require(harness.memory)
        let owr = UCIOWRAoAMeasurement(
            macAddress: .short(0xBBAA), frameSequenceNumber: 7, blockIndex: 2, azimuth: UCIAngle(degrees: 20),
            azimuthFigureOfMerit: 90, elevation: UCIAngle(degrees: -4), elevationFigureOfMerit: 80)
        let owrInfo = UCISessionInfo(sequenceNumber: 1, session: token, currentRangingInterval: 100, measurements: .owrAoA([owr]))
        memory.inject([FakeUWBS.packet(.sessionInfo(owrInfo))], receivedAt: 1234.5)
        let got = try await samples.waitForCount(1)
        #expect(got[0].sample.azimuth == 20 && got[0].sample.timestamp == 1234.5)
        await harness.client.close()
    }

    /// A real transport (TCP: bytes read from a socket) gives no time: the sample is stamped
    /// when the client read it, after the UWBS wrote it.
    @Test func aRealTransportsSampleIsStampedWhenRead() async throws {
        let harness = try ClientHarness(.tcp)
        let (samples, token) = try await activeSession(harness)
        let before = MonotonicTime.seconds()
        harness.inject([FakeUWBS.rangeData(token: token, measurements: [Self.measurement])])
        let got = try await samples.waitForCount(1)
        let after = MonotonicTime.seconds()
        #expect(got[0].sample.timestamp >= before && got[0].sample.timestamp <= after)
        await harness.client.close()
    }
}
