import LowEnergy
import NearbySupport
import NearbyTestSupport
import Synchronization
import Testing

extension BumbleTests {
    /// This host as an accessory: advertising, the GATT server, the data channel server, with
    /// Bumble phones (Tests/Peers/blepeer/phone.py) as the centrals.
    @Suite("Bumble: peripheral role (advertising, GATT server, data channels as server)")
    struct Peripheral {
        /// The host under test as a fake NI accessory: a 38-byte 0x01 for 0x0A, 0x02 for a
        /// 31-byte 0x0B, 0x03 for 0x0C (no UWB: this suite tests the BLE side).
        final class FakeAccessory: Sendable {
            let host: BLEHost
            let server: GATTServer
            let channels: DataChannelServer
            let advertiser: Advertiser
            let opened = ElementBox<GATTServerDataChannel>()
            let received = ElementBox<[UInt8]>()
            let sendErrors = ElementBox<String>()
            let advertiserEvents: AsyncStream<AdvertiserEvent>
            static let name = "nb-accessory"
            static let acd: [UInt8] = [0x01] + [UInt8](repeating: 0x11, count: 37)

            init(peer: BumblePeer, maximumConnections: Int = 4,
                 advertised: [BluetoothUUID] = [DataChannelService.qorvoNI.service]) async throws {
                var configuration = BLEHostConfiguration(commandTimeout: .seconds(5))
                configuration.acceptsPeripheralConnections = true
                host = try await peer.startHost(configuration)
                let services = [GATTServerService.genericAccess(name: Self.name), .genericAttribute]
                    + DataChannelServer.services(for: [.qorvoNI, .nordicUART])
                server = try GATTServer(services: services, logger: testLogger)
                await host.setGATTServer(server)
                channels = try await DataChannelServer(server: server, host: host, services: [.qorvoNI, .nordicUART], logger: testLogger)
                advertiser = Advertiser(host: host, configuration: .accessory(services: advertised, name: Self.name,
                                                                                 maximumConnections: maximumConnections), logger: testLogger)
                advertiserEvents = advertiser.events()
                let stream = channels.channels
                let (opened, received, errors) = (opened, received, sendErrors)
                Task {
                    for await channel in stream {
                        opened.append(channel)
                        Task {
                            for await message in channel.messages {
                                received.append(message)
                                let answer: [UInt8]? = switch message.first {
                                case 0x0A: Self.acd
                                case 0x0B where message.count == 31: [0x02]
                                case 0x0C: [0x03]
                                default: nil
                                }
                                guard let answer else { continue }
                                do {
                                    try await channel.send(answer)
                                } catch {
                                    errors.append("\(error)")
                                }
                            }
                        }
                    }
                }
                try await advertiser.start()
            }
        }

        @Test("a phone finds the service UUID and the name, reads GAP, gets 0x01 (Invalid Handle), 0x07 (Invalid Offset), pairs for SEC, exchanges NI messages")
        func probe() async throws {
            let peer = try await BumblePeer.start(["--accessories", "0", "--phones", "1", "--phone-script", "probe"])
            defer { peer.stop() }
            let accessory = try await FakeAccessory(peer: peer)
            try await peer.waitFor("PHONE-STARTED", timeout: .seconds(60))
            // Flags and the 128-bit service UUID advertised; the name in the scan response.
            #expect(peer.lines("ADV-DATA extended data=0201061107020012ac4202eba1ed11616ad08f932e").count == 1, "\(peer.lines("ADV-DATA"))")
            #expect(peer.lines("SCAN-RESPONSE-DATA extended data=0d096e622d6163636573736f7279").count == 1, "\(peer.lines("SCAN-RESPONSE"))")
            #expect(peer.lines("PHONE-SEEN").first?.contains("address=\(await accessory.host.ownAddress!)") == true)
            let services = try #require(peer.lines("PHONE-PROBE services=").first)
            for uuid in ["1800", "1801", "2E938FD0-6A61-11ED-A1EB-0242AC120002", "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"] {
                #expect(services.contains(uuid), "\(services)")
            }
            #expect(peer.lines("PHONE-PROBE name=\(FakeAccessory.name)").count == 1)
            #expect(peer.lines("PHONE-PROBE unknown-handle error=0x01").count == 1)
            #expect(peer.lines("PHONE-PROBE bad-offset error=0x07").count == 1)
            #expect(peer.lines("PHONE-PROBE sec error=0x05").count == 1, "Insufficient Authentication before pairing")
            #expect(peer.lines("PHONE-PROBE sec-after-pairing value=Qorvo").count == 1)
            #expect(peer.lines("PHONE-MTU mtu=185").count == 1, "the phone's 185 (below our 247)")
            let acd = try #require(peer.lines("PHONE-ACD").first)
            #expect(acd.contains("length=38 hex=01" + String(repeating: "11", count: 37)))
            #expect(accessory.received.elements.map(\.count) == [1, 31], "0x0A, then 0x0B with 30 bytes of shareable data")
            let channel = try #require(accessory.opened.elements.first)
            #expect(channel.service == .qorvoNI)
            #expect(channel.maximumMessageLength == 182)
            #expect(await channel.connection.security.isEncrypted)
            await accessory.host.close()
        }

