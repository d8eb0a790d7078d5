import Simulation
import Testing
import UCI
import UWBDevice

/// Fault injection: device error, COMMAND_RETRY, slow responses, unplug, sessions stopped by
/// the UWBS, a peer that stops answering.
@Suite struct UWBSFaultTests {
    private func ranging(
        _ world: VirtualUWBSWorld, extra: [UCIAppConfig] = []
    ) async throws -> (UWBSHost, UInt32, VirtualUWBSDeviceID) {
        let peer = try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(2), peerAddress: .short(1)))
        let host = try await UWBSHost.open(world)
        let token = try await host.startRanging(configs: Configs.session(controller: true, mac: 1, peer: 2, extra: extra))
        return (host, token, peer)
    }

    @Test func aDeviceErrorLosesTheSessionsAndNeedsAReset() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let (host, _, _) = try await ranging(world)
        try await world.advance(by: 0.2)
        #expect(try await host.unread().count == 1)
        try await world.inject(.deviceError, into: host.deviceID)
        try await host.expect("60 01 00 01 ff")
        try await world.advance(by: 1)
        #expect(try await host.unread().isEmpty)
        // Until reset, every command gets DEVICE_STATUS_NTF(ERROR) and no response.
        try await host.send("21 05 00 00")
        try await host.expect("60 01 00 01 ff")
        try await host.reset()
        try await host.send("21 05 00 00")
        try await host.expect("41 05 00 02 00 00")
        await host.close()
    }

    @Test func commandRetryAsAStatusAndAsAGenericError() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let host = try await UWBSHost.open(world)
        try await host.reset()
        try await world.inject(.commandRetry(count: 1), into: host.deviceID)
        try await host.send("21 00 00 05 2a 00 00 00 00")
        try await host.expect("41 00 00 01 0a")
        // The command was not executed: sending it again creates the session.
        try await host.send("21 00 00 05 2a 00 00 00 00")
        try await host.expect("41 00 00 05 00 01 00 01 00", "61 02 00 06 01 00 01 00 00 00")
        try await world.inject(.commandRetry(count: 2, viaGenericError: true), into: host.deviceID)
        try await host.send("21 05 00 00")
        try await host.send("21 05 00 00")
        try await host.send("21 05 00 00")
        try await host.expect("60 07 00 01 0a", "60 07 00 01 0a", "41 05 00 02 00 01")
        await host.close()
    }

    @Test func slowResponsesComeLate() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let host = try await UWBSHost.open(world)
        try await host.reset()
        try await world.inject(.slowResponses(delay: .milliseconds(400), count: 1), into: host.deviceID)
        let clock = ContinuousClock()
        let start = clock.now
        try await host.send("21 05 00 00")
        try await host.send("20 02 00 00")
        try await host.expect("41 05 00 02 00 00")
        // Only a lower bound: a loaded machine may be later, never earlier.
        #expect(start.duration(to: clock.now) >= .milliseconds(390))
        // The second command queued behind the first, in order, and was not delayed itself.
        guard case .response(.getDeviceInfo(.ok, _)) = try await host.nextMessage() else { throw TestFailure("device info") }
        await host.close()
    }

    @Test func theConfiguredResponseDelayAppliesToEveryCommand() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let host = try await UWBSHost.open(world, configuration: VirtualUWBSConfiguration(responseDelay: .milliseconds(150)))
        let clock = ContinuousClock()
        let start = clock.now
        try await host.reset()
        try await host.send("21 05 00 00")
        try await host.expect("41 05 00 02 00 00")
        #expect(start.duration(to: clock.now) >= .milliseconds(290))
        await host.close()
    }

    @Test func anUnpluggedDeviceEndsItsStreamAndComesBackFresh() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let (host, _, _) = try await ranging(world)
        try await world.inject(.disconnect(reconnectAfter: nil), into: host.deviceID)
        let error = try #require(try await host.endError() as? UWBDeviceError)
        #expect(error.code == .disconnected)
        #expect(error.description.contains("sim: the virtual UWBS went away: unplugged"))
        await #expect(throws: UWBDeviceError.self) { try await host.send("21 05 00 00") }
        // Not back until reconnected.
        let notFound = await #expect(throws: UWBDeviceError.self) { _ = try await host.transport.open() }
        #expect(notFound?.code == .notFound)
        let timeout = await #expect(throws: UWBDeviceError.self) { try await host.transport.waitUntilPresent(timeout: .milliseconds(50)) }
        #expect(timeout?.code == .timeout)
        await world.reconnect(host.deviceID)
        try await host.transport.waitUntilPresent(timeout: .seconds(5))
        let again = UWBSHost(host.transport)
        try await again.open()
        try await again.expect("60 01 00 01 01")
        try await again.reset()
        try await again.send("21 05 00 00")
        try await again.expect("41 05 00 02 00 00")
        await again.close()
    }

    @Test func anUnplugWithADurationEndsByItself() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let host = try await UWBSHost.open(world)
        try await world.inject(.disconnect(reconnectAfter: .milliseconds(200)), into: host.deviceID)
        _ = try await host.endError()
        try await host.transport.waitUntilPresent(timeout: .seconds(20))
        let again = UWBSHost(host.transport)
        try await again.open()
        try await again.expect("60 01 00 01 01")
        await again.close()
    }

    @Test func theUWBSCanStopASessionOnItsOwn() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let (host, token, _) = try await ranging(world)
        #expect(token == 0x0001_0001)
        try await world.inject(.stopSession(id: 42, reason: .maxNumberOfMeasurementsReached), into: host.deviceID)
        try await host.expect("61 02 00 06 01 00 01 00 03 02", "60 01 00 01 01")
        let error = await #expect(throws: VirtualUWBSError.self) {
            try await world.inject(.stopSession(id: 42, reason: .maxRangingRoundRetryCountReached), into: host.deviceID)
        }
        #expect(error?.description == "no ACTIVE session 42 to stop; sessions: 42 SESSION_STATE_IDLE")
        await host.close()
    }

    @Test func aPeerThatStopsRangingMakesTheHostTimeOutAndStop() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let (host, _, peer) = try await ranging(world, extra: [.maxRangingRoundRetries(3)])
        try await world.advance(by: 0.4)
        try await world.inject(.stopSession(id: 42, reason: .stateChangeWithSessionManagementCommands), into: peer)
        try await world.advance(by: 1)
        let packets = try await host.unread()
        let statuses = try packets.filter { $0.header.isUnsegmentedSessionInfo }.map { try UCISessionInfoView(packet: $0).measurements.first?.status }
        #expect(statuses == [.ok, .ok, .rangingRXTimeout, .rangingRXTimeout, .rangingRXTimeout])
        #expect(hex(Array(packets.suffix(2).map(\.bytes).joined())) == hex(bytes("61 02 00 06 01 00 01 00 03 01 60 01 00 01 01")))
        await host.close()
    }

    @Test func radioSilenceTimesOutUntilTheRadioIsBack() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let (host, _, peer) = try await ranging(world)
        try await world.advance(by: 0.2)
        try await world.inject(.radioSilence(true), into: peer)
        try await world.advance(by: 0.4)
        try await world.inject(.radioSilence(false), into: peer)
        try await world.advance(by: 0.2)
        let statuses = try await host.unread().map { try UCISessionInfoView(packet: $0).measurements.first?.status }
        #expect(statuses == [.ok, .rangingRXTimeout, .rangingRXTimeout, .ok])
        #expect(await world.snapshot(peer)?.isSilent == false)
        await host.close()
    }

    @Test func faultsOnUnknownDevicesAreNamed() async throws {
        let world = try VirtualUWBSWorld(clock: .manual)
        defer { Task { await world.shutdown() } }
        let error = await #expect(throws: VirtualUWBSError.self) {
            try await world.inject(.deviceError, into: VirtualUWBSDeviceID(rawValue: 9))
        }
        #expect(error?.code == .unknownDevice)
        #expect(error?.description == "no device 9 in the world; attached: none")
    }
}
