import Foundation
import NearbyRuntime
import NearbyTestSupport
import Ranging
import Simulation
import Synchronization
import Testing
import UCI
import UWBDevice

/// `nearby uwb range`'s run on an in-process virtual UWBS (a simulated world that mirrors a
/// peer for every destination address), and whole traces read into memory.
@Suite struct UWBRangeRunTests {
    static let parameters = FiRaSessionParameters(deviceMACAddress: .short(0x0001), destinationMACAddresses: [.short(0x0002)])

    func client(_ world: VirtualUWBSWorld) -> UCIClient {
        UCIClient(transport: world.makeTransport(name: "sim"))
    }

    @Test func countedSamplesThenTheSessionIsClosed() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, seed: 1, automaticPeers: true)
        let run = try await UWBRangeRun.open(client: client(world), sessionID: 42, parameters: Self.parameters)
        #expect(run.deviceInfo.uciVersion == .v2_0 && run.sessionID == 42)
        let peers = Mutex<[UCIMACAddress]>([])
        let result = await run.run(count: 3, sample: { sample in peers.withLock { $0.append(sample.peer) } }, event: { _ in })
        #expect(result == UWBRangeResult(samples: 3, stop: nil, errors: []))
        #expect(!result.failed)
        #expect(peers.withLock { $0 } == [.short(2), .short(2), .short(2)])
        // The client is closed: the session can no longer be used.
        await #expect(throws: UCIClientError.self) { try await run.client.open() }
        await world.shutdown()
    }

    @Test func aStopBeforeTheFirstSampleEndsTheRunWithoutFailing() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, seed: 1, automaticPeers: true)
        let run = try await UWBRangeRun.open(client: client(world), sessionID: 7, parameters: Self.parameters)
        run.stop(.signal(SIGINT))
        run.stop(.failed("later reasons do not replace the first"))
        let result = await run.run(count: nil, sample: { _ in }, event: { _ in })
        #expect(result.stop == .signal(SIGINT) && result.errors.isEmpty && result.samples == 0)
        #expect(result.stop?.description == "interrupted (SIGINT)")
        await world.shutdown()
    }

    @Test func sessionEventsThatEndARun() {
        #expect(UWBRangeStop(.stateChanged(.deinitialized, reason: .stateChangeWithSessionManagementCommands))?.description
            .hasPrefix("the UWBS ended the session (") == true)
        #expect(UWBRangeStop(.stateChanged(.idle, reason: UCIReasonCode(rawValue: 0x01)))?.description.hasPrefix("the UWBS stopped the session (") == true)
        #expect(UWBRangeStop(.stateChanged(.idle, reason: .stateChangeWithSessionManagementCommands)) == nil)
        #expect(UWBRangeStop(.stateChanged(.active, reason: .stateChangeWithSessionManagementCommands)) == nil)
        #expect(UWBRangeStop.signal(SIGTERM).description == "terminated (SIGTERM)")
    }

    @Test func aWholeTraceIsReadOrItsErrorNamesTheLine() throws {
        let records = try TraceFile.read(PackagePaths.file("data/synthetic/walk_4m_1m.csv").path)
        #expect(records.count > 100 && records.allSatisfy { $0.truth != nil })
        let bad = NSTemporaryDirectory() + "nearby-trace-\(UUID().uuidString).csv"
        try Data("t_s,distance_m\n0,1\nx,2\n".utf8).write(to: URL(fileURLWithPath: bad))
        defer { try? FileManager.default.removeItem(atPath: bad) }
        #expect(throws: TraceError.self) { try TraceFile.read(bad) }
        #expect(throws: (any Error).self) { try TraceFile.read(bad + ".absent") }
    }
}
