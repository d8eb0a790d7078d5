import LowEnergy
import NearbyTestSupport
import Testing

extension BumbleTests {
    @Suite("Bumble: GATT data channel")
    struct DataChannels {
        @Test("write/notify round trip over Nordic UART; messages longer than MTU-3 are an error")
        func roundTrip() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let channel = try await GATTDataChannel.connect(host: host, address: peer.accessoryAddress, type: .random)
            #expect(await channel.service == .nordicUART)
            #expect(await channel.maximumMessageLength == 244)
            var messages = channel.messages.makeAsyncIterator()
            try await channel.send([0x0A])
            #expect(await messages.next() == [0x0A])
            let longest = (0..<244).map { UInt8($0 & 0xFF) }
            try await channel.send(longest)
            #expect(await messages.next() == longest)
            await #expect(throws: BluetoothError.messageTooLong(length: 245, maximum: 244)) {
                try await channel.send(longest + [0xFF])
            }
            try await peer.waitForLines("NOTIFIED channel=nus", count: 2)
            #expect(peer.lines("RECEIVED").count == 2, "nothing of the rejected message was sent")
            await channel.close()
            #expect(await messages.next() == nil, "close() finishes the stream")
            await host.close()
        }

        @Test("Qorvo NI service: found when it is the one offered")
        func qorvo() async throws {
            let peer = try await BumblePeer.start(["--services", "qorvo,test"])
            defer { peer.stop() }
            let host = try await peer.startHost()
            let channel = try await GATTDataChannel.connect(host: host, address: peer.accessoryAddress, type: .random)
            #expect(await channel.service == .qorvoNI)
            try await channel.send([0x0B, 0x01, 0x02])
            #expect(try await first(channel.messages) == [0x0B, 0x01, 0x02])
            try await peer.waitFor("RECEIVED channel=qorvo length=3")
            await host.close()
        }

        @Test("an accessory without a data channel service is refused with a clear error")
        func noDataChannel() async throws {
            let peer = try await BumblePeer.start(["--services", "apple-ni,test", "--apple-ni-config",
                                                   "0100000000000000000000000000001501000100"])
            defer { peer.stop() }
            let host = try await peer.startHost()
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            await #expect {
                _ = try await GATTDataChannel.open(on: connection, host: host)
            } throws: { error in
                "\(error)".contains("offers none of the data-channel services") && "\(error)".contains("Nordic UART")
            }
            // Apple's NI service is there and readable: the accessory configuration data.
            let service = try #require(try await connection.gatt.discoverPrimaryServices(uuid: AppleNearbyInteractionService.service).first)
            let characteristics = try await connection.gatt.discoverCharacteristics(of: service)
            let single = try #require(characteristics.first { $0.uuid == AppleNearbyInteractionService.singleConfiguration })
            #expect(try await connection.gatt.read(single) == [0x01, 0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x15, 0x01, 0x00, 0x01, 0x00])
            await host.close()
        }

        @Test("link loss is reported; reconnect subscribes exactly once and no message is duplicated")
        func reconnect() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let channel = try await GATTDataChannel.connect(host: host, address: peer.accessoryAddress, type: .random)
            var messages = channel.messages.makeAsyncIterator()
            var events = channel.events.makeAsyncIterator()
            try await channel.send([0x01])
            #expect(await messages.next() == [0x01])

            let connection = try #require(await channel.connection)
            try await PeerGATT.control([0x08], on: connection)
            #expect(await events.next() == .disconnected(reason: .connectionTimeout))
            await #expect(throws: BluetoothError.disconnected(reason: .connectionTimeout)) { try await channel.send([0x02]) }

            try await channel.reconnect(timeout: .seconds(10))
            #expect(await events.next() == .reconnected(maximumMessageLength: 244))
            try await channel.reconnect(timeout: .seconds(10))  // no-op while connected
            #expect(await channel.subscriptionCount == 2, "one subscription per connection")
            let subscribed = "SUBSCRIBED uuid=\(DataChannelService.nordicUART.tx.uuidString) notify=1"
            try await HCIHostTests.waitUntil { peer.lines(subscribed).count >= 2 }
            #expect(peer.lines(subscribed).count == 2, "\(peer.process.stdout)")

            for value in [UInt8(0x03), 0x04, 0x05] { try await channel.send([value]) }
            #expect(await messages.next() == [0x03])
            #expect(await messages.next() == [0x04])
            #expect(await messages.next() == [0x05])
            let newConnection = try #require(await channel.connection)
            #expect(newConnection.gatt.subscriptionCount(for: try await PeerGATT.characteristic(
                DataChannelService.nordicUART.tx, in: DataChannelService.nordicUART.service, of: newConnection)) == 1)
            // Nothing else arrives: each echo came exactly once.
            await channel.close()
            #expect(await messages.next() == nil)
            try await peer.waitForLines("NOTIFIED channel=nus", count: 4)
            try await Task.sleep(for: .milliseconds(300))
            #expect(peer.lines("NOTIFIED channel=nus").count == 4, "one echo per message, no duplicate")
            await host.close()
        }
    }
}
