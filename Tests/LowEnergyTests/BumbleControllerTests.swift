import Glibc
import LowEnergy
import NearbyTestSupport
import Testing

extension BumbleTests {
    @Suite("Bumble: controller quirks, strict hardware-like mode, serial transport")
    struct Controller {
        @Test("a command the controller never answers fails with a timeout naming it; the host keeps working")
        func neverAnsweredCommand() async throws {
            let peer = try await BumblePeer.start(["--never-answer", "0x2042", "--never-answer", "0x200C"])
            defer { peer.stop() }
            let host = try await peer.startHost(BLEHostConfiguration(commandTimeout: .seconds(2)))
            await #expect {
                _ = try await host.scan()
            } throws: { error in
                guard case BluetoothError.timeout(let operation, let timeout, _) = error else { return false }
                return operation.contains("HCI LE Set Extended Scan Enable (0x2042)") && timeout == .seconds(2)
                    && "\(error)".contains("timed out after 2 s")
            }
            try await peer.waitFor("NEVER-ANSWERED opcode=0x2042")
            // The lost credit was restored: the next commands go out and succeed.
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(connection.mtu == 247)
            await host.close()
        }

        @Test("a controller that never answers Reset: start() says so")
        func neverAnsweredReset() async throws {
            let peer = try await BumblePeer.start(["--never-answer", "0x0C03"])
            defer { peer.stop() }
            await #expect {
                _ = try await peer.startHost(BLEHostConfiguration(commandTimeout: .seconds(2), resetTimeout: .seconds(2)))
            } throws: { error in
                "\(error)".contains("HCI Reset (0x0C03)") && "\(error)".contains("timed out after 2 s")
            }
        }

        @Test("strict mode: event masks honoured, legacy-PDU extended reports, scan response data, passive scans without")
        func strictScan() async throws {
            let peer = try await BumblePeer.start(["--strict", "--name-in-scan-response"])
            defer { peer.stop() }
            let host = try await peer.startHost()
            #expect(try #require(await host.controller).aclPacketCount == 3)
            let active = await collect(try await host.scan(), for: .seconds(3)).filter { $0.address == peer.accessoryAddress }
            let advInd = try #require(active.first { $0.eventType == .advInd })
            #expect(advInd.eventType.rawValue == 0x13)
            #expect(advInd.reportData.localName == nil, "the name is only in the scan response")
            #expect(advInd.reportData.serviceUUIDs == [DataChannelService.nordicUART.service])
            let response = try #require(active.first { $0.eventType.isScanResponse })
            #expect(response.eventType.rawValue == 0x1B)
            #expect(response.reportData.localName == "nb-peer" && response.reportData.serviceUUIDs.isEmpty)
            #expect(response.data.localName == "nb-peer" && response.data.serviceUUIDs == [DataChannelService.nordicUART.service],
                    "merged: advertising data plus scan response")
            try await HCIHostTests.waitUntil { await !host.scanning }

            let passive = await collect(try await host.scan(ScanParameters(active: false)), for: .seconds(2))
                .filter { $0.address == peer.accessoryAddress }
            #expect(!passive.isEmpty && passive.allSatisfy { $0.eventType == .advInd }, "passive scans get no scan responses")
            await host.close()
        }

        @Test("strict mode refuses own address type random before LE Set Random Address (why start() sets it first)")
        func strictRandomAddress() async throws {
            let peer = try await BumblePeer.start(["--strict"])
            defer { peer.stop() }
            let hci = HCIHost(transport: try await peer.spec.open(), logger: testLogger)
            await hci.start()
            try await hci.execute(.reset)
            let scanParameters = HCICommand.leSetExtendedScanParameters(active: true, interval: 0x60, window: 0x30, ownAddressType: .random)
            await #expect(throws: BluetoothError.commandFailed(command: "HCI LE Set Extended Scan Parameters (0x2041)", status: .invalidParameters)) {
                try await hci.execute(scanParameters)
            }
            try await hci.execute(.leSetRandomAddress(BluetoothAddress("C1:C2:C3:C4:C5:C6")!))
            try await hci.execute(scanParameters)
            // Legacy and extended commands must not be mixed.
            await #expect(throws: BluetoothError.commandFailed(command: "HCI LE Set Scan Enable (0x200C)", status: .commandDisallowed)) {
                try await hci.execute(.leSetScanEnable(true))
            }
            await hci.close()
        }

        @Test("strict legacy controller: LE Advertising Reports (0x02) after legacy scan commands")
        func strictLegacyScan() async throws {
            let peer = try await BumblePeer.start(["--strict", "--legacy-only", "--name-in-scan-response"])
            defer { peer.stop() }
            let host = try await peer.startHost()
            #expect(await !host.usesExtendedCommands)
            let reports = await collect(try await host.scan(), for: .seconds(3)).filter { $0.address == peer.accessoryAddress }
            #expect(reports.contains { $0.eventType == .advInd && $0.reportData.localName == nil })
            #expect(reports.contains { $0.eventType == .scanResponseToAdvInd && $0.reportData.localName == "nb-peer" })
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(connection.mtu == 247)
            await host.close()
        }

        @Test("strict mode: Enhanced Connection Complete, 27-byte fragments both ways with 3 buffers, local disconnect 0x16")
        func strictConnection() async throws {
            let peer = try await BumblePeer.start(["--strict"])
            defer { peer.stop() }
            let host = try await peer.startHost()
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(connection.mtu == 247)
            // 300 bytes read back through 27-byte ACL fragments (PB 0x02 then 0x01).
            let readable = try await PeerGATT.characteristic(PeerGATT.readable, in: PeerGATT.testService, of: connection)
            #expect(try await connection.gatt.read(readable) == PeerGATT.readableValue)
            // A 244-byte echo: 248-byte L2CAP PDUs, 10 fragments each way, only 3 controller buffers.
            let nus = DataChannelService.nordicUART
            let tx = try await PeerGATT.characteristic(nus.tx, in: nus.service, of: connection)
            let rx = try await PeerGATT.characteristic(nus.rx, in: nus.service, of: connection)
            let notifications = try await connection.gatt.subscribe(to: tx)
            var iterator = notifications.values.makeAsyncIterator()
            for round in 0..<5 {
                let message = (0..<244).map { UInt8(($0 + round) & 0xFF) }
                try await connection.gatt.write(message, to: rx, type: round.isMultiple(of: 2) ? .withResponse : .withoutResponse)
                #expect(await iterator.next() == message)
            }
            // Any overflow would be printed before the last echo's NOTIFIED line.
            try await peer.waitForLines("NOTIFIED channel=nus", count: 5)
            #expect(peer.lines("ACL-OVERFLOW").isEmpty && peer.lines("ACL-TOO-LONG").isEmpty,
                    "the host never exceeded the controller's buffers")
            #expect(try await connection.disconnect() == .connectionTerminatedByLocalHost)
            // A real controller answers every command, unknown ones with 0x01.
            await #expect(throws: BluetoothError.commandFailed(command: "HCI OGF 0x08 OCF 0x00FF (0x20FF)", status: .unknownCommand)) {
                try await host.hci.execute(HCICommand(HCIOpcode(rawValue: 0x20FF)))
            }
            await host.close()
        }

        @Test("stock cancel quirk: the attempt still ends; the refusal of the next one says to reset; a restart fixes it")
        func stockCancelQuirk() async throws {
            let peer = try await BumblePeer.start(["--stock-cancel"])
            defer { peer.stop() }
            let host = try await peer.startHost()
            let absent = BluetoothAddress("C5:C5:C5:C5:C5:C5")!
            await #expect {
                _ = try await host.connect(to: absent, type: .random, timeout: .seconds(1))
            } throws: { error in
                if case BluetoothError.timeout = error { return true }
                return false
            }
            // Bumble never cleared its pending connection: it refuses the next attempt with 0x0C.
            await #expect {
                _ = try await host.connect(to: peer.accessoryAddress, type: .random)
            } throws: { error in
                guard case BluetoothError.commandFailed(_, let status) = error else { return false }
                return status == .commandDisallowed && "\(error)".contains("restarting resets the controller")
            }
            await host.close()
            let restarted = try await peer.startHost()  // HCI Reset clears the stale attempt
            let connection = try await restarted.connect(to: peer.accessoryAddress, type: .random)
            #expect(connection.isConnected)
            await restarted.close()
        }

        @Test("serial transport: the host drives C0 through a pty")
        func serialPTY() async throws {
            let link = "/tmp/nearby-ble-pty-\(getpid())-\(try freeTCPPort())"
            let peer = try await BumblePeer.start([], transport: "pty:\(link)")
            defer { peer.stop() }
            // The default 2 s command timeout is a real controller's; Bumble behind a pty on a
            // loaded machine once took longer to answer Read Local Version Information.
            let host = try await BLEHost.open(.serial(path: link, baudRate: 1_000_000, hardwareFlowControl: false),
                                              configuration: BLEHostConfiguration(commandTimeout: .seconds(10)), logger: testLogger)
            let advertisement = try await first(try await host.scan()) { $0.address == peer.accessoryAddress }
            #expect(advertisement.name == "nb-peer")
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let readable = try await PeerGATT.characteristic(PeerGATT.readable, in: PeerGATT.testService, of: connection)
            #expect(try await connection.gatt.read(readable) == PeerGATT.readableValue)
            await host.close()
        }
    }
}
