import Ranging
import Simulation
import Testing
import UCI

/// Ranging between devices of one world: pairing rules, the scene's truth in the
/// notifications, Q9.7 angles, dropouts, RX timeouts and MAX_RR_RETRY.
@Suite struct UWBSRangingTests {
    /// The SESSION_INFO_NTF views among `packets`.
    private func infos(_ packets: [UCIPacket]) throws -> [UCISessionInfoView] {
        try packets.filter(\.header.isUnsegmentedSessionInfo).map { try UCISessionInfoView(packet: $0) }
    }

    @Test func twoUCIDevicesRangeAndShareEachRound() async throws {
        let world = try VirtualUWBSWorld(scenario: .walkIn, noise: .default, seed: 3, clock: .manual)
        defer { Task { await world.shutdown() } }
        let events = EventLog(world)
        let controller = try await UWBSHost.open(world)
        let controlee = try await UWBSHost.open(world)
        _ = try await controller.startRanging(configs: Configs.session(controller: true, mac: 0x0001, peer: 0x0002, interval: 100))
        _ = try await controlee.startRanging(configs: Configs.session(controller: false, mac: 0x0002, peer: 0x0001, interval: 100))

        try await world.advance(by: 5)
        let mine = try infos(try await controller.unread())
        let theirs = try infos(try await controlee.unread())
        #expect(mine.count == 50)
        #expect(theirs.count == 50)
        let truths = await events.rounds.filter { $0.device == controller.deviceID }
        #expect(truths.count == 50)
        var valid = 0
        for (index, (a, b)) in zip(mine, theirs).enumerated() {
            let ma = try #require(a.measurements.first)
            let mb = try #require(b.measurements.first)
            #expect(ma.macAddress == .short(0x0002))
            #expect(mb.macAddress == .short(0x0001))
            // One exchange: the same outcome and distance on both sides.
            #expect(ma.status == mb.status)
            #expect(ma.distance == mb.distance)
            let truth = try #require(truths[index].measurement)
            #expect(truths[index].peerDevice == controlee.deviceID)
            guard ma.isValid else {
                #expect(ma.status == .rangingRXTimeout)
                continue
            }
            valid += 1
            // Walk-in: 8 m for 2 s, then 1 m/s (the scenario's clock starts at the first round);
            // the noise is centimetres, NLoS bursts a few decimetres, outliers are flagged.
            if !truth.isOutlier { #expect(abs(Double(ma.distance) / 100 - truth.truth.distance) < 1.5) }
            let scenarioTime = 0.1 * Double(index)
            #expect(abs(truth.truth.distance - (scenarioTime < 2 ? 8 : 8 - (scenarioTime - 2))) < 0.02)
            #expect(truths[index].sceneTime.map { abs($0 - scenarioTime) < 1e-9 } == true)
        }
        #expect(valid >= 45)
        let placed = await events.events.compactMap { event -> String? in
            if case .devicePlaced(let id, let scene) = event { "\(id)=\(scene)" } else { nil }
        }
        #expect(placed == ["\(controller.deviceID)=host", "\(controlee.deviceID)=accessory-1"])
        await controller.close()
        await controlee.close()
    }

    @Test(arguments: [
        ("channel", Configs.session(controller: false, mac: 0x0002, peer: 0x0001, channel: 5), "CHANNEL_NUMBER 9 vs 5"),
        ("preamble", Configs.session(controller: false, mac: 0x0002, peer: 0x0001, preamble: 11), "PREAMBLE_CODE_INDEX 10 vs 11"),
        ("same role", Configs.session(controller: true, mac: 0x0002, peer: 0x0001), "both are DEVICE_TYPE CONTROLLER (0x01)"),
        ("DST list", Configs.session(controller: false, mac: 0x0002, peer: 0x0009), "0x0001 is not in the peer's DST_MAC_ADDRESS list [0x0009]"),
    ])
    func mismatchedSessionsDoNotRange(name: String, peerConfigs: [UCIAppConfig], reason: String) async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let events = EventLog(world)
        let a = try await UWBSHost.open(world)
        let b = try await UWBSHost.open(world)
        _ = try await a.startRanging(configs: Configs.session(controller: true, mac: 0x0001, peer: 0x0002))
        _ = try await b.startRanging(configs: peerConfigs)
        try await world.advance(by: 1)
        let packets = try await a.unread()
        let views = try infos(packets)
        #expect(views.count == 5, "\(name)")
        for view in views {
            let measurement = try #require(view.measurements.first)
            #expect(measurement.macAddress == .short(0x0002))
            #expect(measurement.status == .rangingRXTimeout)
            #expect(measurement.distance == 0 && measurement.azimuth.rawValue == 0 && measurement.rssi == 0)
        }
        // The other side hears nothing either.
        let other = try infos(try await b.unread())
        #expect(other.count == 5)
        #expect(other.allSatisfy { $0.measurements.first?.status == .rangingRXTimeout })
        let explanations = await events.events.compactMap { event -> String? in
            if case .cannotRange(_, 42, _, _, let why) = event { why } else { nil }
        }
        #expect(explanations.contains { $0.contains(reason) }, "\(explanations)")
        await a.close()
        await b.close()
    }

