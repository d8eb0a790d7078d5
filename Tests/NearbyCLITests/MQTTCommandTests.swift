import Foundation
import MQTT
import NearbyTestSupport
import Testing

/// `nearby demo --mqtt`, `nearby watch` and `nearby accessories forget` against a real broker
/// (Debian's mosquitto on a free loopback port), end to end with the built executable.
@Suite(.serialized) struct MQTTCommandTests {
    func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").filter { $0.hasPrefix("{") }.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    func json(_ message: MQTTMessage) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any], "\(message)")
    }

    /// A configuration file in a temporary directory (mode 0600).
    func configFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-mqtt-\(UUID().uuidString).toml").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        return path
    }

    func demo(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(PackagePaths.nearby, ["demo"] + arguments, environment: environment)
    }

    @Test func aKilledDemoLeavesItsLastWillAndItsRetainedState() async throws {
        let broker = try await MosquittoBroker()
        let watcher = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "watch"), subscribe: ["nearby/#", "homeassistant/#"])
        try await watcher.connected()
        // Long enough never to end by itself (a demo that ends says offline on its own; on a
        // loaded machine the stand scenario once ended before the test killed it).
        let demo = try demo(["--scenario", "stand", "--duration", "600", "--mqtt", broker.url(), "--mqtt-host", "hall", "--json"])
        defer { demo.terminate() }
        // A still accessory publishes a state when its tracking changes, then only when the
        // distance moves a step (it may never): wait for the state that says it is tracked.
        try await watcher.wait("the state of sim-1") { recorder in
            recorder.messages(on: "nearby/hall/sim-1/state").contains { (try? json($0))?["tracking"] as? String == "tracking" }
        }
        #expect(watcher.messages(on: "nearby/hall/status").map(\.text) == ["online"])
        #expect(watcher.messages.contains { $0.topic == "homeassistant/device/nearby_hall_sim-1/config" })
        let state = try json(try #require(watcher.messages(on: "nearby/hall/sim-1/state").last))
        #expect(state["host"] as? String == "hall" && state["accessory"] as? String == "sim-1")

        demo.signal(SIGKILL)
        _ = try await demo.waitForExit()
        // The broker publishes the will at once: the socket closed without a DISCONNECT.
        try await watcher.wait("the last will") { $0.messages(on: "nearby/hall/status").last?.text == "offline" }
        #expect(broker.log.contains("nearby-hall"))
        let late = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "late"), subscribe: ["nearby/hall/#"])
        try await late.wait("the retained status and state") { $0.messages.count >= 2 }
        #expect(late.messages(on: "nearby/hall/status").map(\.text) == ["offline"] && late.messages(on: "nearby/hall/sim-1/state").count == 1)
        await late.client.stop()
        await watcher.client.stop()
    }

    @Test func aBrokerRestartMidRunLosesNoZoneEvent() async throws {
        let broker = try await MosquittoBroker(persistence: true)
        var settings = try mqttConfiguration(broker.url(), id: "house")
        settings.sessionExpiry = 3600  // the subscriber's queue survives its own reconnect
        let watcher = try MQTTRecorder(settings, subscribe: ["nearby/hall/+/event"])
        try await watcher.connected()
        let config = try configFile("[mqtt]\nreconnect_max = 1\n")
        defer { try? FileManager.default.removeItem(atPath: config) }
        // In real time (×1): an event's `time` is then the wall-clock time it happened (a demo
        // at ×N maps simulated seconds onto the wall clock N times faster), so "published while
        // the broker was down" can be told from the times. The random walk crosses zones often.
        let demo = try demo([
            "--accessories", "4", "--speed", "1", "--scenario", "random-walk", "--duration", "30", "--json", "--config", config,
            "--mqtt", broker.url(), "--mqtt-host", "hall",
        ])
        defer { demo.terminate() }
        // Zone changes, not retries: the scenario moves once every accessory ranges, and the
        // broker must go down while it does.
        try await watcher.wait("the first zone changes") { recorder in
            recorder.messages.filter { (try? json($0))?["type"] as? String == "zone" }.count >= 4
        }
        let down = Date().timeIntervalSince1970
        try await broker.stop()
        // Long enough that zone events of the 4 wandering accessories happen
        // while it is down, even if the loaded machine stalls the demo for a moment.
        try await Task.sleep(for: .seconds(6))
        let up = Date().timeIntervalSince1970
        try await broker.start()
        #expect(try await demo.waitForExit(timeout: .seconds(90)) == 0, "\(demo.stderr)")

        let expected = try objects(demo.stdout).filter { $0["event"] as? String == "ranging" }
        func key(_ object: [String: Any]) -> String {
            "\(object["accessory"] as? String ?? "?") \(object["t_s"] as? Double ?? -1) \(object["type"] as? String ?? "?") \(object["to"] as? String ?? "-")"
        }
        try await watcher.wait("every zone event", timeout: .seconds(30)) { $0.messages.count >= expected.count }
        // The event topic also carries retries (a loaded machine can make the demo retry); the
        // zone changes, lost and found must all be there.
        let received = try watcher.messages.map(json).filter { ["zone", "lost", "found"].contains($0["type"] as? String ?? "") }
        #expect(Set(received.map(key)) == Set(expected.map(key)), "missing: \(Set(expected.map(key)).subtracting(received.map(key)))")
        let queued = received.filter { ($0["time"] as? Double).map { $0 > down && $0 < up } ?? false }
        #expect(!queued.isEmpty, "events happened while the broker was down and arrived later")
        #expect(demo.stderr.contains("mqtt: the connection to 127.0.0.1:\(broker.port) was lost") && demo.stderr.contains("mqtt: reconnected"), "\(demo.stderr)")
        await watcher.client.stop()
    }

    @Test func aWrongPasswordIsExplainedAndRangingGoesOn() async throws {
        let broker = try await MosquittoBroker(users: ["nearby": "right-password-1"])
        let url = broker.url(user: "nearby")
        let wrong = try await ChildProcess.run(
            PackagePaths.nearby, ["demo", "--json", "--scenario", "walk-in", "--speed", "5", "--mqtt", url],
            environment: ["NEARBY_MQTT_PASSWORD": "wrong-password-2"], timeout: .seconds(120))
        #expect(wrong.status == 0, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("mqtt: the broker at 127.0.0.1:\(broker.port) refused the login (user 'nearby')"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("NEARBY_MQTT_PASSWORD") && wrong.stderr.contains("ranging goes on"))
        #expect(!wrong.stderr.contains("wrong-password-2") && !wrong.stdout.contains("wrong-password-2"))
        let updates = try objects(wrong.stdout).filter { $0["event"] as? String == "update" }
        #expect(updates.count > 30 && wrong.stderr.contains("summary:"))

        let right = try await ChildProcess.run(
            PackagePaths.nearby, ["demo", "--json", "--scenario", "walk-in", "--speed", "5", "--duration", "3", "--mqtt", url],
            environment: ["NEARBY_MQTT_PASSWORD": "right-password-1"], timeout: .seconds(120))
        #expect(right.status == 0 && right.stderr.contains("mqtt: connected to \(url)"), "\(right.stderr)")
    }

    @Test func tlsWithACAAndAClientCertificateFromTheConfigurationFile() async throws {
        let certificates = try await TestCertificates.make()
        let broker = try await MosquittoBroker(tls: .init(certificates: certificates, requireClientCertificate: true))
        var settings = try mqttConfiguration(broker.url(tls: true), id: "watch")
        settings.tls = MQTTTLSFiles(caFile: certificates.caFile, certificateFile: certificates.clientCertificate, keyFile: certificates.clientKey)
        let watcher = try MQTTRecorder(settings, subscribe: ["nearby/#"])
        try await watcher.connected()
        let config = try configFile(
            "[mqtt]\nca_file = \"\(certificates.caFile)\"\ncert_file = \"\(certificates.clientCertificate)\"\nkey_file = \"\(certificates.clientKey)\"\nprotocol = \"5\"\n")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let run = try await ChildProcess.run(
            PackagePaths.nearby,
            ["demo", "--scenario", "walk-in", "--speed", "5", "--config", config, "--mqtt", broker.url(tls: true), "--mqtt-host", "secure"],
            timeout: .seconds(120))
        #expect(run.status == 0 && run.stdout.contains("mqtt: connected to mqtts://127.0.0.1:\(broker.port)"), "\(run.stdout)\(run.stderr)")
        try await watcher.wait("the events and the offline status") { $0.messages(on: "nearby/secure/status").last?.text == "offline" }
        let zones = try watcher.messages(on: "nearby/secure/sim-1/event").map(json).compactMap { $0["to"] as? String }
        #expect(zones == ["far", "mid", "near"], "walk-in: far, mid, near: \(zones)")
        await watcher.client.stop()
    }

    @Test func twoHostsAndTheHouseView() async throws {
        let broker = try await MosquittoBroker()
        let watch = try ChildProcess(PackagePaths.nearby, ["watch", broker.url(), "--json"])
        defer { watch.terminate() }
        try await watch.waitForOutput("watching mqtt://127.0.0.1:\(broker.port)")
        let hall = try demo(["--scenario", "walk-in", "--speed", "5", "--mqtt", broker.url(), "--mqtt-host", "hall"])
        let desk = try demo(["--scenario", "walk-out", "--speed", "5", "--accessories", "2", "--mqtt", broker.url(), "--mqtt-host", "desk"])
        #expect(try await hall.waitForExit(timeout: .seconds(120)) == 0, "\(hall.stderr)")
        #expect(try await desk.waitForExit(timeout: .seconds(120)) == 0, "\(desk.stderr)")
        try await watch.waitForOutput(#""host":"desk","accessory":null,"kind":"status","topic":"nearby/desk/status","retained":false,"payload":"offline""#)
        try await watch.waitForOutput(#""host":"hall","accessory":null,"kind":"status","topic":"nearby/hall/status","retained":false,"payload":"offline""#)
        watch.signal(SIGINT)
        #expect(try await watch.waitForExit() == 0, "\(watch.stderr)")
        let lines = try objects(watch.stdout)
        #expect(Set(lines.compactMap { $0["host"] as? String }) == ["hall", "desk"])
        let states = lines.filter { $0["kind"] as? String == "state" }
        #expect(Set(states.map { "\($0["host"] as? String ?? "")/\($0["accessory"] as? String ?? "")" }) == ["hall/sim-1", "desk/sim-1", "desk/sim-2"])
        #expect(states.allSatisfy { ($0["payload"] as? [String: Any])?["host"] as? String == $0["host"] as? String })
        let events = lines.filter { $0["kind"] as? String == "event" && $0["host"] as? String == "hall" }
        #expect(events.compactMap { ($0["payload"] as? [String: Any])?["to"] as? String } == ["far", "mid", "near"])

        // Later, the text view starts from the retained state of both hosts.
        let text = try ChildProcess(PackagePaths.nearby, ["watch", broker.url()])
        defer { text.terminate() }
        try await text.waitForOutput("hall sim-1: near")
        try await text.waitForOutput("desk: offline")
        text.signal(SIGINT)
        #expect(try await text.waitForExit() == 0)
        let table = text.stdout.split(separator: "\n").drop { !$0.hasPrefix("HOST") }
        #expect(table.count == 4, "\(text.stdout)")
        #expect(table.contains { $0.hasPrefix("desk") && $0.contains("offline") && $0.contains("sim-2") })
        #expect(table.contains { $0.hasPrefix("hall") && $0.contains("offline") && $0.contains("sim-1") && $0.contains(" near ") })
    }

    @Test func forgettingAnAccessoryRemovesItsEntities() async throws {
        let broker = try await MosquittoBroker()
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-store-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let migrate = try await ChildProcess.run(PackagePaths.nearby, ["accessories", "migrate", "--address", "F0:F1:F2:F3:F4:F5", "--name", "Keys", "--store", store])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let list = try await ChildProcess.run(PackagePaths.nearby, ["accessories", "list", "--json", "--store", store])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let id = try #require(records.first?["id"] as? String)
        let level = MQTTTopic.level(id)

        // What `nearby range` would have left: retained configs and state for the accessory.
        let topics = [
            "homeassistant/device/nearby_hall_\(level)/config", "homeassistant/sensor/nearby_hall/\(level)_distance/config", "homeassistant/sensor/nearby_hall/\(level)_zone/config",
            "homeassistant/binary_sensor/nearby_hall/\(level)_near/config", "nearby/hall/\(level)/state",
        ]
        let seeder = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "seed"))
        try await seeder.connected()
        for topic in topics + ["homeassistant/sensor/nearby_hall/other_distance/config"] {
            seeder.client.publish(MQTTMessage(topic: topic, text: "{}", qos: .atLeastOnce, retain: true))
        }
        try await seeder.wait("the acknowledgements") { $0.client.statistics.acknowledged == 6 }
        await seeder.client.stop()

        let config = try configFile("[mqtt]\nurl = \"\(broker.url())\"\nhost_name = \"hall\"\n")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let forget = try await ChildProcess.run(PackagePaths.nearby, ["accessories", "forget", "Keys", "--store", store, "--config", config])
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(forget.stdout.contains("removed its Home Assistant entities and state from \(broker.url())"), "\(forget.stdout)")
        let after = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "after"), subscribe: ["#"])
        try await after.wait("the retained messages left") { !$0.messages.isEmpty }
        try await Task.sleep(for: .milliseconds(300))
        #expect(after.messages.map(\.topic) == ["homeassistant/sensor/nearby_hall/other_distance/config"])
        await after.client.stop()

        // With the broker gone, forget still forgets and says what to clear by hand.
        _ = try await ChildProcess.run(PackagePaths.nearby, ["accessories", "migrate", "--address", "F0:F1:F2:F3:F4:F5", "--name", "Keys", "--store", store])
        try await broker.stop()
        let offline = try await ChildProcess.run(PackagePaths.nearby, ["accessories", "forget", "Keys", "--store", store, "--config", config])
        #expect(offline.status == 0 && offline.stdout.contains("forgot"), "\(offline.stderr)")
        #expect(offline.stderr.contains("connection refused") && offline.stderr.contains("mosquitto_pub -r -n -t 'nearby/hall/") && offline.stderr.contains("/state'"), "\(offline.stderr)")
    }
}
