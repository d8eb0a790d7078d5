import Simulation
import Testing
import UCI

/// Raw UCI scripts against one in-process virtual UWBS: exact bytes, the specs/reference/uci.md wire
/// vectors (specs/uci.md, from google/pica's and AOSP's UCI tests) and the lifecycle of a ranging session.
@Suite struct UWBSScriptTests {
    private func world(noise: NoiseModel = .ideal) throws -> VirtualUWBSWorld {
        try VirtualUWBSWorld(scenario: .stand, noise: noise, seed: 7, clock: .manual)
    }

    @Test func theReferenceFlowInUCI11IsByteExact() async throws {
        let world = try world()
        defer { Task { await world.shutdown() } }
        try await world.addPeer(VirtualPeer(sessionID: 1, address: .short(0x0002), peerAddress: .short(0x0001)))
        let events = EventLog(world)
        let host = try await UWBSHost.open(world, configuration: VirtualUWBSConfiguration(uciVersion: .v1_1))

        // Before CORE_DEVICE_RESET the UWBS answers with DEVICE_STATUS_NTF(ERROR), as pica.
        try await host.send("20 02 00 00")
        try await host.expect("60 01 00 01 ff")
        // Reset: RSP then READY.
        try await host.send("20 00 00 01 00")
        try await host.expect("40 00 00 01 00", "60 01 00 01 01")
        // UCI 1.1: SESSION_INIT_RSP is the status alone; the session ID is the token.
        try await host.send("21 00 00 05 01 00 00 00 00")
        try await host.expect("41 00 00 01 00", "61 02 00 06 01 00 00 00 00 00")
        // The reference's SET_APP_CONFIG vector lacks the mandatory parameters: REJECTED, with
        // each missing one as SESSION_NOT_CONFIGURED (0x15); nothing is applied.
        try await host.send("21 03 00 0f 01 00 00 00 02 09 04 c8 00 00 00 06 02 01 00")
        try await host.expect("41 03 00 0c 01 05 00 15 11 15 03 15 01 15 22 15")
        // The whole configuration: RSP OK + SESSION_STATUS_NTF(IDLE) (the specs/reference/uci.md vector).
        try await host.send(.setAppConfig(session: 1, configs: Configs.session(controller: true, mac: 0x0001, peer: 0x0002)))
        try await host.expect("41 03 00 02 00 00", "61 02 00 06 01 00 00 00 03 00")
        // Start (the specs/reference/uci.md vector): RSP, SESSION_STATUS_NTF(ACTIVE), DEVICE_STATUS_NTF(ACTIVE).
        try await host.send("22 00 00 04 01 00 00 00")
        try await host.expect("42 00 00 01 00", "61 02 00 06 01 00 00 00 02 00", "60 01 00 01 02")

        // One second of ranging at 200 ms: five SESSION_INFO_NTFs (sequence 0-4).
        try await world.advance(by: 1.0)
        let rounds = try await hostRounds(events, device: host.deviceID, count: 5)
        for (index, round) in rounds.enumerated() {
            let packet = try await host.next()
            #expect(Array(packet.bytes[0..<4]) == [0x62, 0x00, 0x00, 0x38])
            let view = try UCISessionInfoView(packet: packet)
            #expect(view.sequenceNumber == UInt32(index))
            #expect(view.session == 1)
            #expect(view.currentRangingInterval == 200)
            #expect(!view.usesExtendedAddresses)
            let measurements = Array(view.measurements)
            #expect(measurements.count == 1)
            let measurement = try #require(measurements.first)
            let truth = try #require(round.measurement).truth
            #expect(measurement.macAddress == .short(0x0002))
            #expect(measurement.status == .ok)
            #expect(measurement.nlos == 0)
            // The stand scenario: 2 m true 3-D distance, straight ahead, 0.2 m higher.
            #expect(measurement.distance == 200)
            #expect(abs(truth.distance - 2) < 1e-9)
            #expect(measurement.azimuth == UCIAngle(degrees: truth.azimuth))
            #expect(measurement.elevation == UCIAngle(degrees: truth.elevation))
            #expect(abs(measurement.elevation.degrees - 5.739) < 0.01)
            #expect(measurement.azimuthFigureOfMerit == 100)
            // RSSI by the path-loss model: -65 dBm - 20 log10(2 m) = -71.0 dBm = Q7.1 0x8e.
            #expect(measurement.rssi == 0x8E)
            #expect(measurement.slotIndex == 1)
            // The peer measured the host straight ahead and 0.2 m lower: the destination angles.
            #expect(abs(measurement.destinationElevation.degrees + 5.739) < 0.01)
            #expect(measurement.destinationAzimuthFigureOfMerit == 100)
        }

        // Stop: RSP, SESSION_STATUS_NTF(IDLE), DEVICE_STATUS_NTF(READY); no more rounds.
        try await host.send("22 01 00 04 01 00 00 00")
        try await host.expect("42 01 00 01 00", "61 02 00 06 01 00 00 00 03 00", "60 01 00 01 01")
        try await world.advance(by: 1.0)
        #expect(try await host.unread().isEmpty)
        // Ranging count: the 5 rounds since the start.
        try await host.send("22 03 00 04 01 00 00 00")
        try await host.expect("42 03 00 05 00 05 00 00 00")
        // Deinit: RSP, SESSION_STATUS_NTF(DEINIT); the session is gone.
        try await host.send("21 01 00 04 01 00 00 00")
        try await host.expect("41 01 00 01 00", "61 02 00 06 01 00 00 00 01 00")
        try await host.send("21 06 00 04 01 00 00 00")
        try await host.expect("41 06 00 02 11 01")
        await host.close()
    }

