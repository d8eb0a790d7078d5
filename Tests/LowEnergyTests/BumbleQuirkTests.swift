import LowEnergy
import NearbyTestSupport
import Testing

extension BumbleTests {
    @Suite("Bumble: old and odd controllers, ATT timeouts")
    struct Quirks {
        @Test("a Bluetooth 4.0 controller (CSR8510-like): the 4.0 LE event mask, legacy commands, scan and connect work")
        func bluetooth40() async throws {
            let peer = try await BumblePeer.start(["--bt40"])
            defer { peer.stop() }
            let host = try await peer.startHost()
            let info = try #require(await host.controller)
            #expect(info.bluetoothVersion == "4.0")
            #expect(await !host.usesExtendedCommands)
            #expect(peer.lines("LE-EVENT-MASK-REFUSED").isEmpty, "only the events 4.0 defines were asked for")
            let found = try await first(try await host.scan()) { $0.address == peer.accessoryAddress }
            #expect(found.name == "nb-peer")
            await host.stopScanning()
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(connection.isConnected)
            await host.close()
        }

        @Test("the LE event mask follows the controller version")
        func eventMaskByVersion() {
            #expect(BLEHost.leEventMask(hciVersion: 6) == 0x1F)
            #expect(BLEHost.leEventMask(hciVersion: 7) == 0x3F)
            #expect(BLEHost.leEventMask(hciVersion: 8) == 0x27F)
            #expect(BLEHost.leEventMask(hciVersion: 9) == 0x1A7F)
            #expect(BLEHost.leEventMask(hciVersion: 13) == 0x1A7F)
        }

        @Test("LE Extended Create Connection refused with 0x01: the host falls back to the legacy commands and connects")
        func extendedConnectFallback() async throws {
            let peer = try await BumblePeer.start(["--refuse-extended-connect"])
            defer { peer.stop() }
            let host = try await peer.startHost()
            #expect(await host.usesExtendedCommands)
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(connection.isConnected)
            try await peer.waitFor("EXTENDED-CONNECT-REFUSED")
            #expect(await !host.usesExtendedCommands, "legacy from now on")
            await host.close()
        }

        @Test("--hci-legacy: the legacy command set even on a Bluetooth 5 controller")
        func forcedLegacy() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost(BLEHostConfiguration(commandTimeout: .seconds(5), commandSet: .legacy))
            #expect(await !host.usesExtendedCommands)
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(connection.isConnected)
            await host.close()
        }

        @Test("a controller that cannot connect while scanning: the scan pauses for the connection and resumes")
        func connectWhileScanning() async throws {
            let peer = try await BumblePeer.start(["--no-connect-while-scanning", "--accessories", "2"])
            defer { peer.stop() }
            let host = try await peer.startHost()
            let reports = try await host.scan()
            _ = try await first(reports) { $0.address == peer.accessoryAddress }
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(connection.isConnected)
            let connected = ContinuousClock.now
            try await peer.waitFor("CONNECT-WHILE-SCANNING-REFUSED")
            // The scan goes on: the second accessory is still heard after the connection.
            let second = BluetoothAddress("F0:F1:F2:F3:F4:F6")!
            _ = try await first(reports) { $0.address == second && $0.timestamp > connected }
            #expect(await host.scanning)
            await host.close()
        }

        @Test("an ATT transaction timeout ends the link; the data channel reconnects and works again")
        func attTimeoutEndsLink() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let options = ConnectionOptions(attTimeout: .seconds(2))
            let channel = try await GATTDataChannel.connect(host: host, address: peer.accessoryAddress, type: .random, options: options)
            let connection = try #require(await channel.connection)
            var events = channel.events.makeAsyncIterator()
            try await PeerGATT.control([0x10], on: connection)
            try await peer.waitFor("ATT-SILENT")
            await #expect {
                try await channel.send([0x01])
            } throws: { error in
                guard case BluetoothError.timeout(let operation, _, _) = error else { return false }
                return operation.contains("Write Request")
            }
            guard case .disconnected? = await events.next() else {
                Issue.record("the link was not ended after the ATT timeout")
                return
            }
            try await peer.waitFor("DISCONNECTED")
            try await channel.reconnect()
            var messages = channel.messages.makeAsyncIterator()
            try await channel.send([0x02])
            #expect(await messages.next() == [0x02])
            await channel.close()
            await host.close()
        }
    }
}
