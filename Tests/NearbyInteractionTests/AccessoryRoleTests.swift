import LowEnergy
import NearbyInteraction
import NearbyTestSupport
import NIProtocol
import Ranging
import Simulation
import Synchronization
import Testing
import UCI
import UWBDevice

/// The accessory role (``AccessoryRoleSession`` / ``AccessoryRoleManager``) on a virtual kit,
/// with raw NI messages from a test "phone", and against our own phone role on a second kit
/// in the same simulated scene.
@Suite(.serialized) struct AccessoryRoleTests {
    /// A world with the accessory's kit (the scenario's host pose, standing still) and a phone
    /// kit per scenario accessory; the accessory role on its kit.
    struct Rig {
        let world: VirtualUWBSWorld
        let kitTransport: VirtualUWBSTransport
        let kit: UCIClient
        let manager: AccessoryRoleManager
        let recorder: EventRecorder
        let profile: AccessoryRoleProfile

        static func make(scenario: Scenario = try! .stand(distance: 2), address: UInt16 = 0x0A0A,
                         layout: ConfigurationDataVersion = .v1_1) async throws -> Rig {
            let world = try VirtualUWBSWorld(scenario: scenario, noise: .ideal, seed: 3, clock: .realTime(speed: 4),
                                             logger: sessionTestLogger)
            let transport = world.makeTransport(placement: .host, name: "accessory kit")
            let kit = UCIClient(transport: transport, logger: sessionTestLogger)
            let info = try await kit.open()
            let profile = AccessoryRoleProfile(deviceInfo: info, address: address, layout: layout)
            let manager = AccessoryRoleManager(
                client: kit, configuration: AccessoryRoleConfiguration(profile: profile, ranging: fastSessionConfiguration()),
                logger: sessionTestLogger)
            return Rig(world: world, kitTransport: transport, kit: kit, manager: manager, recorder: EventRecorder(manager.events), profile: profile)
        }

        /// A raw phone: its end of a data channel whose other end is a session of the role.
        func rawPhone(_ id: String, maximumMessageLength: Int = 182) async throws -> (RawPhone, AccessoryRoleSession) {
            let (phone, accessory) = InMemoryDataChannel.makePair(maximumMessageLength: maximumMessageLength)
            let session = try await manager.add(AccessoryIdentity(id: id), channel: accessory)
            return (RawPhone(phone), session)
        }

        /// A raw phone that sent 0x0A and TV-2's 0x0B and got 0x01 and 0x02.
        func rangingPhone() async throws -> (RawPhone, AccessoryRoleSession) {
            let (phone, session) = try await rawPhone("phone-1")
            try await phone.send([0x0A])
            #expect(try await phone.next()?.first == 0x01)
            try await phone.send(NIMessage.configureAndStart(try AccessoryRoleTests.shareable()).encoded())
            #expect(try await phone.next() == [0x02])
            return (phone, session)
        }

        func shutdown() async {
            await manager.stop()
            await kit.close()
            await world.shutdown()
        }
    }

    /// The phone's end, recording what the accessory sends.
    final class RawPhone: Sendable {
        let channel: InMemoryDataChannel
        private final class Box: Sendable {
            let received = Mutex<[[UInt8]]>([])
            let read = Mutex(0)
        }
        private let box = Box()

        init(_ channel: InMemoryDataChannel) {
            self.channel = channel
            let box = box
            Task {
                for await message in channel.messages { box.received.withLock { $0.append(message) } }
            }
        }

        func send(_ message: [UInt8]) async throws { try await channel.send(message) }

        /// The next message the accessory sent, `nil` if none comes within `timeout`.
        func next(timeout: Duration = .seconds(60)) async throws -> [UInt8]? {
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: timeout)
            while clock.now < deadline {
                let index = box.read.withLock { $0 }
                if let message = box.received.withLock({ index < $0.count ? $0[index] : nil }) {
                    box.read.withLock { $0 += 1 }
                    return message
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            return nil
        }
    }

