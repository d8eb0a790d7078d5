import Simulation
import Testing
import UCI

/// Long messages both ways: segmented commands are reassembled, long responses and
/// notifications are segmented.
@Suite struct UWBSSegmentationTests {
    @Test func aCommandInSegmentsIsReassembled() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let host = try await UWBSHost.open(world)
        try await host.reset()
        let token = try await host.initSession(42)
        let command = UCICommand.setAppConfig(session: token, configs: Configs.session(controller: true, mac: 1, peer: 2))
        let packets = try command.packets(UCISegmenter(maxControlPayloadSize: 10))
        #expect(packets.count == 4)
        #expect(packets.dropLast().allSatisfy { $0.header.moreSegmentsFollow })
        for packet in packets { try await host.send(packet.bytes) }
        try await host.expect("41 03 00 02 00 00", "61 02 00 06 01 00 01 00 03 00")
        await host.close()
    }

    @Test func anInterruptedSegmentedCommandIsDroppedWithAGenericError() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let events = EventLog(world)
        let host = try await UWBSHost.open(world)
        try await host.reset()
        let token = try await host.initSession(42)
        let packets = try UCICommand.setAppConfig(session: token, configs: Configs.session(controller: true, mac: 1, peer: 2))
            .packets(UCISegmenter(maxControlPayloadSize: 10))
        try await host.send(packets[0].bytes)
        try await host.send("21 05 00 00")
        // Both the partial SET_APP_CONFIG and the interrupting command are discarded (as AOSP):
        // CORE_GENERIC_ERROR_NTF(SYNTAX_ERROR).
        try await host.expect("60 07 00 01 03")
        try await host.send("21 05 00 00")
        try await host.expect("41 05 00 02 00 01")
        try await events.wait { $0.contains { if case .problem(_, let text) = $0 { text.contains("segment") } else { false } } }
        await host.close()
    }

    @Test func longResponsesAndNotificationsAreSegmentedToThePacketSize() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(2), peerAddress: .short(1)))
        let host = try await UWBSHost.open(world, configuration: VirtualUWBSConfiguration(maximumPacketPayload: 16))
        try await host.reset()
        try await host.send(.getCapabilities)
        let caps = try await host.readMessages(until: { $0.messageType == .response })
        let response = try #require(caps.last)
        #expect(response.payload.count > 16)
        guard case .response(.getCapabilities(.ok, let entries)) = try UCIMessage(decoding: response) else { throw TestFailure("caps") }
        #expect(try UCICapabilities(entries, version: .v2_0).channels() == [5, 9])

        let token = try await host.initSession(42)
        try await host.configure(token, Configs.session(controller: true, mac: 1, peer: 2))
        try await host.start(token)
        try await world.advance(by: 0.2)
        // 56 bytes in 16-byte segments: 4 packets, PBF on the first three.
        let packets = try await host.unread()
        #expect(packets.map { $0.bytes[0] } == [0x72, 0x72, 0x72, 0x62])
        #expect(packets.map { Int($0.bytes[3]) } == [16, 16, 16, 8])
        var reassembler = UCIReassembler()
        var message: UCIRawMessage?
        for packet in packets { message = try reassembler.append(packet) }
        let info = try UCISessionInfoView(payload: try #require(message).payload)
        #expect(info.measurements.first?.distance == 200)
        await host.close()
    }

    @Test func eightControleesMakeANotificationLongerThanOnePacket() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let host = try await UWBSHost.open(world)
        let addresses = (2...9).map { UCIMACAddress.short(UInt16($0)) }
        _ = try await host.startRanging(configs: [
            .deviceType(.controller), .deviceRole(.initiator), .multiNodeMode(.oneToMany), .rangingRoundUsage(.dsTWRDeferred),
            .scheduleMode(.timeScheduled), .deviceMACAddress(.short(1)), .numberOfControlees(8),
            .destinationMACAddresses(addresses),
        ])
        try await world.advance(by: 0.2)
        let packets = try await host.unread()
        // 25 + 8 × 31 = 273 bytes: 255 with PBF, then 18.
        #expect(packets.map { Array($0.bytes.prefix(4)) } == [[0x72, 0x00, 0x00, 0xFF], [0x62, 0x00, 0x00, 0x12]])
        var reassembler = UCIReassembler()
        _ = try reassembler.append(packets[0])
        let message = try #require(try reassembler.append(packets[1]))
        let view = try UCISessionInfoView(payload: message.payload)
        #expect(view.measurements.map(\.macAddress) == addresses)
        #expect(view.measurements.allSatisfy { $0.status == .rangingRXTimeout })
        await host.close()
    }
}
