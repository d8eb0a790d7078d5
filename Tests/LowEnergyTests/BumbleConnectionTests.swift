import LowEnergy
import NearbyTestSupport
import Testing

extension BumbleTests {
    @Suite("Bumble: connections, ATT and GATT")
    struct Connection {
        @Test("connect negotiates ATT_MTU 247 and reports the connection")
        func connectAndMTU() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let hostEvents = host.events()
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(connection.mtu == 247, "we ask 247, Bumble offers 517: min is 247")
            #expect(connection.gatt.maximumValueLength == 244)
            #expect(connection.peerAddress == peer.accessoryAddress && connection.peerAddressType == .random)
            #expect((24...40).contains(await connection.interval))
            #expect(await connection.supervisionTimeout == 400)
            let event = try await first(hostEvents) { if case .connected = $0 { true } else { false } }
            guard case .connected(let reported) = event else { return }
            #expect(reported === connection)
            try await peer.waitFor("CONNECTED handle=")
            let again = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(again === connection, "connect is idempotent")
            await host.close()
        }

        @Test("service, characteristic and descriptor discovery")
        func discovery() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let gatt = connection.gatt
            let services = try await gatt.discoverPrimaryServices()
            #expect(services.map(\.uuid) == [.genericAccess, .genericAttribute, DataChannelService.nordicUART.service, PeerGATT.testService])
            for (a, b) in zip(services, services.dropFirst()) { #expect(a.endHandle < b.startHandle) }
            let nus = try #require(services.first { $0.uuid == DataChannelService.nordicUART.service })
            #expect(try await gatt.discoverPrimaryServices(uuid: nus.uuid) == [nus])

            let characteristics = try await gatt.discoverCharacteristics(of: nus)
            #expect(characteristics.map(\.uuid) == [DataChannelService.nordicUART.rx, DataChannelService.nordicUART.tx])
            #expect(characteristics[0].properties == [.write, .writeWithoutResponse])
            #expect(characteristics[1].properties == [.notify])
            #expect(characteristics[1].endHandle == nus.endHandle)
            #expect(try await gatt.discoverDescriptors(of: characteristics[0]).isEmpty)
            let txDescriptors = try await gatt.discoverDescriptors(of: characteristics[1])
            #expect(txDescriptors.map(\.uuid) == [.clientCharacteristicConfiguration])

            let test = try #require(services.first { $0.uuid == PeerGATT.testService })
            let testCharacteristics = try await gatt.discoverCharacteristics(of: test)
            #expect(testCharacteristics.map(\.uuid) == [PeerGATT.control, PeerGATT.readable, PeerGATT.indicate])
            #expect(testCharacteristics[2].properties == [.notify, .indicate])
            let readableDescriptors = try await gatt.discoverDescriptors(of: testCharacteristics[1])
            let description = try #require(readableDescriptors.first { $0.uuid == .characteristicUserDescription })
            #expect(String(decoding: try await gatt.readValue(handle: description.handle), as: UTF8.self) == "nearby test readable")
            await host.close()
        }