    /// TV-2's shareable data with another session ID and phone MAC.
    static func shareable(session: UInt32 = 0x5FA8, phone: UInt16 = 0xB487, channel: UInt8 = 9) throws -> ShareableConfigurationData {
        try ShareableConfigurationData(
            countryCode: RegulatoryCountryCode(first: 0x45, second: 0x55), sessionID: session, preambleCodeIndex: 11, channel: channel,
            slotsPerRound: 6, slotDurationRSTU: 3600, rangingIntervalMS: 198, staticSTSIV: [0x39, 0x7B, 0x28, 0xD4, 0xB8, 0xD7],
            phoneAddress: phone, phoneMaxClockDriftPPM: 100)
    }

    @Test("0x0A → 0x01 from the kit's profile; 0x0B → the kit's session is Qorvo's derivation of it, ACTIVE before 0x02; 0x0C → closed, 0x03")
    func initializeConfigureStop() async throws {
        let rig = try await Rig.make()
        let (phone, session) = try await rig.rawPhone("phone-1")
        try await phone.send([0x0A])
        let acd = try #require(try await phone.next())
        #expect(acd == [0x01] + rig.profile.accessoryConfigurationData().encoded())
        #expect(acd.count == 38, "ACD 1.0 with UWB config data 1.1")
        let parsed = try AccessoryConfigurationData(bytes: acd.dropFirst())
        #expect(parsed.uwbConfiguration.deviceAddress == 0x0A0A && parsed.uwbConfiguration.rangingRole == .responder)
        #expect(parsed.uwbConfiguration.maxClockDriftPPM == 25)
        #expect(parsed.uwbConfiguration.middlewareVersion == 0x0101_0000, "Qorvo's 00 00 01 01, whatever the kit's UCI version (2.0)")

        let shareable = try Self.shareable()
        try await phone.send(NIMessage.configureAndStart(shareable).encoded())
        #expect(try await phone.next() == [0x02])
        #expect(await rig.kit.sessionState(0x5FA8) == .active, "0x02 only once ACTIVE")
        let expected = NIFiRaDerivation.accessoryParameters(
            shareable: shareable, accessory: rig.profile.uwbConfigurationData(), keyByteOrder: .vendorFirst)
        #expect(await rig.kit.sessionParameters(0x5FA8) == expected)
        #expect(expected.deviceType == .controlee && expected.deviceRole == .responder)
        #expect(expected.destinationMACAddresses == [.short(0xB487)] && expected.deviceMACAddress == .short(0x0A0A))
        #expect(await session.lastInitializeAnswer != nil)
        #expect(await session.lastConfigureOwnWork != nil)
        try await rig.recorder.waitFor("ranging") { event in
            if case .state(.ranging) = event.kind { event.accessory?.id == "phone-1" } else { false }
        }

        try await phone.send([0x0C])
        #expect(try await phone.next() == [0x03])
        #expect(await rig.kit.openSessionIDs.isEmpty, "SESSION_STOP + SESSION_DEINIT")
        #expect(await session.received == [.initialize, .configureAndStart, .stop])
        #expect(rig.recorder.states(of: "phone-1") == [.idle, .initializing, .configuring, .starting(cached: false), .ranging, .idle])
        await rig.shutdown()
    }

    @Test("invalid shareable data: no 0x02, an error naming the field, the link stays up and a valid 0x0B works")
    func invalidShareableData() async throws {
        let rig = try await Rig.make()
        let (phone, session) = try await rig.rawPhone("phone-1")
        try await phone.send([0x0A])
        _ = try await phone.next()
        var bad = NIMessage.configureAndStart(try Self.shareable()).encoded()
        bad[1 + 12] = 7  // channel 7
        try await phone.send(bad)
        try await rig.recorder.waitFor("the refusal") { if case .error = $0.kind { true } else { false } }
        let error = try #require(rig.recorder.errors(of: "phone-1").first)
        #expect(error.code == .protocolViolation && error.protocolError?.field == "channel", "\(error)")
        #expect(await rig.kit.openSessionIDs.isEmpty)
        #expect(phone.channel.isConnected)
        try await phone.send(NIMessage.configureAndStart(try Self.shareable(session: 0x77)).encoded())
        #expect(try await phone.next() == [0x02], "nothing was sent for the invalid one")
        #expect(await session.refusedCount == 1)
        await rig.shutdown()
    }

