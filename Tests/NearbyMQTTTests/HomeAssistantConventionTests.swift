import Foundation
import MQTT
import NIProtocol
import NearbyConfig
import NearbyMQTT
import NearbyRuntime
import NearbyTestSupport
import Synchronization
import Testing

/// Home Assistant's MQTT conventions, against a real broker (specs/mqtt.md, "Home Assistant";
/// Home Assistant's MQTT docs: device-based discovery, birth message, availability,
/// `expire_after`, `json_attributes_template`, diagnostic entities, device tracker, migration).
@Suite(.serialized) struct HomeAssistantConventionTests {
    func json(_ message: MQTTMessage) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any], "\(message)")
    }

    @Test func everyConventionAndTheReannouncementOnHomeAssistantsBirth() async throws {
        let broker = try await MosquittoBroker()
        let level = "f0_f1_f2_f3_f4_f5"
        // What an earlier version left: single-component configs of this host.
        let legacy = "homeassistant/sensor/nearby_hall/\(level)_distance/config"
        let seeder = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "seed"))
        try await seeder.connected()
        seeder.client.publish(MQTTMessage(topic: legacy, text: #"{"name":"hall distance","unique_id":"nearby_hall_\#(level)_distance"}"#, qos: .atLeastOnce, retain: true))
        try await seeder.wait("the legacy config") { $0.client.statistics.acknowledged == 1 }

        let watcher = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "ha"), subscribe: ["homeassistant/#", "nearby/#"])
        try await watcher.connected()
        let setup = try #require(try MQTTSetup(settings: MQTTSettings(), url: try MQTTBrokerURL(parsing: broker.url()), hostName: "hall", role: .replay, environment: [:]))
        var options = setup.publisher
        options.heartbeat = 5
        options.suggestedArea = "Hall"
        options.configurationURL = "http://hall.local:8080/"
        options.softwareVersion = "9.9"
        options.reannounceJitter = 0.2
        let publisher = MQTTPublisher(client: try MQTTClient(configuration: setup.client), topics: setup.topics, options: options)
        let settings = try RunSettings(configuration: NearbyConfiguration())
        let identity = AccessoryIdentity(id: "F0:F1:F2:F3:F4:F5", displayName: "Keys")
        let run = RangingRun(context: RunContext(accessories: [identity], zones: settings.zones, start: 0, wallStart: 1_700_000_000), outputs: [publisher])
        #expect(await publisher.client.waitUntilConnected(timeout: .seconds(20)))
        _ = try await TraceReplay.replay(path: PackagePaths.file("data/synthetic/hover_1p5m.csv").path, speed: 0, identity: identity, settings: settings, into: run)
        let hostTopic = "homeassistant/device/nearby_hall/config"
        let accessoryTopic = "homeassistant/device/nearby_hall_\(level)/config"
        try await watcher.wait("the device configs") { !$0.messages(on: hostTopic).isEmpty && !$0.messages(on: accessoryTopic).isEmpty }

        // The host's device: suggested area, configuration URL, origin, a diagnostic connectivity sensor.
        let host = try json(try #require(watcher.messages(on: hostTopic).last))
        let hostDevice = try #require(host["dev"] as? [String: Any])
        #expect(hostDevice["ids"] as? [String] == ["nearby_hall"] && hostDevice["sa"] as? String == "Hall")
        #expect(hostDevice["cu"] as? String == "http://hall.local:8080/" && hostDevice["sw"] as? String == "9.9")
        #expect((host["o"] as? [String: Any])?["name"] as? String == "nearby" && (host["o"] as? [String: Any])?["sw"] as? String == "9.9")
        let status = try #require((host["cmps"] as? [String: Any])?["status"] as? [String: Any])
        #expect(status["p"] as? String == "binary_sensor" && status["device_class"] as? String == "connectivity")
        #expect(status["entity_category"] as? String == "diagnostic" && status["state_topic"] as? String == "nearby/hall/status")
        #expect(status["unique_id"] as? String == "nearby_hall_status")

        // The accessory: one device shared by every host, no via_device, every entity.
        let accessory = try json(try #require(watcher.messages(on: accessoryTopic).last))
        let device = try #require(accessory["dev"] as? [String: Any])
        #expect(device["ids"] as? [String] == ["nearby_accessory_\(level)"] && device["name"] as? String == "Keys" && device["via_device"] == nil)
        #expect(accessory["state_topic"] as? String == "nearby/hall/\(level)/state" && accessory["o"] != nil)
        let availability = try #require(accessory["availability"] as? [[String: Any]])
        #expect(accessory["availability_mode"] as? String == "all" && availability.count == 2)
        #expect(availability[0]["topic"] as? String == "nearby/hall/status" && availability[0]["payload_available"] as? String == "online")
        #expect(availability[1]["topic"] as? String == "nearby/hall/\(level)/state")
        #expect((availability[1]["value_template"] as? String)?.contains("'failed'") == true)
        let components = try #require(accessory["cmps"] as? [String: [String: Any]])
        #expect(Set(components.keys) == ["distance", "zone", "near", "presence", "azimuth", "velocity", "figure_of_merit", "nlos", "update_rate"])
        for (name, component) in components {
            #expect(component["p"] != nil && (component["unique_id"] as? String)?.hasPrefix("nearby_hall_\(level)_") == true, "\(name)")
            let diagnostic = ["azimuth", "velocity", "figure_of_merit", "nlos", "update_rate"].contains(name)
            #expect((component["entity_category"] as? String == "diagnostic") == diagnostic, "\(name)")
            #expect((component["enabled_by_default"] as? Bool == false) == diagnostic, "\(name)")
            #expect((component["expire_after"] as? Int == 15) == (component["p"] as? String != "device_tracker"), "\(name): expire_after = 3 heartbeats")
        }
        #expect(components["distance"]?["unique_id"] as? String == "nearby_hall_\(level)_distance", "the unique id of earlier versions: settings survive")
        let tracker = try #require(components["presence"])
        #expect(tracker["p"] as? String == "device_tracker" && tracker["source_type"] as? String == "bluetooth_le")
        #expect(tracker["payload_not_home"] as? String == "not_home" && (tracker["value_template"] as? String)?.contains("tracking") == true)
        let zone = try #require(components["zone"])
        #expect((zone["options"] as? [String])?.last == "not_home" && (zone["value_template"] as? String)?.contains("not_home") == true)
        let template = try #require(zone["json_attributes_template"] as? String)
        #expect(template.contains("session") && !template.contains("distance"), "slow keys only as attributes: \(template)")

        // The legacy config was migrated, then cleared (after the device config, same unique ids).
        try await watcher.wait("the legacy config cleared") { $0.messages(on: legacy).last?.payload.isEmpty == true }
        let all = watcher.messages
        let migrated = try #require(all.firstIndex { $0.topic == legacy && $0.text.contains("migrate_discovery") }, "\(all.map(\.description))")
        let cleared = try #require(all.lastIndex { $0.topic == legacy && $0.payload.isEmpty })
        let configured = try #require(all.indices.last { all[$0].topic == accessoryTopic && $0 < cleared })
        #expect(migrated < configured && configured < cleared, "migrate, then the device config, then clear")

        // States carry last_seen; a still accessory is published again at least every heartbeat.
        // (The states follow the configs: on a loaded machine they may not have reached the
        // watcher yet when the legacy config is seen cleared.)
        try await watcher.wait("a state with last_seen") { recorder in
            recorder.messages(on: "nearby/hall/\(level)/state").contains { (try? json($0))?["last_seen"] as? Double != nil }
        }
        let states = try watcher.messages(on: "nearby/hall/\(level)/state").map(json)
        #expect(states.contains { $0["last_seen"] as? Double != nil })
        let times = states.compactMap { $0["t_s"] as? Double }
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 <= 5.3 }, "a gap longer than the heartbeat: \(times)")

        // Home Assistant's birth message: every config again, then the states.
        let before = (watcher.messages(on: hostTopic).count, watcher.messages(on: accessoryTopic).count, watcher.messages(on: "nearby/hall/\(level)/state").count)
        let homeAssistant = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "ha-birth"))
        try await homeAssistant.connected()
        homeAssistant.client.publish(MQTTMessage(topic: "homeassistant/status", text: "online", qos: .atLeastOnce))
        try await watcher.wait("the re-announcement") { recorder in
            recorder.messages(on: hostTopic).count > before.0 && recorder.messages(on: accessoryTopic).count > before.1
                && recorder.messages(on: "nearby/hall/\(level)/state").count > before.2
        }
        // `offline` from Home Assistant (its will) announces nothing.
        let after = watcher.messages(on: accessoryTopic).count
        homeAssistant.client.publish(MQTTMessage(topic: "homeassistant/status", text: "offline", qos: .atLeastOnce))
        try await Task.sleep(for: .milliseconds(800))
        #expect(watcher.messages(on: accessoryTopic).count == after)

        _ = await run.finish(interrupted: false)
        // A late subscriber (Home Assistant restarting) finds the retained device configs, not the legacy one.
        let late = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "late"), subscribe: ["homeassistant/#"])
        try await late.wait("the retained configs") { $0.messages.count >= 2 }
        try await Task.sleep(for: .milliseconds(300))
        #expect(Set(late.messages.map(\.topic)) == [hostTopic, accessoryTopic])
        for recorder in [watcher, late, homeAssistant, seeder] { await recorder.client.stop() }
    }
}
