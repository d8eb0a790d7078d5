import Simulation
import Testing
import UCI

/// Commands of the virtual UWBS one by one: exact responses, refusals and their statuses.
@Suite struct UWBSCommandTests {
    private func open(
        _ configuration: VirtualUWBSConfiguration = .default
    ) async throws -> (VirtualUWBSWorld, UWBSHost) {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        let host = try await UWBSHost.open(world, configuration: configuration)
        if configuration.requiresReset { try await host.reset() }
        return (world, host)
    }

    @Test(arguments: [
        ("2f 01 00 00", "4f 01 00 01 07"),  // GID 0xF (vendor): UNKNOWN_GID
        ("29 05 00 02 01 02", "49 05 00 01 07"),  // GID 0x9 (vendor)
        ("23 00 00 00", "43 00 00 01 07"),  // GID 3 (UCI 1.1 data control)
        ("2d 00 00 00", "4d 00 00 01 07"),  // GID 0xD (test)
        ("20 3f 00 00", "40 3f 00 01 08"),  // CORE, OID 0x3F: UNKNOWN_OID
        ("21 0e 00 00", "41 0e 00 01 08"),  // SESSION_CONFIG, OID 0x0E
        ("22 02 00 00", "42 02 00 01 08"),  // SESSION_CONTROL, OID 0x02
        ("2c 00 00 00", "4c 00 00 01 08"),  // ANDROID_GET_POWER_STATS: not implemented
        ("21 00 00 02 01 02", "41 00 00 01 03"),  // SESSION_INIT with 2 bytes: SYNTAX_ERROR
        ("22 00 00 05 01 00 01 00 07", "42 00 00 01 03"),  // SESSION_START with a trailing byte
        ("21 03 00 03 01 00 01", "41 03 00 02 03 00"),  // SET_APP_CONFIG without a list
        ("20 00 00 01 05", "40 00 00 01 04"),  // reset configuration 5: INVALID_PARAM
        ("21 00 00 05 01 00 00 00 a0", "41 00 00 01 04"),  // CCC session type: INVALID_PARAM
        ("2c 01 00 02 55 53", "4c 01 00 01 00"),  // ANDROID_SET_COUNTRY_CODE "US"
    ])
    func commandsGetTheirExactResponse(command: String, response: String) async throws {
        let (world, host) = try await open()
        try await host.send(command)
        try await host.expect(response)
        #expect(try await host.unread().isEmpty)
        await host.close()
        await world.shutdown()
    }

    @Test func uci11HasNoTimestampCommandAndAnswersInThe11Forms() async throws {
        let (world, host) = try await open(VirtualUWBSConfiguration(uciVersion: .v1_1, requiresReset: false))
        try await host.send("20 08 00 00")
        try await host.expect("40 08 00 01 08")
        // Device info: UCI 1.1, MAC 1.1, PHY 1.1, test 1.0, vendor "nearby virtual UWBS".
        try await host.send("20 02 00 00")
        try await host.expect("40 02 00 1d 00 01 10 01 10 01 10 01 00 13 6e 65 61 72 62 79 20 76 69 72 74 75 61 6c 20 55 57 42 53")
        await host.close()
        await world.shutdown()
    }

    @Test func deviceInfoAndCapabilitiesFollowTheVersion() async throws {
        for version in [UCIVersion.v1_1, .v2_0] {
            let (world, host) = try await open(VirtualUWBSConfiguration(uciVersion: version, supportedChannels: [5, 9]))
            try await host.send(.getDeviceInfo)
            guard case .response(.getDeviceInfo(.ok, let info)) = try await host.nextMessage() else { throw TestFailure("device info") }
            #expect(info.uciVersion == version)
            #expect(String(decoding: info.vendorInfo, as: UTF8.self) == "nearby virtual UWBS")
            try await host.send(.getCapabilities)
            guard case .response(.getCapabilities(.ok, let entries)) = try await host.nextMessage() else { throw TestFailure("caps") }
            let caps = UCICapabilities(entries, version: version)
            #expect(try caps.channels() == [5, 9])
            #expect(try caps.deviceRoles() == [.responder, .initiator])
            #expect(try caps.multiNodeModes() == [.unicast, .oneToMany])
            #expect(try caps.rframeConfigs() == [.sp0, .sp1, .sp3])
            #expect(try caps.maxDataPacketPayloadSize() == 255)
            #expect(try caps.maxMessageSize() == 1024)
            #expect(try caps.supportsExtendedMACAddress() == true)
            #expect(try caps.aoa() == [.azimuth90, .elevation, .figureOfMerit])
            #expect(try caps.rangingMethods() == [.ssTWRDeferred, .dsTWRDeferred, .ssTWRNonDeferred, .dsTWRNonDeferred])
            // UCI 1.1 numbers the maximum data payload 0x13, UCI 2.0 0x01.
            #expect(entries.contains { $0.id == (version == .v1_1 ? 0x13 : 0x01) && $0.value == [0xFF, 0x00] })
            await host.close()
            await world.shutdown()
        }
    }

