import NearbyTestSupport
import Ranging
import Testing
import UCI
import UWBDevice

/// Sessions on `UCIClient`: SESSION_INIT in its 1.1 and 2.0 forms, app configuration bytes,
/// the host-side state machine, range samples routed per session, the session limit, parameter
/// validation and refusals, state changes the UWBS makes by itself.
@Suite struct ClientSessionTests {
    @Test func uci11SessionUsesTheIDAsTokenByteExact() async throws {
        let harness = try ClientHarness(.memory, options: .init(version: .v1_1, returnsHandles: false))
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 0x2A, parameters: ClientHarness.parameters())
        let sent = harness.received
        #expect(sent[3] == bytes("21 00 00 05 2a 00 00 00 00"))  // SESSION_INIT(0x2A, ranging)
        // SET_APP_CONFIG addressed with the ID.
        #expect(Array(sent[4].prefix(8)) == [0x21, 0x03, 0x00, UInt8(sent[4].count - 4), 0x2A, 0x00, 0x00, 0x00])
        guard case .command(.setAppConfig(0x2A, let configs)) = try UCIMessage(packet: sent[4]) else {
            Issue.record("not SET_APP_CONFIG: \(hex(sent[4]))")
            return
        }
        #expect(configs == (try ClientHarness.parameters().appConfigs(for: .v1_1)))
        #expect(await session.state == .idle)
        try await session.start()
        #expect(harness.received.last == bytes("22 00 00 04 2a 00 00 00"))
        #expect(await session.state == .active)
        try await session.stop()
        #expect(harness.received.last == bytes("22 01 00 04 2a 00 00 00"))
        try await session.close()
        #expect(harness.received.last == bytes("21 01 00 04 2a 00 00 00"))
        #expect(await session.state == .deinitialized)
        await harness.client.close()
    }

    /// As uwb_core: starting a session that already ranges is success. Known ACTIVE on the
    /// host: nothing is sent; ACTIVE only on the UWBS: its SESSION_ACTIVE (0x13) answer counts
    /// as started and the state is confirmed with SESSION_GET_STATE.
    @Test func startingAnActiveSessionSucceeds() async throws {
        let harness = try ClientHarness(.memory, options: .init(version: .v2_0, returnsHandles: true, sendsStatusNotifications: true))
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 0x2B, parameters: ClientHarness.parameters())
        try await session.start()
        let sent = harness.received.count
        try await session.start()
        #expect(harness.received.count == sent, "nothing sent for a session the host knows is active")
        #expect(await session.state == .active)

        let other = try await harness.client.openSession(id: 0x2C, parameters: ClientHarness.parameters())
        let token = try #require(harness.fake.token(of: 0x2C))
        harness.fake.update { $0.sessions[token]?.state = .active }  // ranging behind the host's back
        try await other.start()
        #expect(await other.state == .active)
        let last = harness.received.suffix(2).map { Array($0.prefix(2)) }
        #expect(last == [[0x22, 0x00], [0x21, 0x06]], "SESSION_START answered 0x13, then SESSION_GET_STATE")
        await harness.client.close()
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func uci20SessionUsesTheHandleFromSessionInitAndReportsTheID(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link, options: .init(version: .v2_0, returnsHandles: true))
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 0x2A, parameters: ClientHarness.parameters())
        let handle = try #require(harness.fake.token(of: 0x2A))
        #expect(handle == 0x1000_0001)
        let sent = try await harness.waitForReceived(5)
        #expect(Array(sent[4].prefix(8)) == [0x21, 0x03, 0x00, UInt8(sent[4].count - 4), 0x01, 0x00, 0x00, 0x10])
        try await session.start()
        #expect(harness.received.last == bytes("22 00 00 04 01 00 00 10"))
        let samples = StreamCollector(session.samples)
        harness.inject([FakeUWBS.rangeData(token: handle, measurements: [
            UCITwoWayMeasurement(macAddress: .short(0x0002), distance: 150, azimuth: UCIAngle(degrees: -30),
                                 azimuthFigureOfMerit: 100, elevation: UCIAngle(degrees: 10.5), rssi: 0x90),
        ])])
        let got = try await samples.waitForCount(1)
        #expect(got[0].session == 0x2A)
        #expect(got[0].peer == .short(0x0002))
        #expect(got[0].sample.distance == 1.5)
        #expect(got[0].sample.azimuth == -30)
        #expect(got[0].sample.elevation == 10.5)
        #expect(got[0].sample.figureOfMerit == 100)
        #expect(got[0].sample.rssi == -72)
        #expect(got[0].sample.isNonLineOfSight == false)
        let now = MonotonicTime.seconds()
        #expect(got[0].sample.timestamp <= now && got[0].sample.timestamp > now - 60)
        await harness.client.close()
    }

    @Test func picaReportsUCI20ButAnswersSessionInitInThe11Form() async throws {
        let harness = try ClientHarness(.memory, options: .init(version: .v2_0, returnsHandles: false))
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 9, parameters: ClientHarness.parameters())
        try await session.start()
        #expect(harness.received.last == bytes("22 00 00 04 09 00 00 00"))
        let samples = StreamCollector(session.samples)
        harness.inject([FakeUWBS.rangeData(token: 9, measurements: [UCITwoWayMeasurement(macAddress: .short(2), distance: 42)])])
        #expect(try await samples.waitForCount(1)[0].sample.distance == 0.42)
        await harness.client.close()
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func rangeDataIsRoutedToItsOwnSession(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link)
        try await harness.client.open()
        let first = try await harness.client.openSession(id: 1, parameters: ClientHarness.parameters(mac: 0x0001, peers: [0x00A1]))
        let second = try await harness.client.openSession(id: 2, parameters: ClientHarness.parameters(mac: 0x0001, peers: [0x00B2]))
        try await first.start()
        try await second.start()
        let firstSamples = StreamCollector(first.samples)
        let secondSamples = StreamCollector(second.samples)
        let token1 = try #require(harness.fake.token(of: 1))
        let token2 = try #require(harness.fake.token(of: 2))
        harness.inject([
            FakeUWBS.rangeData(token: token1, sequence: 1, measurements: [UCITwoWayMeasurement(macAddress: .short(0x00A1), distance: 100)]),
            FakeUWBS.rangeData(token: token2, sequence: 1, measurements: [UCITwoWayMeasurement(macAddress: .short(0x00B2), distance: 200)]),
            FakeUWBS.rangeData(token: token1, sequence: 2, measurements: [UCITwoWayMeasurement(macAddress: .short(0x00A1), distance: 110)]),
            FakeUWBS.rangeData(token: token2, sequence: 2, measurements: [
                UCITwoWayMeasurement(macAddress: .short(0x00B2), status: .rangingRXTimeout, distance: 0),
            ]),
        ])
        let one = try await firstSamples.waitForCount(2)
        let two = try await secondSamples.waitForCount(2)
        #expect(one.map(\.sample.distance) == [1.0, 1.1])
        #expect(one.allSatisfy { $0.session == 1 && $0.peer == .short(0x00A1) })
        #expect(two.map(\.sample.distance) == [2.0, nil])
        #expect(two[1].sample.status == 0x21)
        #expect(two.allSatisfy { $0.session == 2 && $0.peer == .short(0x00B2) })
        await harness.client.close()
    }

    @Test func anglesTheSessionDoesNotRequestAreLeftOut() async throws {
        let harness = try ClientHarness(.memory)
        try await harness.client.open()
        var parameters = ClientHarness.parameters()
        parameters.aoaResultRequest = .azimuthOnly
        let session = try await harness.client.openSession(id: 3, parameters: parameters)
        try await session.start()
        let samples = StreamCollector(session.samples)
        harness.inject([FakeUWBS.rangeData(token: try #require(harness.fake.token(of: 3)), measurements: [
            UCITwoWayMeasurement(macAddress: .short(2), distance: 300, azimuth: UCIAngle(degrees: 12), azimuthFigureOfMerit: 80),
        ])])
        let sample = try await samples.waitForCount(1)[0].sample
        #expect(sample.azimuth == 12)
        #expect(sample.elevation == nil)
        await harness.client.close()
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func theStateMachineIsEnforcedOnTheHostNamingTheState(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link)
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 5, parameters: ClientHarness.parameters())
        await #expect {
            try await session.stop()
        } throws: { error in
            guard let error = error as? UCIClientError else { return false }
            return error.code == .invalidState && error.state == .idle
                && error.description.contains("cannot stop session 0x00000005: it is SESSION_STATE_IDLE (0x03), and stop needs SESSION_STATE_ACTIVE (0x02)")
        }
        try await session.start()
        let sentBefore = harness.received.count
        try await session.start()  // already ACTIVE: success, nothing sent (as uwb_core)
        await #expect {
            try await session.update(ClientHarness.parameters())
        } throws: { error in
            (error as? UCIClientError)?.code == .invalidState
        }
        #expect(harness.received.count == sentBefore, "refused operations sent nothing")
        try await session.close()  // stops, then deinitializes
        let last = harness.received.suffix(2)
        #expect(last.map { Array($0.prefix(2)) } == [[0x22, 0x01], [0x21, 0x01]])
        await #expect {
            try await session.start()
        } throws: { error in
            (error as? UCIClientError)?.code == .sessionNotOpen
        }
        await harness.client.close()
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func theDevKitsSessionLimitIsAClearError(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link, options: .init(maxSessions: 2))
        try await harness.client.open()
        _ = try await harness.client.openSession(id: 1, parameters: ClientHarness.parameters())
        _ = try await harness.client.openSession(id: 2, parameters: ClientHarness.parameters())
        do {
            _ = try await harness.client.openSession(id: 3, parameters: ClientHarness.parameters())
            Issue.record("a third session was accepted")
        } catch {
            #expect(error.code == .sessionLimit)
            #expect(error.status == .maxSessionsExceeded)
            #expect(error.description.contains(
                "the dev kit's session limit is reached: it refused session 0x00000003 with MAX_SESSIONS_EXCEEDED (0x14) while 2 sessions were open (0x00000001, 0x00000002), so it runs at most 2 sessions at once"),
                "\(error)")
        }
        #expect(await harness.client.openSessionIDs == [1, 2])
        await harness.client.close()
    }

    @Test func aDuplicateSessionIDIsRefused() async throws {
        let harness = try ClientHarness(.memory)
        try await harness.client.open()
        _ = try await harness.client.openSession(id: 1, parameters: ClientHarness.parameters())
        let before = harness.received.count
        await #expect {
            _ = try await harness.client.openSession(id: 1, parameters: ClientHarness.parameters())
        } throws: { error in
            (error as? UCIClientError)?.code == .duplicateSession
        }
        #expect(harness.received.count == before)
        await harness.client.close()
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func invalidParametersAreRefusedBeforeAnythingIsSent(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link)
        try await harness.client.open()
        let before = harness.received.count
        var parameters = ClientHarness.parameters()
        parameters.channel = 7
        parameters.rangingInterval = 20
        do {
            _ = try await harness.client.openSession(id: 4, parameters: parameters)
            Issue.record("invalid parameters accepted")
        } catch {
            #expect(error.code == .invalidParameters)
            #expect(error.parameterError?.problems.map(\.field) == ["channel", "rangingInterval"])
            #expect(error.description.contains("channel (CHANNEL_NUMBER, 0x04) = 7: allowed 5, 6, 8, 9, 10, 12, 13 or 14"), "\(error)")
            #expect(error.description.contains("nothing was sent"))
        }
        #expect(harness.received.count == before)
        #expect(await harness.client.openSessionIDs.isEmpty)
        await harness.client.close()
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func parametersTheUWBSRefusesAreNamedWithTheirValueAndStatus(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link)
        harness.fake.update { $0.rejected = [.channelNumber: .invalidRange, .slotDuration: .invalidParameter] }
        try await harness.client.open()
        do {
            _ = try await harness.client.openSession(id: 6, parameters: ClientHarness.parameters())
            Issue.record("refused parameters accepted")
        } catch {
            #expect(error.code == .parametersRejected)
            #expect(error.rejectedParameters.map(\.id) == [.channelNumber, .slotDuration])
            #expect(error.description.contains(
                "the UWBS refused 2 parameters of session 0x00000006: CHANNEL_NUMBER (0x04) = channel 9: INVALID_RANGE (0x05); "
                    + "SLOT_DURATION (0x08) = 2400 RSTU (2 ms): INVALID_PARAM (0x04)"), "\(error)")
        }
        // The half-open session was deinitialized again.
        let last = try #require(harness.received.last)
        #expect(Array(last.prefix(2)) == [0x21, 0x01])
        #expect(harness.fake.sessionState(of: 6) == nil)
        await harness.client.close()
    }

    @Test func aSessionTheUWBSStopsByItselfReportsTheReasonAndCanBeStartedAgain() async throws {
        let harness = try ClientHarness(.memory)
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 8, parameters: ClientHarness.parameters())
        let events = StreamCollector(session.events)
        try await session.start()
        let token = try #require(harness.fake.token(of: 8))
        harness.fake.update { $0.sessions[token]?.state = .idle }
        harness.inject([FakeUWBS.packet(.sessionStatus(session: token, state: .idle, reason: .maxRangingRoundRetryCountReached))])
        try await events.waitFor("IDLE, max RR retries") { $0 == .stateChanged(.idle, reason: .maxRangingRoundRetryCountReached) }
        #expect(await session.state == .idle)
        try await session.start()
        #expect(await session.state == .active)
        await harness.client.close()
    }

    @Test func aSessionTheUWBSDeinitializesIsClosedAndItsStreamsEnd() async throws {
        let harness = try ClientHarness(.memory)
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 10, parameters: ClientHarness.parameters())
        let events = StreamCollector(session.events)
        let samples = StreamCollector(session.samples)
        let token = try #require(harness.fake.token(of: 10))
        harness.inject([FakeUWBS.packet(.sessionStatus(session: token, state: .deinitialized, reason: .sessionStoppedDueToInbandSignal))])
        try await events.waitForEnd()
        try await samples.waitForEnd()
        #expect(events.elements.last == .stateChanged(.deinitialized, reason: .sessionStoppedDueToInbandSignal))
        #expect(await harness.client.openSessionIDs.isEmpty)
        await harness.client.close()
    }

    @Test func withoutStatusNotificationsTheStateIsAskedFor() async throws {
        let harness = try ClientHarness(
            .memory, options: .init(sendsStatusNotifications: false), configuration: .init(stateChangeTimeout: .milliseconds(200)))
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 11, parameters: ClientHarness.parameters())
        #expect(harness.received.last == bytes("21 06 00 04 01 00 00 10"))  // SESSION_GET_STATE(handle)
        #expect(await session.state == .idle)
        try await session.start()
        #expect(await session.state == .active)
        await harness.client.close()
    }

    @Test func reconfiguringAnIdleSessionSendsTheNewParameters() async throws {
        let harness = try ClientHarness(.memory)
        try await harness.client.open()
        let session = try await harness.client.openSession(id: 12, parameters: ClientHarness.parameters())
        var parameters = ClientHarness.parameters()
        parameters.rangingInterval = 240
        try await session.update(parameters)
        guard case .command(.setAppConfig(_, let configs)) = try UCIMessage(packet: try #require(harness.received.last)) else {
            Issue.record("not SET_APP_CONFIG")
            return
        }
        #expect(configs.contains(.rangingDuration(milliseconds: 240)))
        #expect(await session.parameters?.rangingInterval == 240)
        await harness.client.close()
    }

    @Test func closingTheClientStopsAndDeinitializesEverySession() async throws {
        let harness = try ClientHarness(.memory)
        try await harness.client.open()
        let a = try await harness.client.openSession(id: 1, parameters: ClientHarness.parameters())
        _ = try await harness.client.openSession(id: 2, parameters: ClientHarness.parameters())
        try await a.start()
        let samples = StreamCollector(a.samples)
        let before = harness.received.count
        await harness.client.close()
        let after = Array(harness.received[before...])
        #expect(after == [bytes("22 01 00 04 01 00 00 10"), bytes("21 01 00 04 01 00 00 10"), bytes("21 01 00 04 02 00 00 10")])
        try await samples.waitForEnd()
    }
}
