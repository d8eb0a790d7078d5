import Benchmark
import Simulation
import UCI

/// A manual-clock world with a host ranging with a built-in peer at 100 ms; the host's packets
/// are drained as a UCI client would read them.
struct RoundFixture {
    let world: VirtualUWBSWorld
    let transport: VirtualUWBSTransport
    let drain: Task<Int, any Error>

    init() async throws {
        world = try VirtualUWBSWorld(scenario: .randomWalk, noise: .default, seed: 1, clock: .manual)
        try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(2), peerAddress: .short(1), rangingInterval: 100))
        transport = world.makeTransport(configuration: VirtualUWBSConfiguration(requiresReset: false))
        let stream = try await transport.open()
        var packets = stream.makeAsyncIterator()
        _ = try await packets.next()  // READY
        let configure = try UCICommand.setAppConfig(session: 0x0001_0001, configs: [
            .deviceType(.controller), .deviceRole(.initiator), .multiNodeMode(.unicast), .rangingRoundUsage(.dsTWRDeferred),
            .scheduleMode(.timeScheduled), .deviceMACAddress(.short(1)), .destinationMACAddresses([.short(2)]),
            .rangingDuration(milliseconds: 100),
        ]).packets()[0].bytes
        for (command, answers) in [([0x21, 0x00, 0x00, 0x05, 42, 0, 0, 0, 0], 2), (configure, 2), ([0x22, 0x00, 0x00, 0x04, 1, 0, 1, 0], 3)] {
            try await transport.send(command)
            for _ in 0..<answers { _ = try await packets.next() }
        }
        drain = Task {
            var count = 0
            while try await packets.next() != nil { count += 1 }
            return count
        }
    }

    func close() async throws {
        await transport.close()
        _ = try await drain.value
        await world.shutdown()
    }
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.throughput, .wallClock, .mallocCountTotal]

    // One ranging round end to end: the scheduler finds the due session, pairs it with the peer,
    // measures both directions in the scene (noise model), builds and encodes both
    // SESSION_INFO_NTFs and delivers the host's into the in-process transport's stream.
    Benchmark(
        "Virtual UWBS: ranging round, host + peer (scene, SESSION_INFO_NTF, in-process delivery)",
        configuration: .init(metrics: metrics, scalingFactor: .kilo)
    ) { benchmark in
        let fixture = try await RoundFixture()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try await fixture.world.advance(by: 0.1)
        }
        benchmark.stopMeasurement()
        try await fixture.close()
    }

    // A command through the device state machine alone: SESSION_GET_APP_CONFIG (three
    // parameters) in, its response out.
    Benchmark(
        "Virtual UWBS: SESSION_GET_APP_CONFIG command -> response (state machine)",
        configuration: .init(metrics: metrics, scalingFactor: .kilo)
    ) { benchmark in
        var uwbs = VirtualUWBS(configuration: VirtualUWBSConfiguration(requiresReset: false))
        _ = uwbs.powerOn()
        _ = uwbs.receive([0x21, 0x00, 0x00, 0x05, 42, 0, 0, 0, 0], at: 0)
        let command: [UInt8] = [0x21, 0x04, 0x00, 0x08, 0x01, 0x00, 0x01, 0x00, 0x03, 0x04, 0x09, 0x14]
        var bytes = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            bytes &+= uwbs.receive(command, at: 0).packets.count
        }
        benchmark.stopMeasurement()
        blackHole(bytes)
    }
}