    @Test func deviceConfigurationCanBeReadAndLowPowerModeSet() async throws {
        let (world, host) = try await open()
        try await host.send("20 05 00 01 00")
        try await host.expect("40 05 00 08 00 02 00 01 01 01 01 01")
        try await host.send("20 04 00 04 01 01 01 00")
        try await host.expect("40 04 00 02 00 00")
        try await host.send("20 05 00 02 01 01")
        try await host.expect("40 05 00 05 00 01 01 01 00")
        // DEVICE_STATE is read-only, LOW_POWER_MODE 2 out of range, 0x55 unknown; nothing applied.
        try await host.send("20 04 00 0a 03 00 01 01 01 01 02 55 01 00")
        try await host.expect("40 04 00 08 04 03 00 09 01 05 55 04")
        try await host.send("20 05 00 02 01 01")
        try await host.expect("40 05 00 05 00 01 01 01 00")
        try await host.send("20 05 00 02 01 55")
        try await host.expect("40 05 00 02 04 00")
        await host.close()
        await world.shutdown()
    }

    @Test func theSessionLimitAnswersMaxSessions() async throws {
        let (world, host) = try await open(VirtualUWBSConfiguration(maximumSessions: 2))
        _ = try await host.initSession(1)
        _ = try await host.initSession(2)
        try await host.send("21 00 00 05 03 00 00 00 00")
        try await host.expect("41 00 00 01 14")
        try await host.send("21 01 00 04 01 00 01 00")
        try await host.expect("41 01 00 01 00", "61 02 00 06 01 00 01 00 01 00")
        #expect(try await host.initSession(3) == 0x0001_0003)
        await host.close()
        await world.shutdown()
    }

    @Test(arguments: [
        // CHANNEL_NUMBER 6 is a FiRa channel, but the radio does channels 5 and 9 only.
        ([UCIAppConfig.channelNumber(6)], "41 03 00 04 04 01 04 05"),
        // RANGING_DURATION with 2 bytes (an old header's length): INVALID_PARAM.
        ([.other(id: .rangingDuration, value: [0xC8, 0x00])], "41 03 00 04 04 01 09 04"),
        // A reserved identifier.
        ([.other(id: UCIAppConfigID(rawValue: 0x60), value: [1])], "41 03 00 04 04 01 60 04"),
        // 20 ms is shorter than 25 slots of 2 ms: RANGING_DURATION out of range.
        ([.rangingDuration(milliseconds: 20)], "41 03 00 04 04 01 09 05"),
        // UCI 2.0 takes the 8-byte UWB_INITIATION_TIME only.
        ([.uwbInitiationTime(.relative(milliseconds: 5))], "41 03 00 04 04 01 2b 04"),
        // An extended address mode with the short DEVICE_MAC_ADDRESS of the set (the address,
        // set in the same command, is blamed).
        ([.macAddressMode(.extended)], "41 03 00 04 04 01 06 04"),
        // Two peers in a unicast session.
        ([.destinationMACAddresses([.short(2), .short(3)])], "41 03 00 04 04 01 07 04"),
        // Preamble 13 and SP2 are not valid values.
        ([.preambleCodeIndex(13), .rframeConfig(.sp2)], "41 03 00 06 04 02 14 05 12 05"),
    ])
    func badParametersAreNamedAndNothingIsApplied(bad: [UCIAppConfig], response: String) async throws {
        let (world, host) = try await open()
        let token = try await host.initSession(42)
        try await host.send(.setAppConfig(session: token, configs: Configs.session(controller: true, mac: 1, peer: 2) + bad))
        try await host.expect(response)
        // The session is still in INIT, its channel the default.
        try await host.send(.getSessionState(session: token))
        try await host.expect("41 06 00 02 00 00")
        try await host.send(.getAppConfig(session: token, ids: [.channelNumber]))
        try await host.expect("41 04 00 05 00 01 04 01 09")
        await host.close()
        await world.shutdown()
    }

