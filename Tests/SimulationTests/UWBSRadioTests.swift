import Simulation
import Testing
import UCI

/// One radio per device: rounds of different sessions that overlap collide unless their
/// schedules interleave (specs/virtual-uwbs.md §3). The accessory's case: one kit, one controlee
/// session per phone, each phone a controller on its own timetable.
@Suite struct UWBSRadioTests {
    /// The SESSION_INFO_NTF views among `packets`, and how many carry a valid measurement.
    private func outcomes(_ packets: [UCIPacket]) throws -> (rounds: Int, valid: Int) {
        let views = try packets.filter(\.header.isUnsegmentedSessionInfo).map { try UCISessionInfoView(packet: $0) }
        return (views.count, views.filter { $0.measurements.first?.isValid == true }.count)
    }

    /// 6 slots of 3600 RSTU (18 ms rounds) every 198 ms: what an iPhone asks for.
    private static let iPhoneTiming: [UCIAppConfig] = [.slotsPerRangingRound(6), .slotDuration(rstu: 3600)]

    /// The accessory's kit with a controlee session for each phone address (session ID 0x100 + index).
    private func kit(_ world: VirtualUWBSWorld, phones: Int, hopping: Bool) async throws -> UWBSHost {
        let kit = try await UWBSHost.open(world)
        try await kit.reset()
        for index in 1...phones {
            let token = try await kit.initSession(UInt32(0x100 + index))
            try await kit.configure(token, Configs.session(
                controller: false, mac: 0x0A0A, peer: UInt16(index), interval: 198,
                extra: Self.iPhoneTiming + [.hoppingMode(hopping ? 1 : 0)]))
            try await kit.start(token, firstActive: index == 1)
        }
        return kit
    }

    /// A phone: its own device, one controller session with the kit.
    private func phone(_ world: VirtualUWBSWorld, index: Int, hopping: Bool) async throws -> UWBSHost {
        let phone = try await UWBSHost.open(world)
        _ = try await phone.startRanging(session: UInt32(0x100 + index), configs: Configs.session(
            controller: true, mac: UInt16(index), peer: 0x0A0A, interval: 198, extra: Self.iPhoneTiming + [.hoppingMode(hopping ? 1 : 0)]))
        return phone
    }

    @Test("two phones whose rounds overlap on the accessory's radio: the later one fails every round, on both sides; the radio-busy event says why")
    func overlappingPhonesCollide() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let events = EventLog(world)
        let kit = try await kit(world, phones: 2, hopping: false)
        let first = try await phone(world, index: 1, hopping: false)
        try await world.advance(by: 0.005)  // 5 ms later: inside the first phone's 18 ms round
        let second = try await phone(world, index: 2, hopping: false)
        try await world.advance(by: 3)
        let one = try outcomes(try await first.unread())
        let two = try outcomes(try await second.unread())
        #expect(one.rounds >= 14 && one.valid == one.rounds, "the first phone keeps every round: \(one)")
        #expect(two.rounds >= 14 && two.valid == 0, "the later phone's rounds all collide: \(two)")
        let isBusy: @Sendable (VirtualUWBSEvent) -> Bool = { event in
            if case .radioBusy(let id, 0x102, 0x101, false) = event { id == kit.deviceID } else { false }
        }
        // The log reads the world's events on a task of its own: wait for it, not for a time.
        try await events.wait { $0.filter(isBusy).count >= two.rounds }
        let busy = await events.events.filter(isBusy)
        #expect(busy.count == two.rounds, "one radio-busy event per lost round")
        let kitRounds = await events.rounds.filter { $0.device == kit.deviceID && $0.sessionID == 0x102 }
        #expect(!kitRounds.isEmpty && kitRounds.allSatisfy { $0.measurement == nil }, "the kit's session for the phone times out too")
        for host in [first, second, kit] { await host.close() }
    }

    @Test("two phones whose rounds do not overlap share the radio without a loss")
    func interleavedPhonesDoNotCollide() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let events = EventLog(world)
        let kit = try await kit(world, phones: 2, hopping: false)
        let first = try await phone(world, index: 1, hopping: false)
        try await world.advance(by: 0.05)  // 50 ms later: after the first phone's round
        let second = try await phone(world, index: 2, hopping: false)
        try await world.advance(by: 3)
        let one = try outcomes(try await first.unread())
        let two = try outcomes(try await second.unread())
        #expect(one.valid == one.rounds && two.valid == two.rounds && two.rounds >= 14, "\(one) \(two)")
        #expect(await events.events.allSatisfy { if case .radioBusy = $0 { false } else { true } })
        for host in [first, second, kit] { await host.close() }
    }

    @Test("with ranging round hopping the same two phones lose a few rounds each instead of one losing all")
    func hoppingSpreadsCollisions() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let kit = try await kit(world, phones: 2, hopping: true)
        let first = try await phone(world, index: 1, hopping: true)
        try await world.advance(by: 0.005)
        let second = try await phone(world, index: 2, hopping: true)
        try await world.advance(by: 20)
        let one = try outcomes(try await first.unread())
        let two = try outcomes(try await second.unread())
        #expect(one.rounds >= 95 && two.rounds >= 95, "\(one) \(two)")
        let lost = (one.rounds - one.valid) + (two.rounds - two.valid)
        #expect(lost > 0, "rounds still collide when both hop onto overlapping places")
        #expect(Double(two.valid) / Double(two.rounds) > 0.6 && Double(one.valid) / Double(one.rounds) > 0.6,
                "neither phone starves: \(one) \(two)")
        for host in [first, second, kit] { await host.close() }
    }

    @Test("a device's own controller sessions interleave: a round due while another holds the radio runs when it is free")
    func ownSessionsWait() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .manual)
        defer { Task { await world.shutdown() } }
        let events = EventLog(world)
        // The phone role's kit with two accessories, both sessions started at the same instant.
        let host = try await UWBSHost.open(world)
        try await host.reset()
        for index in 1...2 {
            let token = try await host.initSession(UInt32(0x200 + index))
            try await host.configure(token, Configs.session(controller: true, mac: 0x0001, peer: UInt16(0x10 + index), interval: 198,
                                                            extra: Self.iPhoneTiming))
            try await host.start(token, firstActive: index == 1)
        }
        var accessories: [UWBSHost] = []
        for index in 1...2 {
            let accessory = try await UWBSHost.open(world)
            _ = try await accessory.startRanging(session: UInt32(0x200 + index), configs: Configs.session(
                controller: false, mac: UInt16(0x10 + index), peer: 0x0001, interval: 198, extra: Self.iPhoneTiming))
            accessories.append(accessory)
        }
        try await world.advance(by: 3)
        let rounds = try outcomes(try await host.unread())
        #expect(rounds.rounds >= 28 && rounds.valid == rounds.rounds, "every round of both sessions: \(rounds)")
        let isDeferred: @Sendable (VirtualUWBSEvent) -> Bool = { event in if case .radioBusy(_, _, _, true) = event { true } else { false } }
        try await events.wait { $0.contains(where: isDeferred) }
        let deferred = await events.events.filter(isDeferred)
        #expect(deferred.count == 1, "the second session waited once, then kept its new place: \(deferred.count)")
        await host.close()
        for accessory in accessories { await accessory.close() }
    }
}