        @Test("two phones at once, each with its own channel; advertising goes on while one is connected (extended and legacy commands)")
        func twoPhones() async throws {
            for legacy in [false, true] {
                let peer = try await BumblePeer.start(["--accessories", "0", "--phones", "2", "--phone-script", "ni"] + (legacy ? ["--legacy-only"] : []))
                defer { peer.stop() }
                let accessory = try await FakeAccessory(peer: peer)
                #expect(await accessory.host.usesExtendedCommands == !legacy)
                try await peer.waitForLines("PHONE-STARTED", count: 2, timeout: .seconds(60))
                let opened = accessory.opened.elements
                #expect(opened.count == 2)
                #expect(Set(opened.map(\.peerAddress.description)) == ["D0:00:00:00:00:01", "D0:00:00:00:00:02"])
                #expect(accessory.received.elements.filter { $0 == [0x0A] }.count == 2)
                #expect(await accessory.advertiser.enableCount >= 2, "advertising was enabled again after the first phone connected")
                #expect(await accessory.advertiser.isAdvertising, "still advertising with 2 of 4 connected")
                await accessory.host.close()
            }
        }

        @Test("at the connection limit advertising pauses; it resumes after a disconnection")
        func advertisingResumes() async throws {
            let peer = try await BumblePeer.start(["--accessories", "0", "--phones", "1", "--phone-script", "ni-stop", "--phone-hold", "0.5"])
            defer { peer.stop() }
            let accessory = try await FakeAccessory(peer: peer, maximumConnections: 1)
            try await peer.waitFor("PHONE-DISCONNECTED", timeout: .seconds(60))
            #expect(peer.lines("PHONE-STOPPED").count == 1, "0x0C answered 0x03")
            var events: [AdvertiserEvent] = []
            for await event in accessory.advertiserEvents {
                events.append(event)
                if events.count == 3 { break }
            }
            #expect(events == [.advertising(connections: 0), .paused(connections: 1), .advertising(connections: 0)])
            #expect(await accessory.advertiser.isAdvertising)
            await accessory.host.close()
        }

        @Test("a phone that never subscribes: its writes are delivered, the answer waits for a subscription that never comes, nothing goes into the void")
        func neverSubscribes() async throws {
            let peer = try await BumblePeer.start(["--accessories", "0", "--phones", "1", "--phone-script", "never-subscribe"])
            defer { peer.stop() }
            let accessory = try await FakeAccessory(peer: peer)
            try await peer.waitFor("PHONE-NO-ACD", timeout: .seconds(60))
            #expect(peer.lines("PHONE-WRITE-ACCEPTED").count == 1)
            let channel = try #require(accessory.opened.elements.first)
            try await HCIHostTests.waitUntil { channel.earlyWrites == 2 }
            #expect(accessory.received.elements == [[0x0A], [0x0A]], "both writes reach the accessory")
            try await HCIHostTests.waitUntil { channel.replacedMessages == 1 }
            #expect(channel.hasPendingMessage, "the latest answer waits; the first was replaced")
            #expect(accessory.sendErrors.elements.isEmpty)
            await accessory.host.close()
        }

        @Test("Apple's sample app (the apple-sample phone): found by Nordic UART alone; two cycles; after a reconnection 0x0A before the subscription is answered once it subscribes")
        func appleSampleEarlyWrite() async throws {
            let peer = try await BumblePeer.start(["--accessories", "0", "--phones", "1", "--phone-script", "apple-sample", "--phone-hold", "0.3"])
            defer { peer.stop() }
            let accessory = try await FakeAccessory(
                peer: peer, maximumConnections: 1, advertised: [DataChannelService.nordicUART.service, DataChannelService.qorvoNI.service])
            try await peer.waitFor("PHONE-CYCLE-DONE cycle=3", timeout: .seconds(90))
            let seen = peer.lines("PHONE-SEEN")
            #expect(seen.count == 2 && seen.allSatisfy { $0.contains("service=6E400001-B5A3-F393-E0A9-E50E24DCCA9E") }, "\(seen)")
            #expect(peer.lines("PHONE-STOPPED").count == 1, "the timeout retry: 0x0C answered 0x03, then 0x0A answered 0x01")
            #expect(peer.lines("PHONE-EARLY-WRITE accepted").count == 1)
            #expect(peer.lines("PHONE-ACD length=38").count == 3, "cycles 1, 2 and after the early write")
            let channels = accessory.opened.elements
            #expect(channels.count == 2)
            #expect(channels.last?.earlyWrites == 1 && channels.last?.hasPendingMessage == false, "sent once the phone subscribed")
            #expect(channels.last?.service == .nordicUART)
            #expect(accessory.sendErrors.elements.isEmpty, "\(accessory.sendErrors.elements)")
            await accessory.host.close()
        }

        @Test("ATT_MTU 23: 0x01 (38 bytes) is refused as too long, never truncated; a 31-byte 0x0B arrives whole by Prepare / Execute Write")
        func mtu23() async throws {
            let peer = try await BumblePeer.start(["--accessories", "0", "--phones", "1", "--phone-script", "mtu23"])
            defer { peer.stop() }
            let accessory = try await FakeAccessory(peer: peer)
            try await peer.waitFor("PHONE-STARTED", timeout: .seconds(60))
            #expect(peer.lines("PHONE-NO-ACD").count == 1)
            #expect(accessory.sendErrors.elements.first?.contains("38") == true, "\(accessory.sendErrors.elements)")
            #expect(accessory.received.elements.map(\.count) == [1, 31])
            #expect(accessory.opened.elements.first?.maximumMessageLength == 20)
            await accessory.host.close()
        }
    }
}