    @Test("garbage, unknown IDs and the accessory's own messages are refused; nothing is sent; the other phone is served")
    func garbageIsRefused() async throws {
        let rig = try await Rig.make()
        let (bad, badSession) = try await rig.rawPhone("phone-bad")
        let (good, _) = try await rig.rawPhone("phone-good")
        for garbage: [UInt8] in [[0x42, 1, 2], [0x01] + [UInt8](repeating: 0, count: 20), [0x0A, 0xFF], [0x02], []] {
            try await bad.send(garbage)
        }
        try await good.send([0x0A])
        #expect(try await good.next()?.first == 0x01)
        try await rig.recorder.waitFor("five refusals") { _ in rig.recorder.errors(of: "phone-bad").count >= 5 }
        #expect(await badSession.refusedCount == 5)
        #expect(await badSession.received.map(\.rawValue) == [0x42, 0x02], "decodable ones are recorded; undecodable ones only counted")
        let reasons = rig.recorder.errors(of: "phone-bad").map(\.reason)
        #expect(reasons.contains { $0.contains("unknown message ID 0x42") }, "\(reasons)")
        #expect(reasons.contains { $0.contains("an accessory sends") }, "\(reasons)")
        #expect(try await bad.next(timeout: .milliseconds(300)) == nil, "nothing sent to the misbehaving phone")
        await rig.shutdown()
    }

    @Test("an MTU too small for 0x01: an error that says so, nothing truncated, and 0x03 instead of silence")
    func mtuTooSmall() async throws {
        let rig = try await Rig.make()
        let (phone, session) = try await rig.rawPhone("phone-1", maximumMessageLength: 20)
        try await phone.send([0x0A])
        #expect(try await phone.next() == [0x03], "the phone learns nothing runs")
        try await rig.recorder.waitFor("the refusal") { if case .error = $0.kind { true } else { false } }
        let error = try #require(rig.recorder.errors(of: "phone-1").first)
        #expect(error.code == .dataChannel && error.reason.contains("38 bytes") && error.reason.contains("ATT_MTU 23"), "\(error)")
        #expect(await session.state == .idle)
        await rig.shutdown()
    }

    @Test("a second initialize on a live session: the MTU check, then the old kit session stops, then 0x01; too small: stopped and 0x03")
    func initializeOnALiveSession() async throws {
        let rig = try await Rig.make()
        // Fits: the live session stops (STOP + DEINIT) before the answer.
        let (phone, _) = try await rig.rangingPhone()
        #expect(await rig.kit.openSessionIDs == [0x5FA8])
        try await phone.send([0x0A])
        #expect(try await phone.next()?.first == 0x01)
        #expect(await rig.kit.openSessionIDs.isEmpty)
        // Does not fit: an Android session (its 0x01 is 19 bytes) on a 20-byte link, then 0x0A.
        let (android, session) = try await rig.rawPhone("android", maximumMessageLength: 20)
        try await android.send([0xA5])
        #expect(try await android.next()?.count == 19)
        let config = try UWBPhoneConfigData(sessionID: 77, preambleCodeIndex: 10, channel: 9, profileID: 1, accessoryRole: .controlee,
                                            phoneAddress: 0x0102)
        try await android.send(NIMessage.androidConfigureAndStart(config).encoded())
        #expect(try await android.next() == [0x02])
        try await android.send([0x0A])
        #expect(try await android.next() == [0x03], "never silence")
        #expect(await rig.kit.openSessionIDs.isEmpty)
        #expect(await session.state == .idle)
        #expect(rig.recorder.errors(of: "android").contains { $0.code == .dataChannel })
        await rig.shutdown()
    }