    @Test func aSessionCanBeReconfiguredInIdleButOnlyItsReportingWhileActive() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(2), peerAddress: .short(1)))
        let host = try await UWBSHost.open(world)
        try await host.reset()
        let token = try await host.initSession(42)
        try await host.configure(token, Configs.session(controller: true, mac: 1, peer: 2, channel: 5))
        // In IDLE any parameter may change (no status notification: the state stays IDLE).
        try await host.send(.setAppConfig(session: token, configs: [.channelNumber(9)]))
        try await host.expect("41 03 00 02 00 00")
        try await host.start(token)
        // While ACTIVE: the channel is refused with SESSION_ACTIVE, the interval accepted.
        try await host.send(.setAppConfig(session: token, configs: [.channelNumber(5), .rangingDuration(milliseconds: 100)]))
        try await host.expect("41 03 00 04 13 01 04 13")
        try await host.send(.setAppConfig(session: token, configs: [.rangingDuration(milliseconds: 100)]))
        try await host.expect("41 03 00 02 00 00")
        try await world.advance(by: 1)
        let notifications = try await host.unread().filter { $0.header.isUnsegmentedSessionInfo }
        #expect(notifications.count == 10)
        #expect(notifications.allSatisfy { $0.bytes[13] == 100 })
        await host.close()
    }

    @Test func getAppConfigReturnsValuesDefaultsAndEverything() async throws {
        let (world, host) = try await open()
        let token = try await host.initSession(42)
        // A mandatory parameter that is not set has no value.
        try await host.send(.getAppConfig(session: token, ids: [.deviceType]))
        try await host.expect("41 04 00 02 04 00")
        try await host.configure(token, Configs.session(controller: true, mac: 0x0001, peer: 0x0002, extra: [.stsConfig(.dynamicSTS)]))
        try await host.send(.getAppConfig(session: token, ids: [.deviceMACAddress, .stsConfig, .sfdID]))
        guard case .response(.getAppConfig(.ok, let values)) = try await host.nextMessage() else { throw TestFailure("get") }
        #expect(values == [.deviceMACAddress(.short(1)), .stsConfig(.dynamicSTS), .sfdID(2)])
        // An empty list: every parameter with a value, ordered by identifier.
        try await host.send(.getAppConfig(session: token, ids: []))
        guard case .response(.getAppConfig(.ok, let all)) = try await host.nextMessage() else { throw TestFailure("get all") }
        #expect(all.map(\.id.rawValue) == all.map(\.id.rawValue).sorted())
        #expect(all.contains(.farProximity(centimeters: 20000)))
        #expect(all.contains(.deviceRole(.initiator)))
        #expect(all.count == VirtualSessionConfiguration.defaults.count + 7)
        try await host.send(.getAppConfig(session: 99, ids: []))
        try await host.expect("41 04 00 02 11 00")
        await host.close()
        await world.shutdown()
    }

    @Test func theMulticastListOfAOneToManyControllerCanChange() async throws {
        let (world, host) = try await open()
        let token = try await host.initSession(42)
        try await host.configure(token, [
            .deviceType(.controller), .deviceRole(.initiator), .multiNodeMode(.oneToMany), .rangingRoundUsage(.dsTWRDeferred),
            .scheduleMode(.timeScheduled), .deviceMACAddress(.short(1)), .destinationMACAddresses([.short(2)]),
        ])
        // Add 0x0003: RSP OK (2.0: no failed controlees), NTF (2.0 form) with its status.
        try await host.send(.updateMulticastList(session: token, action: .add, controlees: [UCIControlee(shortAddress: 3)]))
        try await host.expect("41 07 00 02 00 00", "61 07 00 08 01 00 01 00 01 03 00 00")
        // Remove 0x0009 (not there) and 0x0002.
        try await host.send(
            .updateMulticastList(session: token, action: .remove, controlees: [UCIControlee(shortAddress: 9), UCIControlee(shortAddress: 2)]))
        try await host.expect("41 07 00 05 02 01 09 00 07", "61 07 00 0b 01 00 01 00 02 09 00 07 02 00 00")
        try await host.send(.getAppConfig(session: token, ids: [.destinationMACAddresses, .numberOfControlees]))
        try await host.expect("41 04 00 09 00 02 07 02 03 00 05 01 01")
        // A unicast session has no multicast list.
        let unicast = try await host.initSession(43)
        try await host.configure(unicast, Configs.session(controller: true, mac: 1, peer: 2))
        try await host.send(.updateMulticastList(session: unicast, action: .add, controlees: [UCIControlee(shortAddress: 3)]))
        try await host.expect("41 07 00 02 01 00")
        await host.close()
        await world.shutdown()
    }

    @Test func withoutTheResetRequirementCommandsWorkAtOnce() async throws {
        let (world, host) = try await open(VirtualUWBSConfiguration(requiresReset: false))
        try await host.send("21 05 00 00")
        try await host.expect("41 05 00 02 00 00")
        await host.close()
        await world.shutdown()
    }

    @Test func responsesAndNotificationsFromTheHostAreIgnoredAndReported() async throws {
        let (world, host) = try await open()
        let events = EventLog(world)
        try await host.send("40 00 00 01 00")
        try await host.send("60 01 00 01 01")
        // UCI 2.0 data: DATA_MESSAGE_SND is refused with a transfer status (no data transfer).
        try await host.send("01 00 12 00 01 00 01 00 02 00 00 00 00 00 00 00 07 00 02 00 aa bb")
        try await host.expect("62 05 00 08 01 00 01 00 07 00 05 00")
        #expect(try await host.unread().isEmpty)
        try await events.wait { events in
            events.filter { if case .problem = $0 { true } else { false } }.count >= 3
        }
        let problems = await events.events.compactMap { event -> String? in if case .problem(_, let text) = event { text } else { nil } }
        #expect(problems[0].contains("ignored CORE_DEVICE_RESET_RSP"))
        #expect(problems[1].contains("ignored CORE_DEVICE_STATUS_NTF"))
        #expect(problems[2].contains("does not transfer application data"))
        await host.close()
        await world.shutdown()
    }
}

