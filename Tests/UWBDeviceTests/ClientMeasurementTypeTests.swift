import NearbyTestSupport
import Ranging
import Testing
import UCI
import UWBDevice

/// The client with notifications other than two-way range data: OWR-AoA and DL-TDoA
/// SESSION_INFO_NTF delivered typed on the session's events (and OWR-AoA as angle samples),
/// and fixed-length notifications with trailing bytes still acted upon.
@Suite struct ClientMeasurementTypeTests {
    @Test func owrAoAAndDLTDoANotificationsAreDeliveredTyped() async throws {
        let harness = try ClientHarness(.memory)
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 0x31, parameters: ClientHarness.parameters())
        try await session.start()
        let token = try #require(harness.fake.token(of: 0x31))
        let events = StreamCollector(session.events)
        let samples = StreamCollector(session.samples)
        let owr = UCIOWRAoAMeasurement(
            macAddress: .short(0xBBAA), frameSequenceNumber: 7, blockIndex: 2, azimuth: UCIAngle(degrees: 20),
            azimuthFigureOfMerit: 90, elevation: UCIAngle(degrees: -4), elevationFigureOfMerit: 80)
        let owrInfo = UCISessionInfo(sequenceNumber: 1, session: token, currentRangingInterval: 100, measurements: .owrAoA([owr]))
        let tdoa = UCIDLTDoAMeasurement(macAddress: .short(0x0102), messageType: 1, txTimestamp: 5, rxTimestamp: 9)
        let tdoaInfo = UCISessionInfo(sequenceNumber: 2, session: token, currentRangingInterval: 100, measurements: .dlTDoA([tdoa]))
        harness.inject([FakeUWBS.packet(.sessionInfo(owrInfo)), FakeUWBS.packet(.sessionInfo(tdoaInfo))])
        let got = try await events.waitFor("the DL-TDoA notification") { $0 == .measurements(tdoaInfo) }
        #expect(got.contains(.measurements(owrInfo)))
        let sample = try #require(try await samples.waitForCount(1).first)
        #expect(sample.peer == .short(0xBBAA) && sample.sample.distance == nil && sample.sample.azimuth == 20 && sample.sample.elevation == -4)
        await harness.client.close()
    }

    @Test func aSessionStatusWithTrailingBytesStillChangesTheState() async throws {
        let harness = try ClientHarness(.memory)
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 0x32, parameters: ClientHarness.parameters())
        try await session.start()
        let token = try #require(harness.fake.token(of: 0x32))
        let events = StreamCollector(session.events)
        // SESSION_STATUS_NTF(IDLE, 0x01) with two vendor bytes appended.
        let payload: [UInt8] = [UInt8(token & 0xFF), UInt8(token >> 8 & 0xFF), UInt8(token >> 16 & 0xFF), UInt8(token >> 24), 0x03, 0x01, 0xEE, 0xFF]
        harness.inject([[0x61, 0x02, 0x00, UInt8(payload.count)] + payload])
        try await events.waitFor("IDLE") { $0 == .stateChanged(.idle, reason: .maxRangingRoundRetryCountReached) }
        #expect(await session.state == .idle)
        try await session.start()
        harness.inject([[0x61, 0x02, 0x00, UInt8(payload.count)] + payload])
        try await events.waitFor("IDLE again") { _ in events.elements.filter { $0 == .stateChanged(.idle, reason: .maxRangingRoundRetryCountReached) }.count == 2 }
        let logged = harness.log.messages.filter { $0.contains("carries 2 byte(s) beyond its 6") }
        #expect(logged.count == 1, "logged once: \(logged)")
        await harness.client.close()
    }

    /// google/pica writes whole degrees and RSSI 0xFF: with the pica dialect the client reads
    /// them as such; with FiRa's they would be 128 times too small.
    @Test(arguments: [UCIMeasurementDialect.fira, .pica])
    func picasAnglesNeedItsDialect(dialect: UCIMeasurementDialect) async throws {
        let harness = try ClientHarness(.memory, configuration: UCIClientConfiguration(measurementDialect: dialect))
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 0x33, parameters: ClientHarness.parameters())
        try await session.start()
        let token = try #require(harness.fake.token(of: 0x33))
        let samples = StreamCollector(session.samples)
        // pica's make_measurement: azimuth 30 and elevation -10 as whole degrees, FoM 100, RSSI 0xFF.
        harness.inject([FakeUWBS.rangeData(token: token, measurements: [
            UCITwoWayMeasurement(macAddress: .short(0x0002), distance: 200, azimuth: UCIAngle(rawValue: 30), azimuthFigureOfMerit: 100,
                                 elevation: UCIAngle(rawValue: -10), elevationFigureOfMerit: 100, rssi: 0xFF),
        ])])
        let sample = try #require(try await samples.waitForCount(1).first?.sample)
        switch dialect {
        case .pica:
            #expect(sample.azimuth == 30 && sample.elevation == -10 && sample.rssi == nil)
        case .fira:
            #expect(sample.azimuth == 30.0 / 128 && sample.rssi == -127.5)
        }
        await harness.client.close()
    }
}
