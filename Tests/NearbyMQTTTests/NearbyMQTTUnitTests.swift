import Foundation
import MQTT
import NIProtocol
import NearbyConfig
import NearbyMQTT
import Testing

/// The pieces without a broker: throttle, topics, discovery payloads, settings, the house view.
@Suite struct NearbyMQTTUnitTests {
    @Test func theThrottleLimitsRateAndIgnoresSmallChanges() {
        var throttle = DistanceThrottle(rate: 2, step: 0.1)
        #expect(throttle.shouldPublish(3.0, at: 0))
        throttle.published(3.0, at: 0)
        #expect(!throttle.shouldPublish(2.0, at: 0.4), "0.4 s after the last: too soon")
        #expect(throttle.shouldPublish(2.0, at: 0.5))
        #expect(!throttle.shouldPublish(3.05, at: 10), "a 5 cm change is not published")
        #expect(throttle.shouldPublish(3.1, at: 10))
        #expect(!throttle.shouldPublish(nil, at: 10))
        throttle.reset()
        #expect(throttle.shouldPublish(3.0, at: 0.1))
    }

    @Test func topicsUseSafeLevels() {
        let topics = MQTTTopics(host: "Hall PC")
        #expect(topics.status == "nearby/hall_pc/status")
        #expect(topics.state("F0:F1:F2:F3:F4:F5") == "nearby/hall_pc/f0_f1_f2_f3_f4_f5/state")
        #expect(topics.event("sim-1") == "nearby/hall_pc/sim-1/event" && topics.distance("sim-1") == "nearby/hall_pc/sim-1/distance")
        #expect(MQTTTopics(prefix: "house", host: "desk").everyHost == "house/#")
    }

