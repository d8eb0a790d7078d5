import LowEnergy
import NIProtocol
import Simulation
import Testing
import UCI
import UWBDevice
import NIProtocol

/// The virtual NI accessory driven byte by byte from the host's end of its data channel: its
/// answers, the FiRa session it configures on its virtual dev kit (Qorvo's derivation of TV-2),
/// and its faults.
@Suite struct VirtualNIAccessoryTests {
    /// TV-2: the shareable configuration data iOS sent (v1.1).
    private let tv2 = bytes("01 00 01 00 19 45 55 a8 5f 00 00 0b 09 06 00 10 0e c6 00 03 39 7b 28 d4 b8 d7 87 b4 64 00")

    private struct Rig {
        let world: VirtualUWBSWorld
        let accessory: VirtualNIAccessory
        let host: InMemoryDataChannel
        let transport: VirtualUWBSTransport
        var messages: AsyncStream<[UInt8]>.Iterator

        mutating func exchange(_ message: [UInt8]) async throws -> [UInt8]? {
            try await host.send(message)
            return await messages.next()
        }

        func session(_ id: UInt32) async -> VirtualSessionSnapshot? {
            await world.snapshot(transport.deviceID)?.sessions.first { $0.sessionID == id }
        }
    }

    private func rig(_ configuration: VirtualNIAccessoryConfiguration = VirtualNIAccessoryConfiguration()) async throws -> Rig {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, seed: 1, clock: .manual)
        let (host, side) = InMemoryDataChannel.makePair()
        let transport = world.makeTransport(placement: .accessory(0), name: "accessory")
        let accessory = VirtualNIAccessory(configuration: configuration, channel: side, transport: transport)
        try await accessory.start()
        return Rig(world: world, accessory: accessory, host: host, transport: transport, messages: host.messages.makeAsyncIterator())
    }

    @Test func answersInitializeWithItsACDAndStartsTheSessionItDerives() async throws {
        var rig = try await rig()
        // TV-1 with role 0 (responder): Qorvo's IDs, MAC 0x0012, drift 25 ppm.
        #expect(try await rig.exchange([0x0A]) == bytes(
            "01 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 15 01 00 01 00 3f f5 03 00 b8 0b 00 00 00 00 01 01 00 12 00 19 00"))
        #expect(try await rig.exchange([0x0B] + tv2) == [0x02])
        let session = try #require(await rig.session(0x5FA8))
        #expect(session.state == .active)
        let c = session.configuration
        #expect(c.deviceType == .controlee && c.deviceRole == .responder)
        #expect(c.deviceMACAddress == .short(0x0012) && c.destinationAddresses == [.short(0xB487)])
        #expect(c.channel == 9 && c.preambleCodeIndex == 11 && c.rangingInterval == 198)
        #expect(c.slotDuration == 3600 && c.slotsPerRangingRound == 7, "Qorvo: 1 + round / slot")
        let parameters = try #require(await rig.accessory.lastParameters)
        #expect(parameters.vendorID == 0x004C && parameters.staticSTSIV == bytes("39 7b 28 d4 b8 d7"))
        #expect(await rig.accessory.startedSessionIDs == [0x5FA8])

        #expect(try await rig.exchange([0x0C]) == [0x03])
        #expect(await rig.session(0x5FA8) == nil, "stopped and deinitialized")
        #expect(await rig.accessory.received == [.initialize, .configureAndStart, .stop])
        await rig.accessory.shutdown()
        await rig.world.shutdown()
    }

    @Test func theAndroidDialectAnswersInBigEndian() async throws {
        var rig = try await rig(VirtualNIAccessoryConfiguration(address: 0x1234))
        let answer = try #require(try await rig.exchange([0xA5]))
        #expect(answer.count == 19 && answer[0] == 0x01)
        let device = try UWBDeviceConfigData(bytes: answer.dropFirst())
        #expect(device.deviceAddress == 0x1234 && device.supportedRoles == [.controller, .controlee] && device.supportedProfileIDs == 0x0E)
        let phone = try UWBPhoneConfigData(
            sessionID: 77, preambleCodeIndex: 10, channel: 5, profileID: 1, accessoryRole: .controlee, phoneAddress: 0x0001)
        #expect(try await rig.exchange(NIMessage.androidConfigureAndStart(phone).encoded()) == [0x02])
        let session = try #require(await rig.session(77))
        #expect(session.configuration.deviceType == .controlee && session.configuration.channel == 5)
        #expect(session.configuration.rangingInterval == 240)
        await rig.accessory.shutdown()
        await rig.world.shutdown()
    }

    @Test func faultsMakeItMalformedRefusingOrSilent() async throws {
        var rig = try await rig()
        await rig.accessory.setFault(.invalidConfiguration)
        let invalid = try #require(try await rig.exchange([0x0A]))
        #expect(invalid.count == 1 + 16 + 20 && invalid[16] == 20)
        #expect {
            _ = try NIMessage(decoding: invalid, dialect: .apple)
        } throws: { error in
            (error as? NIProtocolError)?.field == "uwbConfigDataLength"
        }
        await rig.accessory.setFault(.invalidConfiguration, false)

        await rig.accessory.setFault(.refuseRestart)
        #expect(try await rig.exchange([0x0B] + tv2) == [0x02], "a new session is accepted")
        #expect(try await rig.exchange([0x0B] + tv2) == [0x03], "the same one again is refused")
        #expect(await rig.session(0x5FA8) == nil)

        await rig.accessory.setFault(.silent)
        try await rig.host.send([0x0A])
        try await rig.host.send([0x0C])
        for _ in 0..<400 where await rig.accessory.ignoredCount < 2 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await rig.accessory.ignoredCount == 2)
        await rig.accessory.setFault(.silent, false)
        #expect(try await rig.exchange([0x0C]) == [0x03], "nothing was answered while silent")
        await rig.accessory.shutdown()
        await rig.world.shutdown()
    }

    @Test func stopRangingAndLinkLossEndTheSession() async throws {
        var rig = try await rig()
        #expect(try await rig.exchange([0x0B] + tv2) == [0x02])
        await rig.accessory.stopRanging()
        #expect(await rig.messages.next() == [0x03])
        #expect(await rig.session(0x5FA8) == nil)

        #expect(try await rig.exchange([0x0B] + tv2) == [0x02])
        await rig.accessory.loseLink()
        var events = rig.host.events.makeAsyncIterator()
        #expect(await events.next() == .disconnected(reason: .connectionTimeout))
        for _ in 0..<200 where await rig.session(0x5FA8) != nil { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await rig.session(0x5FA8) == nil, "a link loss stops the session (as Qorvo does)")
        await rig.accessory.shutdown()
        await rig.world.shutdown()
    }
}