    @Test("Qorvo's 0x20 / 0x21 (ble_niq.c): 0x20 answers the device parameters, 0x21 answers 0x22 ok / bad length / bad version; a session shows in 0x20")
    func qorvoDeviceParameters() async throws {
        let rig = try await Rig.make()
        let (phone, session) = try await rig.rawPhone("phone-1")
        try await phone.send([0x20])
        let defaults = QorvoDeviceParameters(sourceAddress: 0x0A0A)
        #expect(try await phone.next() == [0x20] + defaults.encoded(), "Qorvo's defaults with this accessory's address")
        var wanted = defaults
        wanted.channel = 5
        wanted.sessionID = 0x1234_5678
        try await phone.send(NIMessage.setDeviceStruct(wanted).encoded())
        #expect(try await phone.next() == [0x22, 0x00])
        try await phone.send([0x21] + wanted.encoded() + [0x00])
        #expect(try await phone.next() == [0x22, 0x01], "34 bytes or bad length")
        var other = wanted
        other.version = 2
        try await phone.send(NIMessage.setDeviceStruct(other).encoded())
        #expect(try await phone.next() == [0x22, 0x02], "version 1 or bad version")
        try await phone.send([0x20, 0xFF])
        #expect(try await phone.next() == [0x20] + wanted.encoded(), "the payload of 0x20 is ignored; the set values are kept")
        // A session the kit runs is what 0x20 reports next (Qorvo's firmware writes it into the same structure).
        try await phone.send([0x0A])
        _ = try await phone.next()
        try await phone.send(NIMessage.configureAndStart(try Self.shareable()).encoded())
        #expect(try await phone.next() == [0x02])
        try await phone.send([0x20])
        let answer = try #require(try await phone.next())
        let reported = try QorvoDeviceParameters(bytes: answer.dropFirst())
        #expect(reported.sessionID == 0x5FA8 && reported.channel == 9 && reported.preambleCode == 11 && reported.role == 0)
        #expect(reported.sourceAddress == 0x0A0A && reported.destinationAddress == 0xB487 && reported.slotDurationRSTU == 3600)
        #expect(reported.blockDurationMS == 198 && reported.roundDurationRSTU == 3600 * 7, "Qorvo's 1 + 6 round slots")
        #expect(await session.refusedCount == 0)
        await rig.shutdown()
    }

    @Test("a phone that connects again while its session still runs replaces it: the old kit session stops, the new one answers")
    func reconnectReplaces() async throws {
        let rig = try await Rig.make()
        let (old, oldSession) = try await rig.rangingPhone()
        #expect(await rig.kit.openSessionIDs == [0x5FA8])
        // The same phone on a new link, before the old link's end was noticed; it writes at once.
        let (phone, accessory) = InMemoryDataChannel.makePair()
        let raw = RawPhone(phone)
        try await raw.send([0x0A])
        let session = try await rig.manager.add(AccessoryIdentity(id: "phone-1"), channel: accessory)
        #expect(await oldSession.state == .stopped, "stopped and closed")
        #expect(!old.channel.isConnected)
        #expect(try await raw.next()?.first == 0x01, "the early 0x0A waited in the new channel")
        try await raw.send(NIMessage.configureAndStart(try Self.shareable()).encoded())
        #expect(try await raw.next() == [0x02], "the same session ID starts again: the old one was deinitialized")
        #expect(await rig.kit.openSessionIDs == [0x5FA8])
        #expect(await rig.manager.replacedSessions == 1)
        #expect(await rig.manager.session(for: "phone-1") === session)
        await rig.shutdown()
    }