    func json(_ message: MQTTMessage) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any], "\(message)")
    }

    @Test func discoveryHasWhatHomeAssistantRequires() throws {
        let discovery = HomeAssistantDiscovery(topics: MQTTTopics(host: "hall"), softwareVersion: "9.9", expireAfter: 180)
        let host = discovery.hostConfig()
        #expect(host.topic == "homeassistant/device/nearby_hall/config" && host.retain && host.qos == .atLeastOnce)
        let hostConfig = try json(host)
        #expect((hostConfig["dev"] as? [String: Any])?["ids"] as? [String] == ["nearby_hall"] && hostConfig["o"] != nil)
        let status = try #require((hostConfig["cmps"] as? [String: Any])?["status"] as? [String: Any])
        #expect(status["state_topic"] as? String == "nearby/hall/status" && status["device_class"] as? String == "connectivity")
        #expect((hostConfig["dev"] as? [String: Any])?["sa"] == nil, "no suggested area unless the house says")

        let config = discovery.accessoryConfig(AccessoryIdentity(id: "F0:F1:F2:F3:F4:F5", displayName: "Keys"), zoneNames: ["near", "mid", "far"])
        #expect(config.topic == "homeassistant/device/nearby_hall_f0_f1_f2_f3_f4_f5/config" && config.retain && config.qos == .atLeastOnce)
        let object = try json(config)
        #expect(object["state_topic"] as? String == "nearby/hall/f0_f1_f2_f3_f4_f5/state")
        let device = try #require(object["dev"] as? [String: Any])
        #expect(device["ids"] as? [String] == ["nearby_accessory_f0_f1_f2_f3_f4_f5"] && device["name"] as? String == "Keys" && device["via_device"] == nil)
        let components = try #require(object["cmps"] as? [String: [String: Any]])
        #expect(Set(components.values.compactMap { $0["unique_id"] as? String }).count == components.count)
        #expect(components["distance"]?["unit_of_measurement"] as? String == "m" && components["distance"]?["expire_after"] as? Int == 180)
        #expect(components["zone"]?["options"] as? [String] == ["near", "mid", "far", "not_home"])
        #expect(components["presence"]?["p"] as? String == "device_tracker" && components["presence"]?["expire_after"] == nil)

        let removal = discovery.removal(accessoryID: "F0:F1:F2:F3:F4:F5")
        #expect(removal.map(\.topic) == [
            "homeassistant/device/nearby_hall_f0_f1_f2_f3_f4_f5/config",
            "homeassistant/sensor/nearby_hall/f0_f1_f2_f3_f4_f5_distance/config", "homeassistant/sensor/nearby_hall/f0_f1_f2_f3_f4_f5_zone/config",
            "homeassistant/binary_sensor/nearby_hall/f0_f1_f2_f3_f4_f5_near/config", "nearby/hall/f0_f1_f2_f3_f4_f5/state",
        ])
        #expect(removal.allSatisfy { $0.payload.isEmpty && $0.retain })
        #expect(HomeAssistantDiscovery.migration("t").text == #"{"migrate_discovery":true}"# && !HomeAssistantDiscovery.migration("t").retain)
    }

    @Test func setupResolvesRolesDefaultsAndThePasswordFromTheEnvironment() throws {
        var settings = MQTTSettings()
        settings.url = try MQTTBrokerURL(parsing: "mqtt://nearby@broker")
        settings.password = MQTTSecret("from-file")
        // range uses the file's url; demo and replay only --mqtt, and publish as a host of their own.
        let range = try #require(try MQTTSetup(settings: settings, url: nil, role: .range, environment: [:], machineHostName: "hall"))
        #expect(range.topics.host == "hall" && range.client.clientID == "nearby-hall" && range.client.password == MQTTSecret("from-file"))
        #expect(range.client.will?.topic == "nearby/hall/status" && range.client.will?.text == "offline" && range.client.will?.retain == true)
        #expect(range.client.birth?.text == "online" && range.client.protocolVersion == .v311)
        #expect(try MQTTSetup(settings: settings, url: nil, role: .demo, environment: [:], machineHostName: "hall") == nil)
        let demo = try #require(try MQTTSetup(settings: settings, url: settings.url, role: .demo, environment: [:], machineHostName: "hall"))
        #expect(demo.topics.host == "hall-demo" && demo.client.clientID == "nearby-hall-demo")
        let named = try #require(try MQTTSetup(settings: settings, url: settings.url, hostName: "desk", role: .demo, environment: [:], machineHostName: "hall"))
        #expect(named.topics.host == "desk")
        let environment = try #require(
            try MQTTSetup(settings: settings, url: nil, role: .range, environment: [MQTTSetup.passwordVariable: "from-env"], machineHostName: "hall"))
        #expect(environment.client.password == MQTTSecret("from-env"))
        let watch = try #require(try MQTTSetup(settings: settings, url: nil, role: .watch, environment: [:], machineHostName: "hall"))
        #expect(watch.client.will == nil && watch.client.clientID.hasPrefix("nearby-watch-"))

        var noUser = MQTTSettings()
        noUser.password = MQTTSecret("x")
        #expect(throws: MQTTError.self) { _ = try MQTTSetup(settings: noUser, url: try MQTTBrokerURL(parsing: "mqtt://b"), role: .demo, environment: [:]) }
    }

    @Test func aReadablePasswordFileIsWarnedAbout() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-mqtt-\(UUID().uuidString).toml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = FileManager.default.createFile(atPath: path, contents: Data("[mqtt]\npassword = \"x\"\n".utf8), attributes: [.posixPermissions: 0o644])
        var settings = MQTTSettings()
        settings.password = MQTTSecret("x")
        #expect(MQTTSetup.passwordFileWarning(path: path, settings: settings)?.contains("chmod 600 \(path)") == true)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(MQTTSetup.passwordFileWarning(path: path, settings: settings) == nil)
    }

    @Test("a command's setup: off without a broker; with one, the readable password file is warned about")
    func aCommandsSetup() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-mqtt-\(UUID().uuidString).toml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = FileManager.default.createFile(atPath: path, contents: Data("[mqtt]\npassword = \"x\"\n".utf8), attributes: [.posixPermissions: 0o644])
        var settings = MQTTSettings()
        settings.username = "u"
        settings.password = MQTTSecret("x")
        var notes: [String] = []
        #expect(try MQTTSetup.forCommand(settings, url: nil, hostName: nil, role: .demo, configPath: path, notes: { notes.append($0) }) == nil)
        #expect(notes.isEmpty, "MQTT off: nothing to warn about")
        let setup = try MQTTSetup.forCommand(
            settings, url: try MQTTBrokerURL(parsing: "mqtt://b"), hostName: "hall", role: .demo, configPath: path, notes: { notes.append($0) })
        #expect(setup?.topics.host == "hall")
        #expect(notes.count == 1 && notes[0].contains("chmod 600 \(path)"))
    }

    @Test func theWatchScreenIsJSONWhenAsked() {
        #expect(HouseWatchScreen.Mode.current(json: true, title: "t") == .json)
        #expect([.lines, .live(title: "t")].contains(HouseWatchScreen.Mode.current(json: false, title: "t")))
    }

    @Test func theHouseViewFollowsStatusStateAndEvents() throws {
        var house = HouseView()
        let foreign = house.apply(MQTTMessage(topic: "other/hall/status", text: "online"))
        #expect(foreign == nil)
        let applied = house.apply(MQTTMessage(topic: "nearby/hall/status", text: "online", retain: true))
        let online = try #require(applied)
        #expect(online.kind == .status && online.host == "hall" && online.text == "hall: online")
        #expect(online.jsonLine == #"{"host":"hall","accessory":null,"kind":"status","topic":"nearby/hall/status","retained":true,"payload":"online"}"#)
        let state = #"{"host":"hall","accessory":"sim-1","name":"Keys","time":1700000000,"session":"ranging","tracking":"tracking","zone":"near","distance_m":0.94,"azimuth_deg":5}"#
        let stateUpdate = house.apply(MQTTMessage(topic: "nearby/hall/sim-1/state", text: state, retain: true))
        let update = try #require(stateUpdate)
        #expect(update.kind == .state && update.accessory == "sim-1" && update.payloadIsJSON && update.text == "hall Keys: near, 0.94 m, ranging")
        #expect(update.jsonLine.hasSuffix(#""payload":\#(state)}"#))
        let event = #"{"type":"zone","from":"mid","to":"near","name":"Keys","distance_m":0.85}"#
        let eventUpdate = house.apply(MQTTMessage(topic: "nearby/hall/sim-1/event", text: event))
        #expect(eventUpdate?.text == "hall Keys: entered near from mid (0.85 m)")
        let distanceUpdate = house.apply(MQTTMessage(topic: "nearby/hall/sim-1/distance", text: "0.9"))
        #expect(distanceUpdate?.jsonLine.contains(#""payload":0.9"#) == true)
        _ = house.apply(MQTTMessage(topic: "nearby/desk/status", text: "offline"))
        #expect(house.hosts.map(\.name) == ["desk", "hall"] && house.hosts.map(\.online) == [false, true])
        let accessory = try #require(house.accessories.first)
        #expect(accessory.name == "Keys" && accessory.zone == "near" && accessory.distance == 0.9 && accessory.lastEvent == "entered near from mid (0.85 m)")
        let table = house.table()
        #expect(table.count == 3 && table[0].hasPrefix("HOST") && table[1].hasPrefix("desk  offline") && table[2].contains("Keys") && table[2].contains("0.90 m"))
        let removed = house.apply(MQTTMessage(topic: "nearby/hall/sim-1/state", payload: [], retain: true))
        #expect(removed?.text == "hall sim-1: removed")
        #expect(house.accessories.isEmpty)
    }
}
