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
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(try await DataChannelService.offered(on: connection) == .qorvoNI)
            let channel = try await GATTDataChannel.open(on: connection, host: host)
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
            #expect(try await DataChannelService.offered(on: connection) == nil)
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

        @Test("two accessories at once: separate channels, no crossed messages, one link loss leaves the other up",
              arguments: [false, true])
        func twoAccessories(strict: Bool) async throws {
            let peer = try await BumblePeer.start(["--accessories", "2"] + (strict ? ["--strict"] : []))
            defer { peer.stop() }
            let host = try await peer.startHost()
            let second = BluetoothAddress("F0:F1:F2:F3:F4:F6")!
            let advertisement = try await first(try await host.scan()) { $0.address == second }
            #expect(advertisement.name == "nb-peer2")
            let one = try await GATTDataChannel.connect(host: host, address: peer.accessoryAddress, type: .random)
            let two = try await GATTDataChannel.connect(host: host, address: second, type: .random)
            #expect(await host.activeConnections.count == 2)
            var messagesOne = one.messages.makeAsyncIterator()
            var messagesTwo = two.messages.makeAsyncIterator()
            // Interleaved long messages: fragments of both connections share the controller's buffers.
            async let sentOne: Void = { for index in 0..<5 { try await one.send([UInt8](repeating: UInt8(index), count: 200)) } }()
            async let sentTwo: Void = { for index in 0..<5 { try await two.send([UInt8](repeating: UInt8(0x80 + index), count: 200)) } }()
            try await sentOne
            try await sentTwo
            for index in 0..<5 {
                #expect(await messagesOne.next() == [UInt8](repeating: UInt8(index), count: 200))
                #expect(await messagesTwo.next() == [UInt8](repeating: UInt8(0x80 + index), count: 200))
            }
            try await peer.waitFor("RECEIVED channel=nus length=200 data=8484")
            if strict {
                try await peer.waitForLines("NOTIFIED channel=nus", count: 10)
                #expect(peer.lines("ACL-OVERFLOW").isEmpty)
            }

            var eventsTwo = two.events.makeAsyncIterator()
            let connectionTwo = try #require(await two.connection)
            try await PeerGATT.control([0x08], on: connectionTwo)
            #expect(await eventsTwo.next() == .disconnected(reason: .connectionTimeout))
            try await peer.waitFor("LINK-LOSS links=1 accessory=F0:F1:F2:F3:F4:F6")
            try await one.send([0x42])
            #expect(await messagesOne.next() == [0x42], "the other channel is unaffected")
            try await two.reconnect(timeout: .seconds(10))
            try await two.send([0x43])
            #expect(await messagesTwo.next() == [0x43])
            await host.close()
        }
    }
}
