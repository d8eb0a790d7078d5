import MQTT
import NearbyConfig
import Testing

/// `[mqtt]`: values, defaults left unset, every mistake with its key, no password anywhere.
@Suite struct MQTTSettingsTests {
    @Test func parsesEveryKey() throws {
        let config = try ConfigurationFile.parse(
            """
            [mqtt]
            url = "mqtts://nearby@broker.local:8884"
            client_id = "nearby-hall"
            host_name = "hall"
            topic_prefix = "house"
            discovery = false
            discovery_prefix = "ha"
            distance_rate = 5
            distance_step = 0.05
            protocol = "5"
            keepalive = 60
            username = "other"
            password = "correct horse"
            ca_file = "/etc/nearby/ca.crt"
            cert_file = "/etc/nearby/client.crt"
            key_file = "/etc/nearby/client.key"
            queue = 50
            reconnect_max = 10
            """, source: "mqtt.toml")
        let mqtt = config.mqtt
        #expect(mqtt.url == MQTTBrokerURL(host: "broker.local", port: 8884, isTLS: true, username: "nearby"))
        #expect(mqtt.clientID == "nearby-hall" && mqtt.hostName == "hall" && mqtt.topicPrefix == "house")
        #expect(mqtt.discovery == false && mqtt.discoveryPrefix == "ha" && mqtt.distanceRate == 5 && mqtt.distanceStep == 0.05)
        #expect(mqtt.protocolVersion == .v5 && mqtt.keepAlive == 60 && mqtt.username == "other" && mqtt.password == MQTTSecret("correct horse"))
        #expect(mqtt.caFile == "/etc/nearby/ca.crt" && mqtt.certFile == "/etc/nearby/client.crt" && mqtt.keyFile == "/etc/nearby/client.key")
        #expect(mqtt.queueLimit == 50 && mqtt.reconnectMaximum == 10)
        #expect(config.summary.contains("mqtt: mqtts://nearby@broker.local:8884, host hall, prefix house, discovery off, MQTT 5, password from the file"))
        #expect(!config.summary.contains("correct horse") && !"\(config)".contains("correct horse"))
    }

    @Test func theExampleLeavesMQTTOff() throws {
        let config = try ConfigurationFile.parse(ConfigurationFile.example, source: "example")
        #expect(config.mqtt.url == nil && config.mqtt.topicPrefix == "nearby" && config.mqtt.discovery == true)
        #expect(config.summary.contains("mqtt: off (no url)"))
    }

    @Test func mistakesAreReportedWithTheirKeys() {
        do {
            _ = try ConfigurationFile.parse(
                """
                [mqtt]
                url = "mqtt://nearby:secret@broker"
                host_name = "a/b"
                protocol = "4"
                keepalive = 2
                distance_rate = 0
                cert_file = "/x.crt"
                colour = 1
                """, source: "bad.toml")
            Issue.record("expected errors")
        } catch {
            let byKey = Dictionary(error.issues.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            #expect(byKey["mqtt.url"]?.message.contains("NEARBY_MQTT_PASSWORD") == true && byKey["mqtt.url"]?.line == 2)
            #expect(!error.description.contains("secret"))
            #expect(byKey["mqtt.host_name"]?.line == 3 && byKey["mqtt.protocol"]?.message.contains("\"3.1.1\" or \"5\"") == true)
            #expect(byKey["mqtt.keepalive"] != nil && byKey["mqtt.distance_rate"] != nil && byKey["mqtt.cert_file"]?.message.contains("key_file") == true)
            #expect(byKey["mqtt.colour"]?.message.hasPrefix("unknown key 'colour'") == true)
        }
    }
}