    @Test func anglesAreQ97AndMatchTheSceneGeometryExactly() async throws {
        let world = try VirtualUWBSWorld(scenario: .randomWalk, noise: .ideal, seed: 11, clock: .manual)
        defer { Task { await world.shutdown() } }
        let events = EventLog(world)
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0002), peerAddress: .short(0x0001), rangingInterval: 100))
        let host = try await UWBSHost.open(world)
        _ = try await host.startRanging(configs: Configs.session(controller: true, mac: 0x0001, peer: 0x0002, interval: 100))
        try await world.advance(by: 60)
        let views = try infos(try await host.unread())
        #expect(views.count == 600)
        let rounds = await events.rounds.filter { $0.device == host.deviceID }
        #expect(rounds.count == 600)
        var rear = 0
        var left = 0
        var right = 0
        for (view, round) in zip(views, rounds) {
            let measurement = try #require(view.measurements.first)
            let truth = try #require(round.measurement?.truth)
            // Q9.7: raw = degrees × 128, rounded; the decoder's degrees are raw / 128.
            #expect(measurement.azimuth.rawValue == Int16((truth.azimuth * 128).rounded()))
            #expect(measurement.elevation.rawValue == Int16((truth.elevation * 128).rounded()))
            #expect(abs(measurement.azimuth.degrees - truth.azimuth) <= 1.0 / 256 + 1e-12)
            #expect(measurement.distance == UInt16((truth.distance * 100).rounded()))
            var sample: RangeSample?
            try UCISessionInfoView(packet: UCIPacket(bytes: try view.packetBytes())).forEachSample(timestamp: 0) { sample = $0.sample }
            #expect(sample?.azimuth == measurement.azimuth.degrees)
            if abs(truth.azimuth) > 90 { rear += 1 }
            if truth.azimuth < -10 { left += 1 }
            if truth.azimuth > 10 { right += 1 }
        }
        // The walk goes all around the host: both signs and the rear are exercised.
        #expect(rear > 0 && left > 0 && right > 0, "rear \(rear), left \(left), right \(right)")
        await host.close()
    }

    @Test func dropoutsAreRXTimeoutsWithNoValues() async throws {
        var noise = NoiseModel.ideal
        noise.dropoutProbability = 1
        let world = try VirtualUWBSWorld(scenario: .stand, noise: noise, clock: .manual)
        defer { Task { await world.shutdown() } }
        let events = EventLog(world)
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0002), peerAddress: .short(0x0001)))
        let host = try await UWBSHost.open(world)
        _ = try await host.startRanging(configs: Configs.session(controller: true, mac: 0x0001, peer: 0x0002))
        try await world.advance(by: 0.2)
        // Header (sequence 0, handle 0x00010001, 200 ms, TWR, short addresses, N = 1), then the
        // measurement: MAC 0x0002, status RX_TIMEOUT, every value 0.
        try await host.expect(
            "62 00 00 38 00 00 00 00 01 00 01 00 00 c8 00 00 00 01 00 00 00 00 00 00 00 00 00 00 01"
                + " 02 00 21 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 00"
                + " 00 00 00 00 00 00 00 00 00 00 00")
        // The round did reach the peer: the truth says it failed, not that nobody was there.
        let round = try #require(await events.rounds.first { $0.device == host.deviceID })
        #expect(round.peerDevice != nil)
        #expect(round.measurement?.status == 0x21)
        #expect(round.measurement?.truth.distance ?? 0 > 1.9)
        await host.close()
    }

    @Test func withoutAPeerTheControllerTimesOutAndMaxRRRetryStopsTheSession() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let host = try await UWBSHost.open(world)
        let token = try await host.startRanging(
            configs: Configs.session(controller: true, mac: 0x0001, peer: 0x0002, extra: [.maxRangingRoundRetries(3)]))
        try await world.advance(by: 2)
        let packets = try await host.unread()
        let views = try infos(packets)
        #expect(views.map(\.sequenceNumber) == [0, 1, 2])
        #expect(views.allSatisfy { $0.measurements.first?.status == .rangingRXTimeout })
        // After the third failed round: SESSION_STATUS_NTF(IDLE, MAX_RR_RETRY_REACHED), READY.
        #expect(hex(Array(packets.suffix(2)).flatMap(\.bytes)) == hex(bytes("61 02 00 06 01 00 01 00 03 01 60 01 00 01 01")))
        #expect(token == 0x0001_0001)
        await host.close()
    }

    @Test func aControleeWithoutControllerReportsTimeoutsAtItsInterval() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let host = try await UWBSHost.open(world)
        _ = try await host.startRanging(configs: Configs.session(controller: false, mac: 0x0002, peer: 0x0001, interval: 250))
        try await world.advance(by: 1)
        let views = try infos(try await host.unread())
        #expect(views.count == 4)
        #expect(views.allSatisfy { $0.measurements.first?.macAddress == .short(0x0001) && $0.measurements.first?.status == .rangingRXTimeout })
        #expect(views.allSatisfy { $0.currentRangingInterval == 250 })
        await host.close()
    }

    @Test func aoaResultRequestSelectsTheAngles() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0002), peerAddress: .short(0x0001)))
        try await world.addPeer(VirtualPeer(sessionID: 43, address: .short(0x0003), peerAddress: .short(0x0001)))
        let host = try await UWBSHost.open(world)
        _ = try await host.startRanging(
            configs: Configs.session(controller: true, mac: 0x0001, peer: 0x0002, extra: [.aoaResultRequest(.disabled)]))
        let second = try await host.initSession(43)
        try await host.configure(second, Configs.session(controller: true, mac: 0x0001, peer: 0x0003, extra: [.aoaResultRequest(.azimuthOnly)]))
        try await host.start(second, firstActive: false)
        // One radio: the second session's first round waits for the first's (50 ms) to end.
        try await world.advance(by: 0.3)
        let views = try infos(try await host.unread())
        #expect(views.count == 2)
        let none = try #require(views.first { $0.session == 0x0001_0001 }?.measurements.first)
        #expect(none.distance == 200)
        #expect(none.azimuth.rawValue == 0 && none.azimuthFigureOfMerit == 0 && none.elevation.rawValue == 0)
        let azimuthOnly = try #require(views.first { $0.session == 0x0001_0002 }?.measurements.first)
        // Accessory 1 stands at +35° (the scenario's bearing step), 2 m away.
        #expect(abs(azimuthOnly.azimuth.degrees - 35) < 0.5)
        #expect(azimuthOnly.azimuthFigureOfMerit > 0)
        #expect(azimuthOnly.elevation.rawValue == 0 && azimuthOnly.elevationFigureOfMerit == 0)
        await host.close()
    }

    @Test func oneToManyReportsEveryControleeInOneNotification() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0002), peerAddress: .short(0x0001)))
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0003), peerAddress: .short(0x0001)))
        let host = try await UWBSHost.open(world)
        _ = try await host.startRanging(configs: [
            .deviceType(.controller), .deviceRole(.initiator), .multiNodeMode(.oneToMany), .rangingRoundUsage(.dsTWRDeferred),
            .scheduleMode(.timeScheduled), .deviceMACAddress(.short(0x0001)), .numberOfControlees(3),
            .destinationMACAddresses([.short(0x0002), .short(0x0003), .short(0x0004)]),
        ])
        try await world.advance(by: 0.2)
        let view = try #require(try infos(try await host.unread()).first)
        let measurements = Array(view.measurements)
        #expect(measurements.map(\.macAddress) == [.short(0x0002), .short(0x0003), .short(0x0004)])
        #expect(measurements.map(\.slotIndex) == [1, 2, 3])
        #expect(measurements.map(\.status) == [.ok, .ok, .rangingRXTimeout])
        #expect(abs(measurements[0].azimuth.degrees) < 0.01)
        #expect(abs(measurements[1].azimuth.degrees - 35) < 0.01)
        await host.close()
    }

    @Test func extendedAddressesTravelWithTheExtendedIndicator() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let peer: UInt64 = 0x1122_3344_5566_7788
        let own: UInt64 = 0x0102_0304_0506_0708
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .extended(peer), peerAddress: .extended(own)))
        let host = try await UWBSHost.open(world)
        _ = try await host.startRanging(configs: [
            .deviceType(.controller), .deviceRole(.initiator), .multiNodeMode(.unicast), .rangingRoundUsage(.dsTWRDeferred),
            .scheduleMode(.timeScheduled), .macAddressMode(.extended), .deviceMACAddress(.extended(own)),
            .destinationMACAddresses([.extended(peer)]),
        ])
        try await world.advance(by: 0.2)
        let view = try #require(try infos(try await host.unread()).first)
        #expect(view.usesExtendedAddresses)
        #expect(view.measurements.first?.macAddress == .extended(peer))
        #expect(view.measurements.first?.distance == 200)
        await host.close()
    }

    @Test func proximityTriggersLimitTheNotifications() async throws {
        let world = try VirtualUWBSWorld(scenario: .walkIn, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0002), peerAddress: .short(0x0001)))
        try await world.addPeer(VirtualPeer(sessionID: 43, address: .short(0x0003), peerAddress: .short(0x0001), scenario: .walkIn))
        let host = try await UWBSHost.open(world)
        // Session 42: level trigger inside 0-300 cm; session 43: edge trigger at 300 cm.
        let level = try await host.startRanging(
            configs: Configs.session(
                controller: true, mac: 0x0001, peer: 0x0002,
                extra: [.sessionInfoNotificationConfig(.proximityLevelTrigger), .farProximity(centimeters: 300)]))
        let edge = try await host.initSession(43)
        try await host.configure(
            edge,
            Configs.session(
                controller: true, mac: 0x0001, peer: 0x0003,
                extra: [.sessionInfoNotificationConfig(.proximityEdgeTrigger), .farProximity(centimeters: 300)]))
        try await host.start(edge, firstActive: false)
        try await world.advance(by: 20)
        let views = try infos(try await host.unread())
        let levels = views.filter { $0.session == level }
        // Walk-in from 8 m: inside 3 m from 7 s (5 m at 1 m/s after 2 s) until the end at 20 s.
        #expect(!levels.isEmpty)
        #expect(levels.allSatisfy { ($0.measurements.first?.distance ?? 999) <= 300 })
        #expect(levels.count >= 60 && levels.count <= 66, "\(levels.count)")
        // The edge trigger reports only the crossing (accessory 1 starts 3 s later).
        let edges = views.filter { $0.session == edge }
        #expect(edges.count == 1)
        #expect((edges.first?.measurements.first?.distance ?? 999) <= 300)
        await host.close()
    }
}

extension UCISessionInfoView {
    /// The view's notification as one packet again (for decoding it a second way).
    func packetBytes() throws -> [UInt8] {
        try UCINotification.sessionInfo(UCISessionInfo(self)).packets()[0].bytes
    }
}