    @Test func uci20ReturnsAHandleThatEveryLaterCommandMustUse() async throws {
        let world = try world()
        defer { Task { await world.shutdown() } }
        let host = try await UWBSHost.open(world)
        try await host.reset()
        // SESSION_INIT (the specs/reference/uci.md vector): RSP with the handle 0x00010001, then
        // SESSION_STATUS_NTF(handle, INIT).
        try await host.send("21 00 00 05 04 03 02 01 00")
        try await host.expect("41 00 00 05 00 01 00 01 00", "61 02 00 06 01 00 01 00 00 00")
        // The session ID is not a token in UCI 2.0.
        try await host.send("21 06 00 04 04 03 02 01")
        try await host.expect("41 06 00 02 11 01")
        try await host.send("21 06 00 04 01 00 01 00")
        try await host.expect("41 06 00 02 00 00")
        // A second session gets the next handle; the count says two.
        try await host.send("21 00 00 05 05 00 00 00 00")
        try await host.expect("41 00 00 05 00 02 00 01 00", "61 02 00 06 02 00 01 00 00 00")
        try await host.send("21 05 00 00")
        try await host.expect("41 05 00 02 00 02")
        // The same ID twice: SESSION_DUPLICATE.
        try await host.send("21 00 00 05 05 00 00 00 00")
        try await host.expect("41 00 00 01 12")
        // Starting a session still in INIT: SESSION_NOT_CONFIGURED.
        try await host.send("22 00 00 04 01 00 01 00")
        try await host.expect("42 00 00 01 15")
        // Stopping a session that is not ACTIVE: REJECTED; an unknown token: SESSION_NOT_EXIST.
        try await host.send("22 01 00 04 01 00 01 00")
        try await host.expect("42 01 00 01 01")
        try await host.send("22 01 00 04 09 00 00 00")
        try await host.expect("42 01 00 01 11")
        // CORE_QUERY_UWBS_TIMESTAMP (2.0): world time in microseconds.
        try await world.advance(by: 1.5)
        try await host.send("20 08 00 00")
        try await host.expect("40 08 00 09 00 60 e3 16 00 00 00 00 00")
        await host.close()
    }

    @Test func aResetDropsEverySessionAndTheHandlesStartAgain() async throws {
        let world = try world()
        defer { Task { await world.shutdown() } }
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0002), peerAddress: .short(0x0001)))
        let host = try await UWBSHost.open(world)
        let token = try await host.startRanging(configs: Configs.session(controller: true, mac: 0x0001, peer: 0x0002))
        #expect(token == 0x0001_0001)
        try await world.advance(by: 0.2)
        guard case .notification(.sessionInfo) = try await host.nextMessage() else { throw TestFailure("no SESSION_INFO_NTF") }
        try await host.reset()
        try await host.send("21 05 00 00")
        try await host.expect("41 05 00 02 00 00")
        try await world.advance(by: 1)
        #expect(try await host.unread().isEmpty)
        #expect(try await host.initSession(7) == 0x0001_0001)
        await host.close()
    }

    /// Waits for `count` round records of `device` (its own measurements, in order).
    private func hostRounds(_ events: EventLog, device: VirtualUWBSDeviceID, count: Int) async throws -> [VirtualRangingRound] {
        try await events.wait { events in
            events.filter { if case .round(let round) = $0 { round.device == device } else { false } }.count >= count
        }
        return Array(await events.rounds.filter { $0.device == device }.prefix(count))
    }
}
