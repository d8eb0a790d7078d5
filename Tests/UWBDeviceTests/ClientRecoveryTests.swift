import NearbyTestSupport
import Ranging
import Testing
import UCI
import UWBDevice

/// Automatic recovery: DEVICE_STATUS_NTF(ERROR) -> reset + restore; the transport going away ->
/// sessions interrupted, reopen, reset, restore; operations while the dev kit is gone.
@Suite struct ClientRecoveryTests {
    /// Opens the client and one ranging session (id 42) plus one idle session (id 43).
    private func openTwoSessions(_ harness: ClientHarness) async throws -> (active: UWBSession, idle: UWBSession) {
        try await harness.client.open()
        let active = try await harness.client.openSession(id: 42, parameters: ClientHarness.parameters(peers: [0x0002]))
        let idle = try await harness.client.openSession(id: 43, parameters: ClientHarness.parameters(peers: [0x0003]))
        try await active.start()
        return (active, idle)
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func aDeviceErrorResetsTheUWBSAndRestoresEverySession(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link)
        let events = StreamCollector(harness.client.events())
        let (active, idle) = try await openTwoSessions(harness)
        let activeEvents = StreamCollector(active.events)
        let idleEvents = StreamCollector(idle.events)
        let samples = StreamCollector(active.samples)
        let before = harness.received.count
        #expect(harness.fake.resets == 1)

        // The UWBS fails: it forgets its sessions and reports ERROR.
        harness.fake.update { $0.sessions.removeAll() }
        harness.inject([FakeUWBS.packet(.deviceStatus(.error))])

        try await events.waitFor("recovered") { $0 == .recovered(sessions: [42, 43]) }
        #expect(events.elements.contains(.deviceErrorReported(sessions: [42, 43])))
        try await activeEvents.waitFor("restored ACTIVE") { $0 == .restored(.active) }
        try await idleEvents.waitFor("restored IDLE") { $0 == .restored(.idle) }
        #expect(activeEvents.elements.contains(.interrupted(.deviceError)))
        #expect(idleEvents.elements.contains(.interrupted(.deviceError)))
        #expect(harness.fake.resets == 2)
        #expect(harness.fake.sessionState(of: 42) == .active)
        #expect(harness.fake.sessionState(of: 43) == .idle)
        // What was sent: reset, info, caps; then each session initialized and configured again,
        // and the ranging one started.
        let kinds = harness.received[before...].map { Array($0.prefix(2)) }
        #expect(kinds == [[0x20, 0x00], [0x20, 0x02], [0x20, 0x03], [0x21, 0x00], [0x21, 0x03], [0x22, 0x00], [0x21, 0x00], [0x21, 0x03]])
        #expect(await active.state == .active)
        #expect(await idle.state == .idle)

        // Range data with the new handle reaches the same session stream.
        let token = try #require(harness.fake.token(of: 42))
        #expect(token == 0x1000_0003)
        harness.inject([FakeUWBS.rangeData(token: token, measurements: [UCITwoWayMeasurement(macAddress: .short(2), distance: 123)])])
        #expect(try await samples.waitForCount(1)[0].sample.distance == 1.23)
        await harness.client.close()
    }

