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
        #expect(session.configuration.rangingInterval == 240 && session.configuration.slotsPerRangingRound == 10)
        // The MAC travels as UCI bytes: 0x1234 is sent `34 12` and programmed as is.
        #expect(Array(answer.suffix(2)) == [0x34, 0x12] && session.configuration.deviceMACAddress == .short(0x1234))

        // Config ID 2 (NXP: one-to-many, 200 ms); an ID outside NXP's table gets no answer.
        try await rig.host.send([0xA5])
        _ = await rig.messages.next()
        let two = try UWBPhoneConfigData(
            sessionID: 78, preambleCodeIndex: 10, channel: 9, profileID: 2, accessoryRole: .controlee, phoneAddress: 0x0001)
        #expect(try await rig.exchange(NIMessage.androidConfigureAndStart(two).encoded()) == [0x02])
        let oneToMany = try #require(await rig.session(78))
        #expect(oneToMany.configuration.multiNodeMode == .oneToMany && oneToMany.configuration.rangingInterval == 200)
        let unknown = try UWBPhoneConfigData(
            sessionID: 79, preambleCodeIndex: 10, channel: 9, profileID: 4, accessoryRole: .controlee, phoneAddress: 0x0001)
        try await rig.host.send(NIMessage.androidConfigureAndStart(unknown).encoded())
        try await rig.host.send([0x0C])
        #expect(await rig.messages.next() == [0x03], "nothing answered config ID 4; stop is answered")
        #expect(await rig.session(79) == nil)
        await rig.accessory.shutdown()
        await rig.world.shutdown()
    }

    /// A Qorvo-style 64-byte UWB config buffer and trailing bytes: the host's codec keeps them.
    @Test func sendsLongerConfigurationDataWhenAskedTo() async throws {
        var rig = try await rig(VirtualNIAccessoryConfiguration(extraConfigurationBytes: 43, trailingBytes: 2))
        let answer = try #require(try await rig.exchange([0x0A]))
        #expect(answer.count == 1 + 16 + 64 + 2 && answer[16] == 64)
        guard case .accessoryConfigurationData(let acd) = try NIMessage(decoding: answer, dialect: .apple) else {
            Issue.record("expected an ACD")
            return
        }
        #expect(acd.uwbConfiguration.deviceAddress == 0x0012 && acd.trailingBytes == [0xF0, 0xF1])
        #expect(acd.uwbConfiguration.byteCount == 64)
        await rig.accessory.shutdown()
        await rig.world.shutdown()
    }

    @Test func faultsMakeItMalformedOrSilent() async throws {
        var rig = try await rig()
        await rig.accessory.setFault(.invalidConfiguration)
        let invalid = try #require(try await rig.exchange([0x0A]))
        #expect(invalid.count == 1 + 16 + 12 && invalid[16] == 12)
        #expect {
            _ = try NIMessage(decoding: invalid, dialect: .apple)
        } throws: { error in
            (error as? NIProtocolError)?.field == "uwbConfigDataLength"
        }
        #expect(try await rig.exchange([0x0A]) == invalid, "every time")
        await rig.accessory.setFault(.invalidConfiguration, false)
        await rig.accessory.setFault(.invalidConfigurationOnce)
        #expect(try await rig.exchange([0x0A])?.count == 1 + 16 + 12)
        #expect(try await rig.exchange([0x0A])?.count == 38, "then a valid ACD")
        await rig.accessory.setFault(.invalidConfigurationOnce, false)

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

    /// Qorvo's `niq_reinit()` runs on initialize only: after a stop, a configureAndStart without
    /// a fresh initialize is answered 0x02 (Qorvo answers every accepted 0x0B at once) but no
    /// session starts.
    @Test func afterAStopItNeedsInitializeBeforeItRangesAgain() async throws {
        var rig = try await rig()
        #expect(try await rig.exchange([0x0A])?.first == 0x01)
        #expect(try await rig.exchange([0x0B] + tv2) == [0x02])
        #expect(await rig.session(0x5FA8)?.state == .active)
        #expect(try await rig.exchange([0x0C]) == [0x03])
        #expect(try await rig.exchange([0x0B] + tv2) == [0x02], "answered")
        #expect(await rig.session(0x5FA8) == nil, "but not started")
        #expect(await rig.accessory.staleStarts == 1)
        #expect(try await rig.exchange([0x0A])?.first == 0x01)
        #expect(try await rig.exchange([0x0B] + tv2) == [0x02])
        #expect(await rig.session(0x5FA8)?.state == .active)
        #expect(await rig.accessory.startedSessionIDs == [0x5FA8, 0x5FA8])
        await rig.accessory.shutdown()
        await rig.world.shutdown()
    }

    @Test func stopRangingAndLinkLossEndTheSession() async throws {
        var rig = try await rig()
        #expect(try await rig.exchange([0x0B] + tv2) == [0x02])
        await rig.accessory.stopRanging()
        #expect(await rig.messages.next() == [0x03])
        #expect(await rig.session(0x5FA8) == nil)

        #expect(try await rig.exchange([0x0A])?.first == 0x01, "a stopped session needs initialize")
        #expect(try await rig.exchange([0x0B] + tv2) == [0x02])
        #expect(await rig.session(0x5FA8)?.state == .active)
        await rig.accessory.loseLink()
        var events = rig.host.events.makeAsyncIterator()
        #expect(await events.next() == .disconnected(reason: .connectionTimeout))
        for _ in 0..<200 where await rig.session(0x5FA8) != nil { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await rig.session(0x5FA8) == nil, "a link loss stops the session (as Qorvo does)")
        await rig.accessory.shutdown()
        await rig.world.shutdown()
    }
}