    @Test("the phone disconnecting stops and deinitializes its session; the session ends")
    func disconnectionStops() async throws {
        let rig = try await Rig.make()
        let (phone, session) = try await rig.rangingPhone()
        await phone.channel.close()
        #expect(await session.waitUntilFinished() == .stopped)
        #expect(await rig.kit.openSessionIDs.isEmpty)
        await rig.shutdown()
    }

    @Test("the kit stopping the session on its own (SESSION_STATUS_NTF(IDLE, 0x01)) sends 0x03 and deinitializes")
    func kitStopSends0x03() async throws {
        let rig = try await Rig.make()
        let (phone, session) = try await rig.rangingPhone()
        try await rig.world.inject(.stopSession(id: 0x5FA8), into: rig.kitTransport.deviceID)
        #expect(try await phone.next() == [0x03])
        #expect(await rig.kit.openSessionIDs.isEmpty)
        #expect(rig.recorder.errors(of: "phone-1").contains { $0.code == .uwb }, "reported")
        #expect(await session.runningSessionID == nil)
        await rig.shutdown()
    }

    @Test("Android: 0xA5 → 18-byte UwbDeviceConfigData; 0x0B (14 bytes) → NXP's session for the config ID, 0x02")
    func androidDialect() async throws {
        let rig = try await Rig.make()
        let (phone, _) = try await rig.rawPhone("android")
        try await phone.send([0xA5])
        let answer = try #require(try await phone.next())
        #expect(answer.count == 19)
        let device = try UWBDeviceConfigData(bytes: answer.dropFirst())
        #expect(device.deviceAddress == 0x0A0A && device.supportedProfileIDs == 0x0E)
        let config = try UWBPhoneConfigData(sessionID: 99, preambleCodeIndex: 10, channel: 9, profileID: 1, accessoryRole: .controlee,
                                            phoneAddress: 0x0102)
        try await phone.send(NIMessage.androidConfigureAndStart(config).encoded())
        #expect(try await phone.next() == [0x02])
        let parameters = try #require(await rig.kit.sessionParameters(99))
        #expect(parameters.deviceType == .controlee && parameters.slotsPerRangingRound == 10 && parameters.rangingInterval == 240)
        await rig.shutdown()
    }

    @Test("our phone role and our accessory role range with each other: both ends get distances")
    func bothRolesRange() async throws {
        let rig = try await Rig.make()
        let phoneKit = UCIClient(transport: rig.world.makeTransport(placement: .accessory(0), name: "phone kit"), logger: sessionTestLogger)
        try await phoneKit.open()
        let phones = NearbySessionManager(client: phoneKit, configuration: fastSessionConfiguration(), logger: sessionTestLogger)
        let phoneEvents = EventRecorder(phones.events)
        let (phoneEnd, accessoryEnd) = InMemoryDataChannel.makePair()
        try await rig.manager.add(AccessoryIdentity(id: "phone-1"), channel: accessoryEnd)
        try await phones.add(AccessoryIdentity(id: "accessory"), channel: phoneEnd)
        let seenByAccessory = try await rig.recorder.waitForUpdates(5, of: "phone-1")
        let seenByPhone = try await phoneEvents.waitForUpdates(5, of: "accessory")
        #expect(seenByAccessory.suffix(3).allSatisfy { abs(($0.distance ?? 0) - 2) < 0.05 }, "\(seenByAccessory.map(\.distance))")
        #expect(seenByPhone.suffix(3).allSatisfy { abs(($0.distance ?? 0) - 2) < 0.05 })
        let plan = try #require(phoneEvents.configurations(of: "accessory").first?.0)
        let ours = try #require(await rig.kit.sessionParameters(plan.sessionID))
        #expect(ours.destinationMACAddresses == [plan.hostParameters.deviceMACAddress], "the accessory ranges with the phone's MAC")
        await phones.stop()
        await phoneKit.close()
        await rig.shutdown()
    }
}