/// The device state machine on its own: packets in, packets and state changes out, no world.
@Suite struct UWBSStateMachineTests {
    @Test func packetsInPacketsAndChangesOut() throws {
        var uwbs = VirtualUWBS(configuration: VirtualUWBSConfiguration(uciVersion: .v1_1))
        #expect(uwbs.awaitingReset)
        #expect(uwbs.powerOn().packets.map(\.bytes) == [bytes("60 01 00 01 01")])
        var reaction = uwbs.receive(bytes("21 05 00 00"), at: 0)
        #expect(reaction.packets.map(\.bytes) == [bytes("60 01 00 01 ff")])
        #expect(reaction.deviceStates == [.error])
        reaction = uwbs.receive(bytes("20 00 00 01 00"), at: 0)
        #expect(reaction.packets.map(\.bytes) == [bytes("40 00 00 01 00"), bytes("60 01 00 01 01")])
        #expect(!uwbs.awaitingReset && uwbs.deviceState == .ready)
        reaction = uwbs.receive(bytes("21 00 00 05 07 00 00 00 00"), at: 0)
        #expect(reaction.packets.map(\.bytes) == [bytes("41 00 00 01 00"), bytes("61 02 00 06 07 00 00 00 00 00")])
        #expect(reaction.sessionChanges == [VirtualSessionChange(sessionID: 7, token: 7, state: .initialized, reason: .stateChangeWithSessionManagementCommands)])
        let configure = try UCICommand.setAppConfig(session: 7, configs: Configs.session(controller: false, mac: 2, peer: 1)).packets()[0].bytes
        reaction = uwbs.receive(configure, at: 0)
        #expect(reaction.sessionChanges.map(\.state) == [.idle])
        reaction = uwbs.receive(bytes("22 00 00 04 07 00 00 00"), at: 1)
        #expect(reaction.sessionChanges.map(\.description) == ["session 7 ACTIVE"])
        #expect(reaction.deviceStates == [.active])
        #expect(uwbs.sessionSnapshots.map(\.state) == [.active])
        #expect(uwbs.sessionSnapshots.first?.configuration.deviceMACAddress == .short(2))
        reaction = try uwbs.stopSession(id: 7, reason: .maxRangingRoundRetryCountReached)
        #expect(reaction.packets.map(\.bytes) == [bytes("61 02 00 06 07 00 00 00 03 01"), bytes("60 01 00 01 01")])
        #expect(reaction.sessionChanges.map(\.description) == ["session 7 IDLE (MAX_RANGING_ROUND_RETRY_COUNT_REACHED (0x01))"])
    }
}

/// The virtual UWBS as an NXP SR1xx that needs its board configuration first.
@Suite struct UWBSBoardConfigurationTests {
    @Test func everyCommandButTheBoardConfigurationIsRefusedUntilItComes() throws {
        var uwbs = VirtualUWBS(configuration: VirtualUWBSConfiguration(needsBoardConfiguration: true))
        #expect(uwbs.powerOn().packets.map(\.bytes) == [[0x60, 0x01, 0x00, 0x01, 0x00]])
        #expect(uwbs.receive([0x20, 0x00, 0x00, 0x01, 0x00], at: 0).packets.map(\.bytes) == [[0x40, 0x00, 0x00, 0x01, 0x01]], "reset: REJECTED")
        let configured = uwbs.receive([0x2E, 0x00, 0x00, 0x02, 0x01, 0x01], at: 0).packets.map(\.bytes)
        #expect(configured == [[0x4E, 0x00, 0x00, 0x01, 0x00], [0x60, 0x01, 0x00, 0x01, 0x01]])
        let reset = uwbs.receive([0x20, 0x00, 0x00, 0x01, 0x00], at: 0).packets.map(\.bytes)
        #expect(reset.first == [0x40, 0x00, 0x00, 0x01, 0x00], "then it resets as usual: \(reset)")
    }
}
