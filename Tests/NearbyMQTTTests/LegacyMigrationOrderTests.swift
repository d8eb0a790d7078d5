import Foundation
import MQTT
import NearbyMQTT
import NearbyRuntime
import NearbyTestSupport
import NIProtocol
import NearbyConfig
import Ranging
import Testing

@testable import NearbyMQTT

/// Migrating a legacy single-component config when the broker hands it over before the
/// accessory's first update announced it (a race `HomeAssistantConventionTests` lost once on a
/// loaded machine): the migration waits for the announcement, so Home Assistant still sees
/// migrate → the new device config → the old config cleared (its MQTT docs, "Migration from
/// single component to device-based discovery"), never the clearing first.
@Suite struct LegacyMigrationOrderTests {
    @Test func aLegacyConfigSeenBeforeTheAnnouncementIsMigratedAtTheAnnouncement() async throws {
        let broker = try await MosquittoBroker()
        let watcher = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "ha"), subscribe: ["homeassistant/#"])
        try await watcher.connected()
        let setup = try #require(try MQTTSetup(settings: MQTTSettings(), url: try MQTTBrokerURL(parsing: broker.url()), hostName: "hall", role: .replay, environment: [:]))
        let publisher = MQTTPublisher(client: try MQTTClient(configuration: setup.client), topics: setup.topics, options: setup.publisher)
        publisher.client.start()
        #expect(await publisher.client.waitUntilConnected(timeout: .seconds(20)))
        let identity = AccessoryIdentity(id: "F0:F1:F2:F3:F4:F5", displayName: "Keys")
        let stranger = AccessoryIdentity(id: "A0:A1:A2:A3:A4:A5", displayName: "Not in this run")
        let context = RunContext(accessories: [identity], zones: .standard, start: 0, wallStart: 1_700_000_000)
        let discovery = publisher.discovery
        let legacy = discovery.legacyTopics(accessoryLevel: MQTTTopics.accessoryLevel(identity.id))[0]
        let strangerLegacy = discovery.legacyTopics(accessoryLevel: MQTTTopics.accessoryLevel(stranger.id))[0]
        var memory = MQTTPublisher.Memory()
        func publish(_ work: MQTTPublisher.Work) {
            MQTTPublisher.publish(
                work, client: publisher.client, topics: publisher.topics, discovery: discovery, options: publisher.options,
                zoneNames: ["B", "A"], context: context, memory: &memory)
        }

        // The run's accessory, not yet announced: nothing is published for its legacy config yet.
        publish(.migrate(legacy))
        #expect(memory.pendingMigrations == [legacy] && memory.migrated.isEmpty)
        // An accessory of no run here: migrated and cleared at once, as before.
        publish(.migrate(strangerLegacy))
        #expect(memory.migrated == [strangerLegacy])
        publish(.announce(identity))
        #expect(memory.pendingMigrations.isEmpty && memory.migrated == [legacy, strangerLegacy])
        publish(.migrate(legacy))  // seen again (retained): nothing more

        let accessoryTopic = discovery.accessoryConfigTopic(identity.id)
        try await watcher.wait("the legacy config cleared") { $0.messages(on: legacy).contains { $0.payload.isEmpty } }
        let order = watcher.messages.filter { $0.topic == legacy || $0.topic == accessoryTopic }.map { message in
            message.topic == accessoryTopic ? "config" : message.payload.isEmpty ? "clear" : message.text.contains("migrate_discovery") ? "migrate" : "other"
        }
        #expect(order == ["migrate", "config", "clear"])
        let strangers = watcher.messages.filter { $0.topic == strangerLegacy }.map { $0.payload.isEmpty ? "clear" : "migrate" }
        #expect(strangers == ["migrate", "clear"])
        await publisher.client.stop()
    }
}
