import Simulation
import Testing
import UCI
import UWBDevice

/// The world's API: virtual peers, automatic peers, places, clocks, the `--device sim` factory.
@Suite struct UWBSWorldTests {
    @Test func peersParseFromTheCommandLineForm() throws {
        let peer = try VirtualPeer(parsing: "session=42,mac=0x0002,peer=0x0001,channel=5,preamble=9,interval=100,scenario=walk-in")
        #expect(peer.sessionID == 42)
        #expect(peer.address == .short(2))
        #expect(peer.peerAddress == .short(1))
        #expect(peer.channel == 5 && peer.preambleCodeIndex == 9 && peer.rangingInterval == 100)
        #expect(peer.deviceType == .controlee && peer.deviceRole == .responder)
        #expect(peer.scenario == .walkIn)
        #expect(peer.description == "session 42: 0x0002 -> 0x0001, channel 5, preamble 9, controlee/responder, 100 ms, scenario walk-in")
        let extended = try VirtualPeer(parsing: "session=0x10, mac=1122334455667788, peer=0102030405060708, role=initiator, type=controller")
        #expect(extended.sessionID == 16)
        #expect(extended.address == .extended(0x1122_3344_5566_7788))
        #expect(extended.deviceRole == .initiator && extended.deviceType == .controller)
        #expect(extended.sessionConfiguration.macAddressMode == .extended)
    }

