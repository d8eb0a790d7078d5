import Logging
import NearbyTestSupport
import Ranging
import Simulation
import Testing
import UCI
import UWBDevice
import NearbySupport

/// The client against the virtual UWBS of the Simulation module, in process: two clients range
/// with each other (real two-way ranging in the simulated scene), and the faults the virtual
/// UWBS injects (device error, unplug, COMMAND_RETRY, a session stopped by the UWBS, the
/// session limit) are recovered.
@Suite struct ClientVirtualUWBSTests {
    /// A world where the accessory stands 2 m ahead, with exact measurements.
    private func world() throws -> VirtualUWBSWorld {
        try VirtualUWBSWorld(scenario: .stand, noise: .ideal, seed: 1)
    }

    private func client(_ transport: any UCITransport, configuration: UCIClientConfiguration = .init()) -> UCIClient {
        UCIClient(transport: transport, configuration: configuration, logger: Logger(label: "test") { _ in RecordingLogHandler(store: .init()) })
    }

    /// Session 42: `mac` ranges with `peer` every 100 ms.
    private func parameters(mac: UInt16, peer: UInt16, controller: Bool) -> FiRaSessionParameters {
        FiRaSessionParameters(
            deviceMACAddress: .short(mac), destinationMACAddresses: [.short(peer)], deviceType: controller ? .controller : .controlee,
            deviceRole: controller ? .initiator : .responder, rangingInterval: 100)
    }

    /// An NXP SR1xx that needs its board configuration (as NXP's UWB HAL brings it up): the
    /// client sees state 0x00, sends the configuration, resets, and the kit ranges.
    @Test func anNXPKitGetsItsBoardConfigurationFirst() async throws {
        let world = try world()
        defer { Task { await world.shutdown() } }
        let nxp = world.makeTransport(configuration: VirtualUWBSConfiguration(needsBoardConfiguration: true), name: "sr150")
        let host = client(nxp, configuration: UCIClientConfiguration(boardConfiguration: NXPBoardConfiguration(variant: 0x2A, version: 0x03)))
        let accessory = client(world.makeTransport(name: "accessory"))
        #expect(try await host.open().uciVersion == .v2_0)
        #expect(await host.deviceState == .ready)
        try await accessory.open()
        let hostSession = try await host.openSession(id: 42, parameters: parameters(mac: 0x0001, peer: 0x0002, controller: true))
        let accessorySession = try await accessory.openSession(id: 42, parameters: parameters(mac: 0x0002, peer: 0x0001, controller: false))
        try await accessorySession.start()
        try await hostSession.start()
        var samples = hostSession.samples.makeAsyncIterator()
        let sample = try #require(await samples.next())
        #expect(abs((sample.sample.distance ?? 0) - 2.0) < 0.01)
        await host.close()
        await accessory.close()
    }

