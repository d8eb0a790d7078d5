import MQTT
import NearbyConfig
import NearbyMQTT
import NearbyTestSupport
import Testing

/// What `nearby accessories forget` and the ranging commands ask of an MQTT setup, without a broker.
@Suite struct MQTTSetupTests {
    func setup(port: Int) throws -> MQTTSetup {
        try #require(try MQTTSetup(
            settings: MQTTSettings(), url: try MQTTBrokerURL(parsing: "mqtt://127.0.0.1:\(port)"), hostName: "hall", role: .forget, environment: [:]))
    }

    @Test func forgettingWithoutABrokerSaysHowToCleanUpByHand() async throws {
        let setup = try setup(port: try freeTCPPort())
        let (removed, message) = await setup.forgetAccessory("F0:F1:F2:F3:F4:F5", timeout: .milliseconds(500))
        #expect(!removed)
        #expect(message.hasPrefix("its Home Assistant entities stay on mqtt://127.0.0.1:"))
        #expect(message.contains("mosquitto_pub -r -n -t 'homeassistant/sensor/nearby_hall/f0_f1_f2_f3_f4_f5_distance/config'"))
        #expect(message.contains("mosquitto_pub -r -n -t 'nearby/hall/f0_f1_f2_f3_f4_f5/state'"))
    }

    @Test func thePublisherCarriesTheSoftwareVersion() throws {
        let publisher = try setup(port: try freeTCPPort()).makePublisher(softwareVersion: "9.8.7", notes: { _ in })
        #expect(publisher.options.softwareVersion == "9.8.7")
        #expect(publisher.topics.host == "hall")
    }
}
