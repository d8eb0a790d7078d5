import Logging
import NearbyTestSupport
import Ranging
import Testing
import UCI
import UWBDevice

/// The command layer of `UCIClient`: bring-up bytes, one command in flight, the 2 s timeout,
/// COMMAND_RETRY and generic-error retries, segmented responses, unhandled messages. Each test
/// runs over the in-memory transport and over TCP (a `ScriptedUCIServer`).
@Suite struct ClientCommandTests {
    static let reset = bytes("20 00 00 01 00")
    static let getDeviceInfo = bytes("20 02 00 00")
    static let getCaps = bytes("20 03 00 00")

    @Test(arguments: ClientHarness.Link.allCases)
    func openResetsReadsDeviceInfoAndCapabilitiesByteExact(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link, options: .init(version: .v1_1))
        let events = StreamCollector(harness.client.events())
        let info = try await harness.client.open()
        #expect(harness.received == [Self.reset, Self.getDeviceInfo, Self.getCaps])
        #expect(info.uciVersion == .v1_1)
        #expect(info.macVersion == UCIVersion(major: 1, minor: 3))
        #expect(info.vendorInfo == [0x51, 0x6F, 0x72])
        let caps = try #require(await harness.client.capabilities)
        #expect(caps.version == .v1_1)
        #expect(try caps.channels() == [5, 9])
        #expect(try caps.deviceRoles() == [.responder, .initiator])
        #expect(await harness.client.deviceState == .ready)
        try await events.waitFor("DEVICE_STATUS_NTF(READY)") { $0 == .deviceStateChanged(.ready) }
        await harness.client.close()
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func aMissingResponseTimesOutAfterTwoSecondsNamingTheCommandAndIsNotResent(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link)
        harness.fake.update { $0.silent = [.coreGetDeviceInfo] }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try await harness.client.open()
            Issue.record("open succeeded without a device-info response")
        } catch {
            let elapsed = start.duration(to: clock.now)
            #expect(error.code == .timeout)
            #expect(error.command == "CORE_GET_DEVICE_INFO_CMD")
            #expect(error.description.contains("CORE_GET_DEVICE_INFO_CMD timed out: no response within 2 s"), "\(error)")
            #expect(elapsed >= .milliseconds(1990), "gave up after \(elapsed)")
        }
        #expect(harness.received == [Self.reset, Self.getDeviceInfo])
        // The client can be opened again once the UWBS answers.
        harness.fake.update { $0.silent = [] }
        try await harness.client.open()
        await harness.client.close()
    }

    @Test(arguments: ClientHarness.Link.allCases)
    /// uwb_core's MAX_RETRY_COUNT: a command goes out at most 3 times in all.
    func commandRetryIsResentUpToThreeSendsInAll(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link)
        harness.fake.update { $0.retryAnswers[.coreGetDeviceInfo] = 2 }
        try await harness.client.open()
        #expect(harness.received == [Self.reset] + Array(repeating: Self.getDeviceInfo, count: 3) + [Self.getCaps])
        await harness.client.close()
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func aThirdCommandRetryIsAnErrorNamingTheCommand(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link)
        harness.fake.update { $0.retryAnswers[.coreGetDeviceInfo] = 3 }
        await #expect {
            try await harness.client.open()
        } throws: { error in
            guard let error = error as? UCIClientError else { return false }
            return error.code == .retriesExhausted && error.status == .commandRetry
                && error.description.contains("CORE_GET_DEVICE_INFO_CMD was refused with COMMAND_RETRY (0x0A) 3 times")
        }
        #expect(harness.received == [Self.reset] + Array(repeating: Self.getDeviceInfo, count: 3), "never a fourth send")
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func genericErrorCommandRetryResendsTheOutstandingCommand(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link)
        let events = StreamCollector(harness.client.events())
        harness.fake.update { $0.genericRetries[.coreGetCapsInfo] = 2 }
        try await harness.client.open()
        #expect(harness.received == [Self.reset, Self.getDeviceInfo, Self.getCaps, Self.getCaps, Self.getCaps])
        #expect(await harness.client.capabilities != nil)
        try await events.waitFor("CORE_GENERIC_ERROR_NTF") { $0 == .genericError(.commandRetry) }
        await harness.client.close()
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func segmentedResponsesAndNotificationsAreReassembled(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link, options: .init(segmentSize: 3))
        let info = try await harness.client.open()
        #expect(info.vendorInfo == [0x51, 0x6F, 0x72])
        #expect(try await harness.client.capabilities?.channels() == [5, 9])
        let session = try await harness.client.openSession(id: 7, parameters: ClientHarness.parameters())
        try await session.start()
        #expect(await session.state == .active)
        let samples = StreamCollector(session.samples)
        let token = try #require(harness.fake.token(of: 7))
        // A range notification segmented into 10-byte packets.
        let info7 = UCISessionInfo(sequenceNumber: 3, session: token, currentRangingInterval: 100, measurements: .twoWay([
            UCITwoWayMeasurement(macAddress: .short(0x0002), distance: 250),
        ]))
        harness.inject(try UCINotification.sessionInfo(info7).packets(UCISegmenter(maxControlPayloadSize: 10)).map(\.bytes))
        let got = try await samples.waitForCount(1)
        #expect(got[0].sample.distance == 2.5)
        await harness.client.close()
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func unmatchedResponsesAndVendorNotificationsAreReportedAndDoNotDisturb(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link)
        let unhandled = StreamCollector(harness.client.unhandledMessages())
        try await harness.client.open()
        harness.inject([bytes("42 00 00 01 00"), bytes("6e 01 00 02 01 02")])
        let got = try await unhandled.waitForCount(2)
        #expect(got[0].reason == .unmatchedResponse)
        #expect(got[0].description.contains("SESSION_START_RSP"), "\(got[0])")
        #expect(got[1].reason == .vendor)
        #expect(got[1].message?.payload == [0x01, 0x02])
        // Logged with their readable decode.
        let log = harness.log.messages
        #expect(log.contains("notice: response to no outstanding command: SESSION_START_RSP {status: OK (0x00)}"), "\(log)")
        #expect(log.contains("notice: vendor notification: VENDOR_NTF {gid: 0xE, oid: 0x01, payload: 01 02}"), "\(log)")
        #expect(log.contains("debug: > CORE_GET_DEVICE_INFO_CMD"), "\(log)")
        // Still works.
        let response = try await harness.client.send(.getDeviceInfo)
        #expect(response.status == .ok)
        await harness.client.close()
    }

    @Test func aReadyGreetingBeforeTheResetIsHarmless() async throws {
        // pica sends DEVICE_STATUS_NTF(READY) as soon as the connection is up.
        let fake = FakeUWBS()
        let memory = MemoryTransport(greeting: [bytes("60 01 00 01 01")], script: fake.respond(to:))
        let client = UCIClient(transport: memory, logger: Logger(label: "test") { _ in RecordingLogHandler(store: .init()) })
        try await client.open()
        #expect(memory.sent == [Self.reset, Self.getDeviceInfo, Self.getCaps])
        await client.close()
    }

    @Test func rangeDataForAnUnknownSessionIsReported() async throws {
        let harness = try ClientHarness(.memory)
        let unhandled = StreamCollector(harness.client.unhandledMessages())
        try await harness.client.open()
        harness.inject([FakeUWBS.rangeData(token: 0x0BAD, measurements: [UCITwoWayMeasurement(macAddress: .short(2), distance: 1)])])
        let got = try await unhandled.waitForCount(1)
        #expect(got[0].reason == .unknownSession(0x0BAD))
        #expect(got[0].message?.opcode == .sessionInfo)
        #expect(harness.log.messages.contains("notice: range data for unknown session 0x00000BAD"))
        await harness.client.close()
    }

    @Test func aDeviceErrorInTheMiddleOfASegmentedResponseIsReportedAndRecovered() async throws {
        let harness = try ClientHarness(.memory)
        let unhandled = StreamCollector(harness.client.unhandledMessages())
        let events = StreamCollector(harness.client.events())
        try await harness.client.open()
        // The first segment of a response, then DEVICE_STATUS_NTF(ERROR).
        harness.inject([bytes("50 02 00 02 00 01"), bytes("60 01 00 01 ff")])
        let got = try await unhandled.waitForCount(1)
        #expect(got[0].description.contains("interrupted by CORE_DEVICE_STATUS_NTF(ERROR) after 1 segment(s)"), "\(got[0])")
        try await events.waitFor("recovered") { $0 == .recovered(sessions: []) }
        #expect(harness.fake.resets == 2)
        await harness.client.close()
    }

    @Test func aCommandTheCodecCannotEncodeIsRefusedBeforeSending() async throws {
        let harness = try ClientHarness(.memory)
        try await harness.client.open()
        let before = harness.received.count
        await #expect {
            _ = try await harness.client.send(.setCountryCode("USA"))
        } throws: { error in
            (error as? UCIClientError)?.code == .invalidCommand
        }
        #expect(harness.received.count == before)
        await harness.client.close()
    }

    @Test func operationsBeforeOpenAndAfterCloseSayWhatToDo() async throws {
        let harness = try ClientHarness(.memory)
        await #expect {
            _ = try await harness.client.send(.getDeviceInfo)
        } throws: { error in
            (error as? UCIClientError)?.code == .notOpen && "\(error)".contains("call open() first".capitalizedFirst)
        }
        try await harness.client.open()
        await harness.client.close()
        await #expect {
            _ = try await harness.client.send(.getDeviceInfo)
        } throws: { error in
            (error as? UCIClientError)?.code == .closed
        }
        await #expect {
            try await harness.client.open()
        } throws: { error in
            (error as? UCIClientError)?.code == .closed
        }
    }

    @Test func aTransportThatCannotOpenIsReportedWithItsReason() async throws {
        let port = try freeTCPPort()
        let client = UCIClient(
            transport: TCPTransport(host: "127.0.0.1", port: UInt16(port)), logger: Logger(label: "test") { _ in RecordingLogHandler(store: .init()) })
        do {
            try await client.open()
            Issue.record("opened a port nobody listens on")
        } catch {
            #expect(error.code == .transport)
            #expect(error.transportError?.code == .notFound)
            #expect(error.description.contains("nothing listens on 127.0.0.1:\(port)"), "\(error)")
        }
    }
}

extension String {
    /// "call open() first" -> "Call open() first".
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
