import Logging
import Ranging
import Testing
import UCI
import UWBDevice

@testable import Simulation

/// The real-time world runs the rounds due within a window ahead of the wall clock in one
/// wake-up (`VirtualUWBSWorld.batchWindow`), and its in-process transport hands each packet
/// over with its round's time on the real clock: a host's sample is stamped with the time its
/// round happened, whatever the window, so running ahead moves no sample in time
/// (specs/runtime.md §6.1, seventh pass). A device whose packets cannot carry their time (a
/// TCP connection) keeps the world within 1 ms of the wall clock.
@Suite struct RoundTimeTests {
    private static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// A real-time world at 5× with a built-in peer, and a host client whose session 42 ranges
    /// with it every 100 ms of world time (20 ms of real time).
    private func rangingHost(window: Double) async throws -> (VirtualUWBSWorld, VirtualUWBSTransport, UCIClient, UWBSession) {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, seed: 1, clock: .realTime(speed: 5))
        await world.setBatchWindow(window)
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(2), peerAddress: .short(1)))
        let transport = world.makeTransport(placement: .host, name: "host")
        let client = UCIClient(transport: transport, logger: Self.logger)
        try await client.open()
        let session = try await client.openSession(
            id: 42,
            parameters: FiRaSessionParameters(
                deviceMACAddress: .short(1), destinationMACAddresses: [.short(2)], deviceType: .controller, deviceRole: .initiator,
                rangingInterval: 100))
        return (world, transport, client, session)
    }

    @Test(arguments: [0, 0.001, 0.020, 2.0])
    func aSampleHasItsRoundsTimeOnTheRealClockWhateverTheWindow(window: Double) async throws {
        let (world, transport, client, session) = try await rangingHost(window: window)
        let events = world.events()
        var samples = session.samples.makeAsyncIterator()
        try await session.start()
        let count = window >= 1 ? 40 : 12
        var got: [(sample: UCIPeerRangeSample, takenAt: Double)] = []
        while got.count < count, let sample = await samples.next() { got.append((sample, MonotonicTime.seconds())) }
        // The host's rounds (one DST address: one notification, one sample each), in order.
        var rounds: [VirtualRangingRound] = []
        for await event in events {
            if case .round(let round) = event, round.device == transport.deviceID, round.sessionID == 42 { rounds.append(round) }
            if rounds.count == count { break }
        }
        #expect(got.count == count)
        for (index, (sample, _)) in got.enumerated() {
            let roundTime = try #require(await world.monotonicTime(at: rounds[index].worldTime))
            #expect(sample.sample.timestamp == roundTime, "sample \(index): stamped with its round's time")
        }
        #expect(zip(got, got.dropFirst()).allSatisfy { $0.sample.sample.timestamp < $1.sample.sample.timestamp }, "in order")
        // 100 ms of world time at 5× apart on the real clock, as the rounds are due.
        let gaps = zip(got, got.dropFirst()).map { $1.sample.sample.timestamp - $0.sample.sample.timestamp }
        #expect(gaps.allSatisfy { abs($0 - 0.020) < 1e-9 }, "\(gaps)")
        if window >= 1 {
            // Rounds run up to 2 s ahead: the 40 samples (0.8 s of rounds) come in one burst,
            // most of them before their time; their stamps did not move.
            #expect(got.contains { $0.sample.sample.timestamp > $0.takenAt })
        }
        await client.close()
        await world.shutdown()
    }

    @Test func aTCPConnectionKeepsTheWorldWithinAMillisecondOfTheWallClock() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, seed: 1, clock: .realTime(speed: 1))
        let inProcess = UCIClient(transport: world.makeTransport(name: "in process"), logger: Self.logger)
        try await inProcess.open()
        #expect(await world.outputsTimed)
        let server = try VirtualUWBSServer(world: world, host: "127.0.0.1", port: 0)
        let overTCP = UCIClient(transport: TCPTransport(host: "127.0.0.1", port: UInt16(server.port)), logger: Self.logger)
        try await overTCP.open()
        #expect(await world.outputsTimed == false, "a TCP host stamps what it reads: the world runs at most 1 ms ahead")
        await overTCP.close()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while await !world.outputsTimed, clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await world.outputsTimed, "the TCP host left")
        await inProcess.close()
        await server.stop()
        await world.shutdown()
    }

    @Test func aManualClocksTimeIsNoRealTime() async throws {
        let world = try VirtualUWBSWorld(clock: .manual)
        #expect(await world.monotonicTime(at: 1) == nil)
        let real = try VirtualUWBSWorld(clock: .realTime(speed: 4))
        let zero = try #require(await real.monotonicTime(at: 0))
        #expect(try #require(await real.monotonicTime(at: 2)) == zero + 0.5)
        await world.shutdown()
        await real.shutdown()
    }
}