    @Test(arguments: [UCIVersion.v1_1, .v2_0])
    func twoClientsRangeWithEachOther(version: UCIVersion) async throws {
        let world = try world()
        defer { Task { await world.shutdown() } }
        let configuration = VirtualUWBSConfiguration(uciVersion: version)
        let host = client(world.makeTransport(configuration: configuration, name: "host"))
        let accessory = client(world.makeTransport(configuration: configuration, name: "accessory"))
        #expect(try await host.open().uciVersion == version)
        try await accessory.open()
        let hostSession = try await host.openSession(id: 42, parameters: parameters(mac: 0x0001, peer: 0x0002, controller: true))
        let accessorySession = try await accessory.openSession(id: 42, parameters: parameters(mac: 0x0002, peer: 0x0001, controller: false))
        let hostSamples = StreamCollector(hostSession.samples)
        let accessorySamples = StreamCollector(accessorySession.samples)
        // The responder listens before the initiator's first round (else that round times out).
        try await accessorySession.start()
        try await hostSession.start()

        // A side's first rounds may come before the other side's session started (RX timeouts);
        // from the first measured round on, every round measures.
        func measured(_ collector: StreamCollector<UCIPeerRangeSample>) async throws -> ArraySlice<UCIPeerRangeSample> {
            let samples = try await collector.waitForCount(12)
            return samples.drop { $0.sample.status != 0 }.prefix(5)
        }
        let fromHost = try await measured(hostSamples)
        let fromAccessory = try await measured(accessorySamples)
        #expect(fromHost.count == 5 && fromAccessory.count == 5)
        for sample in fromHost {
            #expect(sample.session == 42 && sample.peer == .short(0x0002))
            #expect(sample.sample.status == 0 && sample.sample.distance == 2.0, "\(sample)")
            #expect(abs(sample.sample.azimuth ?? 99) < 0.01)
            #expect(abs((sample.sample.elevation ?? 0) - 5.71) < 0.1, "\(sample)")  // 0.2 m higher at 2 m
        }
        for sample in fromAccessory {
            #expect(sample.session == 42 && sample.peer == .short(0x0001))
            #expect(sample.sample.distance == 2.0, "\(sample)")
        }
        let times = fromHost.map(\.sample.timestamp)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 }, "\(times)")

        try await hostSession.stop()
        #expect(await hostSession.state == .idle)
        await host.close()
        await accessory.close()
    }

    @Test func aDeviceErrorIsRecoveredAndRangingGoesOn() async throws {
        let world = try world()
        defer { Task { await world.shutdown() } }
        _ = try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0002), peerAddress: .short(0x0001), rangingInterval: 100))
        let transport = world.makeTransport()
        let client = client(transport)
        let events = StreamCollector(client.events())
        try await client.open()
        let session = try await client.openSession(id: 42, parameters: parameters(mac: 0x0001, peer: 0x0002, controller: true))
        let sessionEvents = StreamCollector(session.events)
        let samples = StreamCollector(session.samples)
        try await session.start()
        _ = try await samples.waitForCount(2)

        try await world.inject(.deviceError, into: transport.deviceID)
        try await events.waitFor("recovered") { $0 == .recovered(sessions: [42]) }
        try await sessionEvents.waitFor("restored ACTIVE") { $0 == .restored(.active) }
        #expect(sessionEvents.elements.contains(.interrupted(.deviceError)))
        let before = samples.elements.count
        let after = try await samples.waitForCount(before + 3)
        #expect(after.suffix(3).allSatisfy { $0.sample.distance == 2.0 })
        await client.close()
    }

    @Test func anUnplugIsRecoveredWhenTheDeviceComesBack() async throws {
        let world = try world()
        defer { Task { await world.shutdown() } }
        _ = try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0002), peerAddress: .short(0x0001), rangingInterval: 100))
        let transport = world.makeTransport()
        let client = client(transport)
        let events = StreamCollector(client.events())
        try await client.open()
        let session = try await client.openSession(id: 42, parameters: parameters(mac: 0x0001, peer: 0x0002, controller: true))
        let samples = StreamCollector(session.samples)
        try await session.start()
        _ = try await samples.waitForCount(2)

        try await world.inject(.disconnect(reconnectAfter: .milliseconds(400)), into: transport.deviceID)
        let all = try await events.waitFor("recovered") { $0 == .recovered(sessions: [42]) }
        #expect(all.contains { if case .transportLost(let error) = $0 { error.code == .disconnected } else { false } })
        #expect(all.contains(.transportRestored))
        #expect(await session.state == .active)
        let before = samples.elements.count
        #expect(try await samples.waitForCount(before + 3).suffix(3).allSatisfy { $0.sample.distance == 2.0 })
        await client.close()
    }

    @Test(arguments: [false, true])
    func commandRetriesAreTransparent(viaGenericError: Bool) async throws {
        let world = try world()
        defer { Task { await world.shutdown() } }
        let transport = world.makeTransport()
        let client = client(transport)
        try await client.open()
        try await world.inject(.commandRetry(count: 2, viaGenericError: viaGenericError), into: transport.deviceID)
        let session = try await client.openSession(id: 7, parameters: parameters(mac: 0x0001, peer: 0x0002, controller: true))
        #expect(await session.state == .idle)
        await client.close()
    }

    @Test func aSessionTheUWBSStopsReportsItsReasonAndStartsAgain() async throws {
        let world = try world()
        defer { Task { await world.shutdown() } }
        _ = try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0002), peerAddress: .short(0x0001), rangingInterval: 100))
        let transport = world.makeTransport()
        let client = client(transport)
        try await client.open()
        let session = try await client.openSession(id: 42, parameters: parameters(mac: 0x0001, peer: 0x0002, controller: true))
        let events = StreamCollector(session.events)
        try await session.start()
        try await world.inject(.stopSession(id: 42, reason: .maxRangingRoundRetryCountReached), into: transport.deviceID)
        try await events.waitFor("IDLE, reason 0x01") { $0 == .stateChanged(.idle, reason: .maxRangingRoundRetryCountReached) }
        #expect(await session.state == .idle)
        try await session.start()
        #expect(await session.state == .active)
        await client.close()
    }

    @Test func theVirtualDevicesSessionLimitIsAClearError() async throws {
        let world = try world()
        defer { Task { await world.shutdown() } }
        let client = client(world.makeTransport(configuration: VirtualUWBSConfiguration(maximumSessions: 2)))
        try await client.open()
        _ = try await client.openSession(id: 1, parameters: parameters(mac: 0x0001, peer: 0x0002, controller: true))
        _ = try await client.openSession(id: 2, parameters: parameters(mac: 0x0001, peer: 0x0003, controller: true))
        await #expect {
            _ = try await client.openSession(id: 3, parameters: parameters(mac: 0x0001, peer: 0x0004, controller: true))
        } throws: { error in
            guard let error = error as? UCIClientError else { return false }
            return error.code == .sessionLimit && error.description.contains("runs at most 2 sessions at once")
        }
        await client.close()
    }

    @Test func aChannelTheRadioCannotDoIsRefusedByName() async throws {
        let world = try world()
        defer { Task { await world.shutdown() } }
        let client = client(world.makeTransport())
        try await client.open()
        var parameters = parameters(mac: 0x0001, peer: 0x0002, controller: true)
        parameters.channel = 6  // valid FiRa, not supported by the virtual radio (5 and 9)
        do {
            _ = try await client.openSession(id: 5, parameters: parameters)
            Issue.record("channel 6 accepted")
        } catch {
            #expect(error.code == .parametersRejected)
            #expect(error.rejectedParameters.map(\.id) == [.channelNumber])
            #expect(error.description.contains("CHANNEL_NUMBER (0x04) = channel 6: INVALID_RANGE (0x05)"), "\(error)")
        }
        #expect(await client.openSessionIDs.isEmpty)
        await client.close()
    }
}