        @Test("read of a 300-byte value uses Read and Read Blob and returns every byte")
        func readLongValue() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let readable = try await PeerGATT.characteristic(PeerGATT.readable, in: PeerGATT.testService, of: connection)
            #expect(try await connection.gatt.read(readable) == PeerGATT.readableValue)
            await host.close()
        }

        @Test("write request and write command reach the accessory byte for byte")
        func writes() async throws {
            let peer = try await BumblePeer.start(["--behaviour", "silent"])
            defer { peer.stop() }
            let host = try await peer.startHost()
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let rx = try await PeerGATT.characteristic(DataChannelService.nordicUART.rx, in: DataChannelService.nordicUART.service, of: connection)
            try await connection.gatt.write([0x0A, 0x01, 0x02], to: rx, type: .withResponse)
            try await peer.waitFor("RECEIVED channel=nus length=3 data=0a0102")
            let long = (0..<244).map { UInt8($0 & 0xFF) }
            try await connection.gatt.write(long, to: rx, type: .withoutResponse)
            try await peer.waitFor("RECEIVED channel=nus length=244 data=000102")
            await #expect(throws: BluetoothError.messageTooLong(length: 245, maximum: 244)) {
                try await connection.gatt.write(long + [0], to: rx)
            }
            await host.close()
        }

        @Test("notifications arrive after subscribing; indications arrive and are confirmed")
        func notificationsAndIndications() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let gatt = connection.gatt
            let nus = DataChannelService.nordicUART
            let tx = try await PeerGATT.characteristic(nus.tx, in: nus.service, of: connection)
            let rx = try await PeerGATT.characteristic(nus.rx, in: nus.service, of: connection)
            let notifications = try await gatt.subscribe(to: tx)
            try await peer.waitFor("SUBSCRIBED uuid=\(nus.tx.uuidString) notify=1 indicate=0")
            try await gatt.write([0x01, 0x02, 0x03], to: rx)
            #expect(try await first(notifications.values) == [0x01, 0x02, 0x03])

            let indicate = try await PeerGATT.characteristic(PeerGATT.indicate, in: PeerGATT.testService, of: connection)
            let indications = try await gatt.subscribe(to: indicate, kind: .indications)
            try await peer.waitFor("SUBSCRIBED uuid=\(PeerGATT.indicate.uuidString) notify=0 indicate=1")
            try await PeerGATT.control([0x01, 0xCA, 0xFE], on: connection)
            #expect(try await first(indications.values) == [0xCA, 0xFE])
            try await peer.waitFor("INDICATION-CONFIRMED length=2")
            #expect(gatt.subscriptionCount(for: indicate) == 1)

            try await gatt.unsubscribe(indications)
            try await peer.waitFor("SUBSCRIBED uuid=\(PeerGATT.indicate.uuidString) notify=0 indicate=0")
            await #expect(throws: BluetoothError.self) { _ = try await gatt.subscribe(to: rx) }
            await host.close()
        }

        @Test("an ATT error is named and says what to do: reading Qorvo's pairing characteristic, automatic pairing off")
        func attErrorIsNamed() async throws {
            let peer = try await BumblePeer.start(["--services", "qorvo,test"])
            defer { peer.stop() }
            var noPairing = SecurityConfiguration()
            noPairing.pairWhenRequired = false
            let host = try await peer.startHost(security: SecurityContext(configuration: noPairing))
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let security = try await PeerGATT.characteristic(PeerGATT.qorvoSecurity, in: DataChannelService.qorvoNI.service, of: connection)
            await #expect {
                _ = try await connection.gatt.read(security)
            } throws: { error in
                guard case BluetoothError.attError(let code, let request, let handle) = error else { return false }
                let text = "\(error)"
                return code == .insufficientAuthentication && request == "Read Request" && handle == security.valueHandle
                    && text.contains("Insufficient Authentication") && text.contains("nearby setup --pair")
            }
            #expect(connection.isConnected, "an ATT error does not end the connection")
            await host.close()
        }

        @Test("a peer-initiated link loss is reported with reason 0x08; a new connection works afterwards")
        func peerDisconnectReason() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let hostEvents = host.events()
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let events = connection.events()
            try await PeerGATT.control([0x08], on: connection)
            let event = try await first(events) { if case .disconnected = $0 { true } else { false } }
            #expect(event == .disconnected(reason: .connectionTimeout))
            #expect(connection.disconnectionReason == .connectionTimeout)
            #expect("\(BluetoothError.disconnected(reason: .connectionTimeout))".contains("the link was lost"))
            let hostEvent = try await first(hostEvents) { if case .disconnected = $0 { true } else { false } }
            guard case .disconnected(let address, _, let reason) = hostEvent else { return }
            #expect(address == peer.accessoryAddress && reason == .connectionTimeout)
            try await peer.waitFor("LINK-LOSS links=1")
            // Requests on the dead connection fail with the reason.
            await #expect(throws: BluetoothError.disconnected(reason: .connectionTimeout)) {
                _ = try await connection.gatt.discoverPrimaryServices()
            }
            // A late subscriber still learns why it ended.
            #expect(try await first(connection.events()) == .disconnected(reason: .connectionTimeout))
            let second = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(second !== connection && second.isConnected)
            await host.close()
        }

        @Test("the accessory closing the connection is reported as 0x13; local disconnect returns the controller's reason")
        func disconnectReasons() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let first_ = try await host.connect(to: peer.accessoryAddress, type: .random)
            try await PeerGATT.control([0x13], on: first_)
            #expect(try await first_.waitForDisconnection(timeout: .seconds(20)) == .remoteUserTerminatedConnection)

            let second = try await host.connect(to: peer.accessoryAddress, type: .random)
            // Bumble's virtual controller reports the reason sent (0x13); hardware reports 0x16
            // (tested in strict mode).
            #expect(try await second.disconnect() == .remoteUserTerminatedConnection)
            try await peer.waitFor("reason=0x13")
            #expect(try await second.disconnect() == .remoteUserTerminatedConnection, "idempotent")
            #expect(await host.activeConnections.isEmpty)
            await host.close()
        }

        @Test("cancelConnect() ends a pending attempt; a timed-out attempt is cancelled too; then connecting works")
        func connectCancel() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let absent = BluetoothAddress("C5:C5:C5:C5:C5:C5")!
            let attempt = Task { try await host.connect(to: absent, type: .random, timeout: .seconds(30)) }
            try await Task.sleep(for: .milliseconds(500))
            await #expect(throws: BluetoothError.busy(detail: "a connection attempt to C5:C5:C5:C5:C5:C5 is in progress; wait for it or call cancelConnect()")) {
                _ = try await host.connect(to: peer.accessoryAddress, type: .random)
            }
            await host.cancelConnect()
            await #expect(throws: BluetoothError.connectionCancelled(address: absent)) { _ = try await attempt.value }
            try await peer.waitFor("CONNECT-CANCELLED")

            await #expect {
                _ = try await host.connect(to: absent, type: .random, timeout: .seconds(1))
            } throws: { error in
                guard case BluetoothError.timeout(let operation, _, let hint) = error else { return false }
                return operation.contains("C5:C5:C5:C5:C5:C5") && hint?.contains("did not answer") == true
            }
            #expect(try await peer.waitForLines("CONNECT-CANCELLED", count: 2) == 2)

            let cancelledByTask = Task { try await host.connect(to: absent, type: .random, timeout: .seconds(30)) }
            try await Task.sleep(for: .milliseconds(300))
            cancelledByTask.cancel()
            await #expect(throws: BluetoothError.connectionCancelled(address: absent)) { _ = try await cancelledByTask.value }
            #expect(try await peer.waitForLines("CONNECT-CANCELLED", count: 3) == 3)

            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(connection.isConnected && connection.mtu == 247)
            await host.close()
        }

        @Test("the accessory's L2CAP connection parameter update request is accepted and applied")
        func parameterUpdate() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let events = connection.events()
            try await PeerGATT.control([0x0E], on: connection)
            try await peer.waitFor("L2CAP-PARAMETER-UPDATE result=accepted")
            let update = try await first(events) { if case .parametersUpdated = $0 { true } else { false } }
            #expect(update == .parametersUpdated(interval: 40, latency: 2, supervisionTimeout: 400))
            #expect(await connection.latency == 2)
            await host.close()
        }
    }
}
