import LowEnergy
import NearbyInteraction
import Ranging
import Simulation
import Testing
import UCI
import UWBDevice

/// The session orchestration against the in-process simulator: virtual accessories over
/// in-memory data channels, each on its own virtual dev kit, the host on another.
@Suite(.serialized) struct SessionOrchestrationTests {
    @Test func happyPathRangesAtTheScenariosDistance() async throws {
        let harness = try await SessionHarness.make()
        try await harness.addAll()
        let updates = try await harness.recorder.waitForUpdates(10, of: "sim-1")
        // The stand scenario: 2 m ahead, ideal noise.
        for update in updates.suffix(5) {
            #expect(abs((update.distance ?? 0) - 2.0) < 0.01, "\(update)")
        }
        let states = harness.recorder.states(of: "sim-1")
        #expect(states.prefix(4) == [.initializing, .configuring, .starting(cached: false), .ranging], "\(states)")
        let configured = try #require(harness.recorder.configurations(of: "sim-1").first)
        #expect(configured.0.hostParameters.deviceType == .controller)
        #expect(configured.0.accessoryAddress == 0x0A01)
        let accessory = harness.demo.accessories[0].accessory
        #expect(await accessory.received == [.initialize, .configureAndStart])
        #expect(await accessory.runningSessionID == configured.0.sessionID)
        print("latency (in-process simulator): \(configured.1)")
        #expect(configured.1.ownWork < .milliseconds(50), "generous bound for a loaded CI machine; budget 5 ms: \(configured.1)")
        #expect(harness.recorder.events.contains { if case .ranging(.entered, let zone) = $0.kind { zone == "mid" } else { false } })
        await harness.shutdown()
        #expect(await accessory.received.last == .stop, "stop (0x0C) sent on the way out")
        #expect(harness.recorder.states(of: "sim-1").last == .stopped)
    }
}
