import Foundation
import MQTT
import NearbyConfig
import NearbyMQTT
import NearbyTestSupport
import Positioning
import Synchronization
import Testing

/// `nearby watch --house`'s fusion on a real broker, fed by hand-made host messages: positions,
/// the MQTT Room and ESPresense feeds, the house's discovery again on Home Assistant's birth,
/// a host whose clock is ahead, and not_home.
@Suite(.serialized) struct HouseFusionServiceTests {
    final class Collected: Sendable {
        let outputs = Mutex<[HouseWatchOutput]>([])
        var notes: [String] { outputs.withLock { $0.compactMap { if case .note(let text) = $0 { text } else { nil } } } }
        var positions: [HousePosition] { outputs.withLock { $0.compactMap { if case .position(let p) = $0 { p } else { nil } } } }
    }

    func json(_ message: MQTTMessage) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any], "\(message)")
    }

    @Test func positionsFeedsDiscoverySkewAndNotHome() async throws {
        let broker = try await MosquittoBroker()
        let plan = try TestHouse.plan()
        var options = HouseFusionOptions(plan: plan)
        options.parameters.awayAfter = 2
        options.espresense = true
        options.softwareVersion = "9.9"
        let setup = try #require(try MQTTSetup(settings: MQTTSettings(), url: try MQTTBrokerURL(parsing: broker.url()), role: .watch, environment: [:]))
        let recorder = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "ha"), subscribe: ["nearby/house/#", "homeassistant/device/#", "room_presence/#", "espresense/#"])
        try await recorder.connected()
        let watch = try HouseWatch(setup: setup, house: options)
        let collected = Collected()
        let reader = Task { for await output in watch.updates() { collected.outputs.withLock { $0.append(output) } } }
        #expect(await watch.client.waitUntilConnected(timeout: .seconds(20)))

        // Three hosts hear "keys" standing at (2, 2) in the kitchen; living's clock is 2 s ahead.
        let hosts = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "hosts"))
        try await hosts.connected()
        for host in plan.hosts { hosts.client.publish(MQTTMessage(topic: "nearby/\(host.name)/status", text: "online", qos: .atLeastOnce, retain: true)) }
        let point = PlanePoint(x: 2, y: 2)
        func now() -> Double { Date().timeIntervalSince1970 }
        var lastSeen = 0.0
        for step in 0..<40 {
            for host in plan.hosts {
                let skew = host.name == "living" ? 2.0 : 0
                let time = now() + skew
                let d = (host.position.distance(to: point) * host.position.distance(to: point) + 0.04).squareRoot()
                let azimuth = host.position.bearing(to: point) - (host.heading ?? 0)
                hosts.client.publish(MQTTMessage(
                    topic: "nearby/\(host.name)/keys/range",
                    text: #"{"time":\#(time),"distance_m":\#(d),"azimuth_deg":\#(azimuth),"figure_of_merit":90,"nlos":false}"#))
                if step == 0 || step == 39 {
                    hosts.client.publish(MQTTMessage(
                        topic: "nearby/\(host.name)/keys/state",
                        text: #"{"host":"\#(host.name)","accessory":"Keys-1","name":"Keys","time":\#(time),"session":"ranging","tracking":"tracking","distance_m":\#(d),"raw_distance_m":\#(d),"last_seen":\#(time)}"#,
                        retain: true))
                }
                lastSeen = now()
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        try await recorder.wait("a position in the kitchen") { recorder in
            recorder.messages(on: "nearby/house/keys/position").contains { (try? json($0))?["room"] as? String == "kitchen" }
        }
        let position = try json(try #require(recorder.messages(on: "nearby/house/keys/position").last))
        let x = try #require(position["x_m"] as? Double)
        let y = try #require(position["y_m"] as? Double)
        #expect(PlanePoint(x: x, y: y).distance(to: point) < 0.1, "\(position)")
        #expect(position["accessory"] as? String == "Keys-1" && position["name"] as? String == "Keys" && position["state"] as? String == "kitchen")
        #expect((position["hosts"] as? [String]).map(Set.init) == ["kitchen", "hall", "living"], "\(position)")
        #expect(collected.notes.contains { $0.contains("host living's clock is") && $0.contains("ahead") }, "\(collected.notes)")
        #expect(collected.positions.contains { $0.fused.room == "kitchen" })

        // Home Assistant: the house's devices, the MQTT Room feed, the ESPresense feed.
        let config = try json(try #require(recorder.messages(on: "homeassistant/device/nearby_house_keys/config").last))
        #expect((config["dev"] as? [String: Any])?["via_device"] as? String == "nearby_house")
        #expect(((config["cmps"] as? [String: Any])?["room"] as? [String: Any])?["source_type"] as? String == "bluetooth_le")
        #expect(recorder.messages(on: "nearby/house/status").last?.text == "online")
        let room = try json(try #require(recorder.messages(on: "room_presence/kitchen").last))
        #expect(room["id"] as? String == "Keys-1" && room["distance"] as? Double == 0)
        #expect(!recorder.messages(on: "espresense/devices/keys/hall").isEmpty)

        // Home Assistant restarts: the house's configs again.
        let before = recorder.messages(on: "homeassistant/device/nearby_house_keys/config").count
        hosts.client.publish(MQTTMessage(topic: "homeassistant/status", text: "online", qos: .atLeastOnce))
        try await recorder.wait("the re-announcement") {
            $0.messages(on: "homeassistant/device/nearby_house_keys/config").count > before
                && $0.messages(on: "homeassistant/device/nearby_house/config").count >= 2
        }

        // Every host loses it: not_home away_after seconds after it was last heard.
        for host in plan.hosts {
            let skew = host.name == "living" ? 2.0 : 0
            hosts.client.publish(MQTTMessage(
                topic: "nearby/\(host.name)/keys/state",
                text: #"{"host":"\#(host.name)","accessory":"Keys-1","name":"Keys","time":\#(now() + skew),"session":"ranging","tracking":"lost","last_seen":\#(lastSeen + skew)}"#,
                retain: true))
        }
        try await recorder.wait("not_home") { recorder in
            recorder.messages(on: "nearby/house/keys/position").contains { (try? json($0))?["state"] as? String == "not_home" }
        }
        let away = try json(try #require(recorder.messages(on: "nearby/house/keys/position").last))
        let time = try #require(away["time"] as? Double)
        #expect(abs(time - (lastSeen + 2)) < 0.3, "stamped at last seen + away_after: \(time - lastSeen)")
        #expect(away["x_m"] is NSNull && away["presence"] as? String == "not_home")

        await watch.stop()
        reader.cancel()
        for client in [recorder, hosts] { await client.client.stop() }
    }
}
