import Foundation
import MQTT
import NIProtocol
import NearbyConfig
import NearbyMQTT
import NearbyRuntime
import NearbyTestSupport
import Synchronization
import Testing

/// The publisher against a real broker: a bundled trace replayed through the real engine into a
/// run whose outputs are the publisher and the JSON lines of `--json`.
@Suite(.serialized) struct MQTTPublisherBrokerTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func objects() throws -> [[String: Any]] {
            try lines.withLock { $0 }.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        }
    }

    func json(_ message: MQTTMessage) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any], "\(message)")
    }

    /// Replays `trace` at full speed as accessory Keys of host `hall`, publishing to `broker`.
    func replay(_ trace: String, broker: MosquittoBroker, options: MQTTPublisherOptions = MQTTPublisherOptions()) async throws -> (Lines, RunSummary, [String]) {
        let setup = try #require(try MQTTSetup(settings: MQTTSettings(), url: try MQTTBrokerURL(parsing: broker.url()), hostName: "hall", role: .replay, environment: [:]))
        let notes = Lines()
        let publisher = MQTTPublisher(
            client: try MQTTClient(configuration: setup.client), topics: setup.topics, options: options,
            notes: { text in notes.lines.withLock { $0.append(text) } })
        let lines = Lines()
        let json = JSONLinesOutput(write: { text in lines.lines.withLock { $0.append(text.trimmingCharacters(in: .newlines)) } }, notes: { _ in })
        let settings = try RunSettings(configuration: NearbyConfiguration())
        let identity = AccessoryIdentity(id: "F0:F1:F2:F3:F4:F5", displayName: "Keys")
        let run = RangingRun(context: RunContext(accessories: [identity], zones: settings.zones, start: 0, wallStart: 1_700_000_000), outputs: [json, publisher])
        #expect(await publisher.client.waitUntilConnected(timeout: .seconds(20)))
        _ = try await TraceReplay.replay(path: PackagePaths.file(trace).path, speed: 0, identity: identity, settings: settings, into: run)
        let summary = await run.finish(interrupted: false)
        return (lines, summary, notes.lines.withLock { $0 })
    }

    @Test func aReplayPublishesStateEventsDistanceAndDiscovery() async throws {
        let broker = try await MosquittoBroker()
        let watcher = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "watch"), subscribe: ["nearby/#", "homeassistant/#"])
        try await watcher.connected()
        let (lines, summary, notes) = try await replay("data/synthetic/walk_4m_1m.csv", broker: broker)
        #expect(notes.first?.hasPrefix("mqtt: connected to mqtt://127.0.0.1:\(broker.port) as host 'hall'") == true, "\(notes)")
        try await watcher.wait("offline at the end") { $0.messages(on: "nearby/hall/status").last?.text == "offline" }
        #expect(watcher.messages(on: "nearby/hall/status").map(\.text) == ["online", "offline"])

        // Every zone change, lost and found of the run is an event, in order, with the same keys.
        let level = "f0_f1_f2_f3_f4_f5"
        let expected = try lines.objects().filter { $0["event"] as? String == "ranging" }
        let events = try watcher.messages(on: "nearby/hall/\(level)/event").map(json)
        #expect(!expected.isEmpty && events.count == expected.count, "\(events.count) events, \(expected.count) in the run")
        for (event, line) in zip(events, expected) {
            #expect(event["type"] as? String == line["type"] as? String && event["to"] as? String == line["to"] as? String)
            #expect(event["t_s"] as? Double == line["t_s"] as? Double && event["host"] as? String == "hall" && event["name"] as? String == "Keys")
            #expect((event["time"] as? Double ?? 0) >= 1_700_000_000)
        }
        #expect(watcher.messages(on: "nearby/hall/\(level)/event").allSatisfy { $0.qos == .atLeastOnce && !$0.retain })

        // Distances: at most 2 per second of trace (plus one per event), each a number.
        let distances = watcher.messages(on: "nearby/hall/\(level)/distance").compactMap { Double($0.text) }
        let updates = try lines.objects().filter { $0["event"] as? String == "update" }
        let duration = try #require(updates.last?["t_s"] as? Double)
        #expect(distances.count >= 20 && Double(distances.count) <= duration * 2 + Double(expected.count) + 2, "\(distances.count) in \(duration) s")
        #expect(updates.count > distances.count * 3, "\(updates.count) updates, \(distances.count) published")

        // States are retained; the last one is the run's end.
        let states = watcher.messages(on: "nearby/hall/\(level)/state")
        #expect(states.allSatisfy(\.retain) == false, "live messages are not flagged retained to current subscribers")
        let last = try json(try #require(states.last))
        #expect(last["distance_m"] as? Double == (summary.accessories.first?.lastDistance).map { ($0 * 1000).rounded() / 1000 })
        for key in ["host", "accessory", "name", "time", "t_s", "session", "tracking", "zone", "near", "distance_m", "azimuth_deg", "elevation_deg", "confidence", "figure_of_merit", "nlos", "update_rate_hz"] {
            #expect(last[key] != nil, "state without \(key): \(last)")
        }
        #expect(last["near"] as? Bool == (last["zone"] as? String == "near"), "\(last)")

        // A late subscriber gets the retained state, the status and the discovery configs.
        let late = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "late"), subscribe: ["nearby/#", "homeassistant/#"])
        try await late.wait("the retained messages") { $0.messages.count >= 4 }
        try await Task.sleep(for: .milliseconds(300))
        #expect(Set(late.messages.map(\.topic)) == [
            "nearby/hall/status", "nearby/hall/\(level)/state", "homeassistant/device/nearby_hall/config",
            "homeassistant/device/nearby_hall_\(level)/config",
        ])
        #expect(late.messages.allSatisfy(\.retain) && late.messages(on: "nearby/hall/\(level)/state").first?.text == states.last?.text)

        // Forgetting the accessory removes its entities and its state, not the host's.
        let setup = try #require(try MQTTSetup(settings: MQTTSettings(), url: try MQTTBrokerURL(parsing: broker.url()), hostName: "hall", role: .forget, environment: [:]))
        #expect(await setup.removeAccessory("F0:F1:F2:F3:F4:F5") == nil)
        let after = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "after"), subscribe: ["nearby/#", "homeassistant/#"])
        try await after.wait("the host's retained messages") { $0.messages.count >= 2 }
        try await Task.sleep(for: .milliseconds(300))
        #expect(Set(after.messages.map(\.topic)) == ["nearby/hall/status", "homeassistant/device/nearby_hall/config"])
        for recorder in [watcher, late, after] { await recorder.client.stop() }
    }

    @Test func withoutDiscoveryOnlyTheTopicsArePublished() async throws {
        let broker = try await MosquittoBroker()
        let watcher = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "watch"), subscribe: ["homeassistant/#", "nearby/+/status"])
        try await watcher.connected()
        var options = MQTTPublisherOptions()
        options.discovery = false
        _ = try await replay("data/synthetic/step_2m_4m.csv", broker: broker, options: options)
        try await watcher.wait("offline") { $0.messages(on: "nearby/hall/status").last?.text == "offline" }
        #expect(watcher.messages.allSatisfy { !$0.topic.hasPrefix("homeassistant/") })
        await watcher.client.stop()
    }

    @Test func anUnreachableBrokerNeverHoldsTheRunUp() async throws {
        let port = try freeTCPPort()
        var setup = try #require(try MQTTSetup(settings: MQTTSettings(), url: try MQTTBrokerURL(parsing: "mqtt://127.0.0.1:\(port)"), hostName: "hall", role: .replay, environment: [:]))
        setup.client.reconnectMinimum = 0.2
        var options = MQTTPublisherOptions()
        options.stopTimeout = .milliseconds(200)
        let notes = Lines()
        let publisher = MQTTPublisher(
            client: try MQTTClient(configuration: setup.client), topics: setup.topics, options: options, notes: { text in notes.lines.withLock { $0.append(text) } }, hint: MQTTSetup.hint(for:))
        let settings = try RunSettings(configuration: NearbyConfiguration())
        let identity = AccessoryIdentity(id: "keys")
        let run = RangingRun(context: RunContext(accessories: [identity], zones: settings.zones, start: 0, wallStart: 0), outputs: [publisher])
        let totals = try await TraceReplay.replay(path: PackagePaths.file("data/synthetic/walk_4m_1m.csv").path, speed: 0, identity: identity, settings: settings, into: run)
        let summary = await run.finish(interrupted: false)
        #expect(totals.samples == 449 && summary.accessories.first?.updates == 449)
        let text = notes.lines.withLock { $0 }
        #expect(text.contains { $0.contains("connection refused") && $0.contains("check the broker URL") && $0.contains("ranging goes on") }, "\(text)")
        #expect(text.filter { $0.contains("connection refused") }.count == 1, "a failure is reported once, not at every retry: \(text)")
    }
}
