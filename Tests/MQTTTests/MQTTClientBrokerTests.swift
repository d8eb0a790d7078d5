import Foundation
import MQTT
import NearbyTestSupport
import Testing

/// The client against a real broker (Debian's mosquitto on a free loopback port).
@Suite(.serialized) struct MQTTClientBrokerTests {
    @Test(arguments: MQTTProtocolVersion.allCases)
    func publishesQoS0QoS1AndRetainedMessages(_ version: MQTTProtocolVersion) async throws {
        let broker = try await MosquittoBroker()
        let subscriber = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "sub", version: version), subscribe: ["t/#"])
        try await subscriber.connected()
        let publisher = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "pub", version: version))
        try await publisher.connected()
        try await Task.sleep(for: .milliseconds(200))  // the subscription is in place
        #expect(publisher.client.publish(MQTTMessage(topic: "t/zero", text: "0")) == .sent)
        #expect(publisher.client.publish(MQTTMessage(topic: "t/one", text: "{\"a\":1}", qos: .atLeastOnce, format: .json)) == .queued)
        #expect(publisher.client.publish(MQTTMessage(topic: "t/kept", text: "last", qos: .atLeastOnce, retain: true)) == .sent)
        try await subscriber.wait("three messages") { $0.messages.count >= 3 }
        #expect(subscriber.messages(on: "t/zero").map(\.text) == ["0"])
        #expect(subscriber.messages(on: "t/one").map(\.text) == ["{\"a\":1}"] && subscriber.messages(on: "t/one").first?.qos == .atLeastOnce)
        try await publisher.wait("the acknowledgements of the QoS 1 and the retained message") { $0.client.statistics.acknowledged == 2 }

        // A late subscriber gets the retained message, flagged retained.
        let late = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "late", version: version), subscribe: ["t/#"])
        try await late.wait("the retained message") { !$0.messages.isEmpty }
        #expect(late.messages.map(\.topic) == ["t/kept"] && late.messages.first?.retain == true && late.messages.first?.text == "last")
        await publisher.client.stop()
        await subscriber.client.stop()
        await late.client.stop()
    }

    @Test func birthOnConnectAndWillPayloadOnStop() async throws {
        let broker = try await MosquittoBroker()
        let watcher = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "watch"), subscribe: ["status/#"])
        try await watcher.connected()
        var settings = try mqttConfiguration(broker.url(), id: "host")
        settings.will = MQTTMessage(topic: "status/host", text: "offline", qos: .atLeastOnce, retain: true)
        settings.birth = MQTTMessage(topic: "status/host", text: "online", qos: .atLeastOnce, retain: true)
        let host = try MQTTRecorder(settings)
        try await watcher.wait("online") { $0.messages(on: "status/host").map(\.text) == ["online"] }
        await host.client.stop()
        try await watcher.wait("offline") { $0.messages(on: "status/host").map(\.text) == ["online", "offline"] }
        #expect(host.client.publish(MQTTMessage(topic: "status/x", text: "late")) == .dropped)
        await watcher.client.stop()
    }

    @Test func reconnectsAfterABrokerRestartWithoutLosingQoS1Messages() async throws {
        let broker = try await MosquittoBroker(persistence: true)
        // The subscriber keeps its session on the broker, so messages published while it is
        // away wait for it.
        var subscriberSettings = try mqttConfiguration(broker.url(), id: "persistent-sub")
        subscriberSettings.sessionExpiry = 3600
        let subscriber = try MQTTRecorder(subscriberSettings, subscribe: ["events/#"])
        try await subscriber.connected()
        var publisherSettings = try mqttConfiguration(broker.url(), id: "pub")
        publisherSettings.birth = MQTTMessage(topic: "state/host", text: "online", qos: .atLeastOnce, retain: true)
        let publisher = try MQTTRecorder(publisherSettings)
        try await publisher.connected()
        try await Task.sleep(for: .milliseconds(200))
        for index in 1...20 { publisher.client.publish(MQTTMessage(topic: "events/e", text: "\(index)", qos: .atLeastOnce)) }
        try await subscriber.wait("the first 20") { $0.messages.count == 20 }

        try await broker.stop()
        try await publisher.wait("the disconnect") { !$0.client.isConnected }
        for index in 21...40 { #expect(publisher.client.publish(MQTTMessage(topic: "events/e", text: "\(index)", qos: .atLeastOnce)) == .queued) }
        #expect(publisher.client.publish(MQTTMessage(topic: "events/zero", text: "lost")) == .dropped)
        #expect(publisher.client.statistics.queued == 20)
        try await broker.start()

        try await subscriber.wait("all 40, in order", timeout: .seconds(30)) { $0.messages(on: "events/e").count >= 40 }
        let numbers = subscriber.messages(on: "events/e").compactMap { Int($0.text) }
        #expect(Array(Set(numbers)).sorted() == Array(1...40), "\(numbers)")
        #expect(numbers.filter { $0 > 20 } == Array(21...40), "queued messages keep their order: \(numbers)")
        #expect(publisher.events.contains { $0.hasPrefix("connection lost") }, "\(publisher.events)")
        #expect(publisher.client.statistics.connections == 2 && publisher.client.statistics.droppedOffline == 1)
        await publisher.client.stop()
        await subscriber.client.stop()
    }

    @Test func theOfflineQueueIsBoundedAndDropsTheOldest() async throws {
        let broker = try await MosquittoBroker()
        var settings = try mqttConfiguration(broker.url(), id: "pub")
        settings.queueLimit = 10
        let publisher = try MQTTRecorder(settings, start: false)
        for index in 1...25 { publisher.client.publish(MQTTMessage(topic: "q/e", text: "\(index)", qos: .atLeastOnce)) }
        try await publisher.wait("15 drops reported") { $0.events.contains { $0.contains("(15 in all)") } }
        #expect(publisher.client.statistics.droppedQueueFull == 15 && publisher.client.statistics.queued == 10)

        let subscriber = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "sub"), subscribe: ["q/#"])
        try await subscriber.connected()
        try await Task.sleep(for: .milliseconds(200))
        publisher.client.start()
        try await subscriber.wait("the 10 kept") { $0.messages.count == 10 }
        #expect(subscriber.messages.map(\.text) == (16...25).map(String.init))
        await publisher.client.stop()
        await subscriber.client.stop()
    }

    @Test(arguments: MQTTProtocolVersion.allCases)
    func aWrongPasswordIsReportedClearlyAndTheRightOneConnects(_ version: MQTTProtocolVersion) async throws {
        let broker = try await MosquittoBroker(users: ["nearby": "right horse battery"])
        var wrong = try mqttConfiguration(broker.url(user: "nearby"), id: "wrong", version: version)
        wrong.password = MQTTSecret("wrong staple")
        let refused = try MQTTRecorder(wrong)
        try await refused.wait("the refusal") { !$0.failures.isEmpty }
        let failure = try #require(refused.failures.first)
        #expect(failure.code == .badCredentials && failure.needsUserAction, "\(failure)")
        #expect(failure.description.contains("refused the login (user 'nearby')") && failure.description.contains("password"))
        #expect(!failure.description.contains("wrong staple") && !refused.events.joined().contains("wrong staple"))
        #expect("\(wrong)".contains("<redacted>") && !"\(wrong)".contains("wrong staple"))
        await refused.client.stop()

        let anonymous = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "anonymous", version: version))
        try await anonymous.wait("the refusal") { !$0.failures.isEmpty }
        #expect(anonymous.failures.first?.code == .notAuthorized, "\(anonymous.failures)")
        await anonymous.client.stop()

        var right = try mqttConfiguration(broker.url(user: "nearby"), id: "right", version: version)
        right.password = MQTTSecret("right horse battery")
        let accepted = try MQTTRecorder(right)
        try await accepted.connected()
        await accepted.client.stop()
    }

    @Test func noBrokerMeansConnectionRefusedAndRetries() async throws {
        let port = try freeTCPPort()
        let client = try MQTTRecorder(try mqttConfiguration("mqtt://127.0.0.1:\(port)", id: "nobody"))
        try await client.wait("two failures") { $0.failures.count >= 2 }
        #expect(client.failures.allSatisfy { $0.code == .network && $0.description.contains("connection refused") }, "\(client.failures)")
        await client.client.stop()
    }

    @Test func tlsWithACAAndAClientCertificate() async throws {
        let certificates = try await TestCertificates.make()
        let broker = try await MosquittoBroker(tls: .init(certificates: certificates, requireClientCertificate: true))
        for version in MQTTProtocolVersion.allCases {
            var settings = try mqttConfiguration(broker.url(tls: true), id: "tls", version: version)
            settings.tls = MQTTTLSFiles(caFile: certificates.caFile, certificateFile: certificates.clientCertificate, keyFile: certificates.clientKey)
            let subscriber = try MQTTRecorder(settings, subscribe: ["tls/#"])
            try await subscriber.connected()
            subscriber.client.publish(MQTTMessage(topic: "tls/echo", text: "over TLS", qos: .atLeastOnce))
            try await subscriber.wait("the echo") { $0.messages.map(\.text) == ["over TLS"] }
            await subscriber.client.stop()
        }

        // A CA that did not sign the broker's certificate: a TLS error naming the problem.
        var untrusted = try mqttConfiguration(broker.url(tls: true), id: "untrusted")
        untrusted.tls = MQTTTLSFiles(caFile: certificates.otherCAFile, certificateFile: certificates.clientCertificate, keyFile: certificates.clientKey)
        let refused = try MQTTRecorder(untrusted)
        try await refused.wait("the TLS failure") { !$0.failures.isEmpty }
        #expect(refused.failures.first?.code == .tls && refused.failures.first?.description.contains("certificate verify failed") == true, "\(refused.failures)")
        await refused.client.stop()

        // The host name must match the certificate (it names 127.0.0.1 and localhost).
        var localhost = try mqttConfiguration(broker.url(tls: true, host: "localhost"), id: "localhost")
        localhost.tls = MQTTTLSFiles(caFile: certificates.caFile, certificateFile: certificates.clientCertificate, keyFile: certificates.clientKey)
        let named = try MQTTRecorder(localhost)
        try await named.connected()
        await named.client.stop()

        // Files that cannot be read fail before any connection, naming the file.
        var missing = try mqttConfiguration(broker.url(tls: true), id: "missing")
        missing.tls = MQTTTLSFiles(caFile: certificates.directory + "/nope.crt")
        #expect {
            _ = try MQTTClient(configuration: missing)
        } throws: { error in
            (error as? MQTTError)?.code == .invalidConfiguration && "\(error)".contains("nope.crt")
        }
    }
}
