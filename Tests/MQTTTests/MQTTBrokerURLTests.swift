import MQTT
import Testing

@Suite struct MQTTBrokerURLTests {
    @Test func parsesSchemesHostsPortsAndUsers() throws {
        let plain = try MQTTBrokerURL(parsing: "mqtt://192.168.1.10")
        #expect(plain.host == "192.168.1.10" && plain.port == 1883 && !plain.isTLS && plain.username == nil)
        let tls = try MQTTBrokerURL(parsing: "mqtts://nearby@broker.local")
        #expect(tls.host == "broker.local" && tls.port == 8883 && tls.isTLS && tls.username == "nearby")
        let port = try MQTTBrokerURL(parsing: "MQTT://user%40home@[::1]:18830/")
        #expect(port.host == "::1" && port.port == 18830 && port.username == "user@home")
        #expect(port.description == "mqtt://user%40home@[::1]:18830" && port.endpoint == "[::1]:18830")
    }

    @Test func refusesPasswordsAndExplainsWhereTheyGo() {
        #expect {
            try MQTTBrokerURL(parsing: "mqtt://nearby:secret@host")
        } throws: { error in
            let text = "\(error)"
            return (error as? MQTTError)?.code == .invalidURL && text.contains("NEARBY_MQTT_PASSWORD") && !text.contains("secret")
        }
    }

    @Test(arguments: ["http://host", "mqtt://", "mqtt://host:0", "mqtt://host:70000", "mqtt://host/topic", "mqtt://[::1", "mqtt://@host", "host:1883"])
    func rejectsMalformedURLs(_ text: String) {
        #expect(throws: MQTTError.self) { try MQTTBrokerURL(parsing: text) }
    }

    @Test func topicLevelsAreSafeAndFiltersMatch() {
        #expect(MQTTTopic.level("Kitchen tag") == "kitchen_tag")
        #expect(MQTTTopic.level("F0:F1:F2:F3:F4:F5") == "f0_f1_f2_f3_f4_f5")
        #expect(MQTTTopic.level("a/b+#c") == "a_b_c")
        #expect(MQTTTopic.level("") == "_" && MQTTTopic.level("Küche") == "k_che")
        #expect(MQTTTopic.matches("nearby/+/status", "nearby/hall/status"))
        #expect(!MQTTTopic.matches("nearby/+/status", "nearby/hall/keys/state"))
        #expect(MQTTTopic.matches("nearby/#", "nearby/hall/keys/state"))
        #expect(MQTTTopic.matches("nearby/#", "nearby"))
        #expect(!MQTTTopic.matches("#", "$SYS/broker/uptime"))
    }
}