    @Test(arguments: [
        ("mac=0x0002,peer=0x0001", "session= is missing"),
        ("session=42,mac=zz,peer=1", "mac \"zz\" is not a MAC address"),
        ("session=42,mac=2,peer=1,channel=7", "peer channel 7 is not a FiRa channel"),
        ("session=42,mac=2,peer=1,colour=red", "unknown key \"colour\""),
        ("session=42,mac=2,peer=2", "equals the host's"),
        ("session=42,mac=2,peer=1,role=boss", "role \"boss\" is not responder or initiator"),
        ("session=42,mac=2,peer=1,scenario=dance", "unknown scenario \"dance\""),
        ("session=42,mac=2,peer=1,session=43", "\"session\" is given twice"),
    ])
    func badPeersAreExplained(text: String, message: String) {
        let error = #expect(throws: VirtualUWBSError.self) { try VirtualPeer(parsing: text) }
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains(VirtualPeer.syntax) == true)
    }

    @Test func automaticPeersAnswerAnySession() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual, automaticPeers: true)
        defer { Task { await world.shutdown() } }
        let host = try await UWBSHost.open(world)
        _ = try await host.startRanging(session: 7, configs: Configs.session(controller: true, mac: 0x0010, peer: 0x0020, channel: 5))
        try await world.advance(by: 0.4)
        let views = try await host.unread().map { try UCISessionInfoView(packet: $0) }
        #expect(views.map { $0.measurements.first?.distance } == [200, 200])
        let devices = await world.deviceSnapshots
        #expect(devices.count == 2)
        let peer = try #require(devices.first { $0.isPeer })
        #expect(peer.sessions.first?.configuration.deviceMACAddress == .short(0x0020))
        #expect(peer.sessions.first?.configuration.channel == 5)
        #expect(peer.sessions.first?.configuration.deviceType == .controlee)
        // The peer goes with the session.
        try await host.send(.sessionDeinit(session: 0x0001_0001))
        try await host.expect("41 01 00 01 00", "61 02 00 06 01 00 01 00 01 00", "60 01 00 01 01")
        #expect(await world.deviceSnapshots.count == 1)
        await host.close()
    }

    @Test func theHostKeepsItsPlaceAcrossReconnectionsAndPeersTakeAccessories() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let first = try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(2), peerAddress: .short(1)))
        let second = try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(3), peerAddress: .short(1)))
        #expect(await world.snapshot(first)?.placement == .accessory(0))
        #expect(await world.snapshot(second)?.placement == .accessory(1))
        for _ in 0..<2 {
            let host = try await UWBSHost.open(world)
            _ = try await host.startRanging(configs: Configs.session(controller: true, mac: 1, peer: 3))
            try await world.advance(by: 0.2)
            let view = try UCISessionInfoView(packet: try await host.next())
            // Accessory 1 stands at +35°.
            #expect(abs((view.measurements.first?.azimuth.degrees ?? 0) - 35) < 0.01)
            #expect(await world.snapshot(host.deviceID)?.sceneDevice == .host)
            let truth = try await world.truth(from: host.deviceID, to: second, at: 0)
            #expect(abs(truth.azimuth - 35) < 1e-9 && abs(truth.distance - 2) < 1e-9)
            await host.close()
        }
    }

    @Test func explicitPlacesAndCustomTrajectories() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        try await world.addPeer(
            VirtualPeer(sessionID: 42, address: .short(2), peerAddress: .short(1)),
            placement: .custom("tag", .stationary(at: SceneVector(x: 3, y: 4, z: 0.8))))
        let host = try await UWBSHost.open(world, placement: .host)
        _ = try await host.startRanging(configs: Configs.session(controller: true, mac: 1, peer: 2))
        try await world.advance(by: 0.2)
        let measurement = try #require(try UCISessionInfoView(packet: try await host.next()).measurements.first)
        #expect(measurement.distance == 500)
        #expect(abs(measurement.azimuth.degrees - 36.87) < 0.01)
        await host.close()
    }

    @Test func aRealTimeWorldRangesOnItsOwn() async throws {
        let world = try VirtualUWBSWorld(scenario: .walkIn, noise: .ideal, clock: .realTime(speed: 10))
        defer { Task { await world.shutdown() } }
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(2), peerAddress: .short(1)))
        let host = try await UWBSHost.open(world)
        _ = try await host.startRanging(configs: Configs.session(controller: true, mac: 1, peer: 2))
        // At 10× a 200 ms interval is 20 ms of real time; the walk-in passes 5 m within 5 s of
        // scenario time. Wait for it rather than for a time (a loaded machine is slower).
        var distance: UInt16 = 800
        while distance > 500 {
            distance = try UCISessionInfoView(packet: try await host.next()).measurements.first?.distance ?? 800
        }
        #expect(await world.now > 4)
        let error = await #expect(throws: VirtualUWBSError.self) { try await world.advance(by: 1) }
        #expect(error?.code == .notManualClock)
        await host.close()
    }

    @Test func theDeviceSpecFactoryMapsSimToAVirtualUWBS() async throws {
        let world = try VirtualUWBSWorld(clock: .manual)
        defer { Task { await world.shutdown() } }
        let sim = try UWBDeviceTarget(parsing: "sim").makeTransport(world: world)
        #expect(sim is VirtualUWBSTransport)
        #expect(sim.name == "sim")
        let stream = try await sim.open()
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next()?.bytes == [0x60, 0x01, 0x00, 0x01, 0x01])
        await sim.close()
        let tcp = try UWBDeviceTarget(parsing: "tcp:127.0.0.1:7000").makeTransport(world: world)
        #expect(tcp is TCPTransport)
        #expect(tcp.name == "tcp:127.0.0.1:7000")
        #expect(VirtualUWBSWorld.shared.automaticPeers)
        #expect(VirtualUWBSWorld.shared.scenario == .demo)
    }

    @Test(arguments: [
        (" sim ", UWBDeviceTarget.simulator, "sim"),
        ("sim", .simulator, "sim"),
        ("usb:1915:520F@1.4", .device(.usb(vendorID: 0x1915, productID: 0x520F, bus: 1, address: 4)), "usb:1915:520f@1.4"),
        ("serial:/dev/ttyACM0", .device(.serial(path: "/dev/ttyACM0", baud: nil)), "serial:/dev/ttyACM0"),
        ("tcp:[::1]:7000", .device(.tcp(host: "::1", port: 7000)), "tcp:[::1]:7000"),
    ])
    func deviceTargetsParseSimAndEveryDeviceSpec(text: String, expected: UWBDeviceTarget, canonical: String) throws {
        let target = try UWBDeviceTarget(parsing: text)
        #expect(target == expected)
        #expect(target.description == canonical)
        #expect(try UWBDeviceTarget(parsing: target.description) == target)
    }

    /// `--device` / `--uwb` errors are the ones the CLI printed when `sim` was a UWBDevice form.
    @Test(arguments: [
        ("", "invalid device \"\": it is empty"),
        ("simulator", "invalid device \"simulator\": it has no scheme (usb:, serial:, tcp: or sim)"),
        ("s im", "invalid device \"s im\": it has no scheme (usb:, serial:, tcp: or sim)"),
        ("usb:xyz:520f", "vendor ID \"xyz\" is not a hexadecimal number"),
        ("bluetooth:00:11", "unknown scheme \"bluetooth\""),
    ])
    func deviceTargetErrorsNameEveryFormSimIncluded(text: String, fragment: String) {
        #expect(UWBDeviceTarget.forms == "usb:VID:PID[@BUS.ADDR], serial:PATH[@BAUD], tcp:HOST:PORT or sim")
        #expect {
            _ = try UWBDeviceTarget(parsing: text)
        } throws: { error in
            guard let error = error as? UWBDeviceError else { return false }
            return error.code == .invalidSpec && error.description.contains(fragment)
                && error.description.contains(
                    "Valid forms: usb:VID:PID[@BUS.ADDR], serial:PATH[@BAUD], tcp:HOST:PORT or sim; e.g. usb:1915:520f, "
                        + "serial:/dev/ttyACM0@115200, tcp:127.0.0.1:7000. `nearby uwb list` shows what is attached.")
        }
    }

    @Test func worldsAndConfigurationsRejectBadValues() async throws {
        #expect(throws: VirtualUWBSError.self) { try VirtualUWBSWorld(clock: .realTime(speed: 0)) }
        var noise = NoiseModel.default
        noise.rangeSigma = -1
        let noiseError = #expect(throws: VirtualUWBSError.self) { try VirtualUWBSWorld(noise: noise) }
        #expect(noiseError?.description.hasPrefix("noise model: rangeSigma -1") == true)
        let channels = #expect(throws: VirtualUWBSError.self) { try VirtualUWBSConfiguration(supportedChannels: [7]).validate() }
        #expect(channels?.description.contains("subset of the FiRa channels") == true)
        let world = try VirtualUWBSWorld(clock: .manual)
        let transport = world.makeTransport(configuration: VirtualUWBSConfiguration(maximumSessions: 0))
        let open = await #expect(throws: UWBDeviceError.self) { _ = try await transport.open() }
        #expect(open?.code == .invalidSpec)
        #expect(open?.description.contains("maximum sessions 0 is out of range, expected 1 ... 255") == true)
        await world.shutdown()
        let closed = await #expect(throws: UWBDeviceError.self) { _ = try await world.makeTransport().open() }
        #expect(closed?.code == .notFound)
    }
}