    @Test(arguments: ClientHarness.Link.allCases)
    func aLostTransportIsReopenedAndTheSessionsRestored(link: ClientHarness.Link) async throws {
        let harness = try ClientHarness(link)
        let events = StreamCollector(harness.client.events())
        let (active, idle) = try await openTwoSessions(harness)
        let activeEvents = StreamCollector(active.events)
        let samples = StreamCollector(active.samples)

        try await harness.dropLink()

        try await events.waitFor("recovered") { $0 == .recovered(sessions: [42, 43]) }
        let lost = try #require(events.elements.compactMap { event -> UWBDeviceError? in
            if case .transportLost(let error) = event { return error }
            return nil
        }.first)
        #expect(lost.code == .disconnected)
        #expect(events.elements.contains(.transportRestored))
        try await activeEvents.waitFor("restored ACTIVE") { $0 == .restored(.active) }
        #expect(activeEvents.elements.contains { if case .interrupted(.transportLost) = $0 { true } else { false } })
        #expect(harness.fake.resets == 2)
        #expect(harness.fake.sessionState(of: 42) == .active)
        #expect(harness.fake.sessionState(of: 43) == .idle)
        #expect(await idle.state == .idle)
        if let memory = harness.memory { #expect(memory.opens == 2) }
        if let server = harness.server { #expect(server.connectionCount == 2) }

        let token = try #require(harness.fake.token(of: 42))
        harness.inject([FakeUWBS.rangeData(token: token, measurements: [UCITwoWayMeasurement(macAddress: .short(2), distance: 321)])])
        #expect(try await samples.waitForCount(1)[0].sample.distance == 3.21)
        await harness.client.close()
    }

    @Test func operationsFailAtOnceWhileTheDevKitIsGone() async throws {
        let harness = try ClientHarness(.memory)
        let events = StreamCollector(harness.client.events())
        let (active, _) = try await openTwoSessions(harness)
        let memory = try #require(harness.memory)
        memory.unplug()
        try await events.waitFor("transport lost") { if case .transportLost = $0 { true } else { false } }
        do {
            try await active.stop()
            Issue.record("stop succeeded with the dev kit unplugged")
        } catch {
            // At once, with `unavailable`: not after a command timeout (that would be `timeout`).
            #expect(error.code == .unavailable)
            #expect(error.description.contains("Plug the dev kit back in"), "\(error)")
        }
        memory.plug()
        try await events.waitFor("recovered") { $0 == .recovered(sessions: [42, 43]) }
        try await active.stop()
        #expect(await active.state == .idle)
        await harness.client.close()
    }

    @Test func closingWhileWaitingForTheDevKitStopsTheRecovery() async throws {
        let harness = try ClientHarness(.memory)
        let events = StreamCollector(harness.client.events())
        let (active, _) = try await openTwoSessions(harness)
        let samples = StreamCollector(active.samples)
        try #require(harness.memory).unplug()
        try await events.waitFor("transport lost") { if case .transportLost = $0 { true } else { false } }
        await harness.client.close()
        try await samples.waitForEnd()
        try await events.waitForEnd()
    }

    @Test func givingUpAfterTheReconnectTimeoutClosesTheSessions() async throws {
        let harness = try ClientHarness(.memory, configuration: .init(reconnectDelays: [.milliseconds(50)], reconnectTimeout: .milliseconds(500)))
        let events = StreamCollector(harness.client.events())
        let (active, _) = try await openTwoSessions(harness)
        let activeEvents = StreamCollector(active.events)
        try #require(harness.memory).unplug()
        let all = try await events.waitFor("recovery failed") { if case .recoveryFailed = $0 { true } else { false } }
        guard case .recoveryFailed(let error)? = all.last else { return }
        #expect(error.description.contains("the dev kit did not come back within 500 ms"), "\(error)")
        try await activeEvents.waitForEnd()
        #expect(activeEvents.elements.contains { if case .restoreFailed = $0 { true } else { false } })
        await #expect {
            _ = try await harness.client.send(.getDeviceInfo)
        } throws: { error in
            (error as? UCIClientError)?.code == .unavailable
        }
        await harness.client.close()
    }

    @Test func aSessionTheUWBSNoLongerAcceptsAfterTheResetIsReportedAndClosed() async throws {
        let harness = try ClientHarness(.memory)
        let events = StreamCollector(harness.client.events())
        let (active, idle) = try await openTwoSessions(harness)
        let idleEvents = StreamCollector(idle.events)
        // After the reset the UWBS refuses session 43's peer address.
        harness.fake.update { $0.rejected = [.destinationMACAddresses: .invalidParameter] }
        harness.inject([FakeUWBS.packet(.deviceStatus(.error))])
        try await events.waitFor("recovered") { if case .recovered = $0 { true } else { false } }
        // Both sessions send DST_MAC_ADDRESS, so both are refused and closed; the client goes on.
        #expect(events.elements.contains(.recovered(sessions: [])))
        try await idleEvents.waitForEnd()
        #expect(idleEvents.elements.contains { if case .restoreFailed(let error) = $0 { error.code == .parametersRejected } else { false } })
        #expect(await active.state == .deinitialized)
        #expect(await harness.client.openSessionIDs.isEmpty)
        harness.fake.update { $0.rejected = [:] }
        let again = try await harness.client.openSession(id: 44, parameters: ClientHarness.parameters())
        #expect(await again.state == .idle)
        await harness.client.close()
    }
}