/// A consumer that falls behind the dev kit: the samples go straight from the client's reader
/// into a bounded inbox; what does not fit is dropped and counted exactly, memory stays bounded.
@Suite struct ClientOverloadTests {
    @Test func anOverloadedInboxKeepsItsBoundAndCountsEveryDrop() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, seed: 1, clock: .manual)
        defer { Task { await world.shutdown() } }
        _ = try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0002), peerAddress: .short(0x0001), rangingInterval: 100))
        await world.setTracing(true)
        let events = StreamCollector(world.events(bufferingNewest: 100_000))
        let client = UCIClient(transport: world.makeTransport(name: "host"), logger: Logger(label: "test") { _ in RecordingLogHandler(store: .init()) })
        try await client.open()
        let inbox = Mailbox<UCIPeerRangeSample>(capacity: 16)
        let session = try await client.openSession(
            id: 42,
            parameters: FiRaSessionParameters(
                deviceMACAddress: .short(0x0001), destinationMACAddresses: [.short(0x0002)], deviceType: .controller,
                deviceRole: .initiator, rangingInterval: 100),
            samples: UWBSampleSink { inbox.post($0, droppable: true) })
        try await session.start()
        try await world.advance(by: 10)  // 100 rounds at 100 ms, nobody reads the inbox

        func notificationsSent() -> Int {
            let host = events.elements.lazy.compactMap { event -> VirtualUWBSDeviceID? in
                if case .deviceAttached(let id, "host", false) = event { id } else { nil }
            }.first
            return events.elements.filter {
                if case .packet(host, .toHost, let packet) = $0 {
                    packet.header.messageType == .notification && packet.header.opcode == .sessionInfo
                } else {
                    false
                }
            }.count
        }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        // The world has sent everything (manual clock); wait until both the client and the event
        // collector (which can lag behind the inbox on a loaded machine) have seen all of it.
        while inbox.count + inbox.droppedCount != notificationsSent() || notificationsSent() < 90, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let sent = notificationsSent()
        #expect(sent >= 90, "\(sent) range notifications in 10 s at 100 ms")
        #expect(inbox.count == 16, "bounded: the inbox holds its capacity, no more")
        #expect(inbox.droppedCount == sent - 16, "every notification is either waiting or counted as dropped")
        inbox.finish()
        var waiting: [UCIPeerRangeSample] = []
        for await sample in inbox { waiting.append(sample) }
        let times = waiting.map(\.sample.timestamp)
        #expect(waiting.count == 16 && zip(times, times.dropFirst()).allSatisfy { $1 >= $0 }, "the newest 16, in order")
        await client.close()
    }
}
