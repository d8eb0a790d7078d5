import LowEnergy
import Logging
import Testing

/// The HCI layer and the host against a scripted in-memory controller: exact bytes, credits,
/// timeouts, ACL flow control.
@Suite("HCI host with a scripted controller")
struct HCIHostTests {
    static let ownAddress = BluetoothAddress("C1:C2:C3:C4:C5:C6")!

    static func host(_ transport: ScriptedTransport, commandTimeout: Duration = .seconds(2)) -> BLEHost {
        BLEHost(transport: transport,
                configuration: BLEHostConfiguration(commandTimeout: commandTimeout, resetTimeout: commandTimeout,
                                                    ownAddress: .randomStatic(ownAddress)),
                logger: testLogger)
    }

    @Test("start() resets and configures the controller with exactly these commands")
    func initSequence() async throws {
        let transport = ScriptedTransport(responder: FakeController.responder(buffers: 4))
        let host = Self.host(transport)
        let info = try await host.start()
        #expect(transport.sentCommands == [
            [0x01, 0x03, 0x0C, 0x00],  // Reset
            [0x01, 0x01, 0x10, 0x00],  // Read Local Version Information
            [0x01, 0x02, 0x10, 0x00],  // Read Local Supported Commands (the scripted one has no list)
            [0x01, 0x09, 0x10, 0x00],  // Read BD_ADDR
            [0x01, 0x03, 0x20, 0x00],  // LE Read Local Supported Features
            [0x01, 0x02, 0x20, 0x00],  // LE Read Buffer Size
            [0x01, 0x01, 0x0C, 0x08, 0x90, 0x80, 0x00, 0x02, 0x00, 0x80, 0x00, 0x20],  // Set Event Mask (LE meta on)
            [0x01, 0x01, 0x20, 0x08, 0x7F, 0x1A, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],  // LE Set Event Mask (0x02, 0x0A, 0x0D...)
            [0x01, 0x05, 0x20, 0x06, 0xC6, 0xC5, 0xC4, 0xC3, 0xC2, 0xC1],  // LE Set Random Address
        ])
        #expect(info.publicAddress == BluetoothAddress("C0:11:22:33:44:55"))
        #expect(info.aclPacketLength == 27 && info.aclPacketCount == 4)
        #expect(info.leFeatures.contains(.extendedAdvertising))
        #expect(info.bluetoothVersion == "5.0")
        #expect(await host.ownAddress == Self.ownAddress)
        #expect(await host.usesExtendedCommands)
        #expect(await host.hci.aclPacketCount == 4)
        #expect(try await host.start() == info, "idempotent")
        #expect(transport.sentCommands.count == 9)
        await host.close()
    }

    @Test("scanning uses legacy commands on a controller without extended advertising, with the random own address")
    func legacyScanCommands() async throws {
        let transport = ScriptedTransport(responder: FakeController.responder(extendedAdvertising: false))
        let host = Self.host(transport)
        try await host.start()
        #expect(await !host.usesExtendedCommands)
        let stream = try await host.scan(ScanParameters(active: true))
        #expect(Array(transport.sentCommands.suffix(2)) == [
            [0x01, 0x0B, 0x20, 0x07, 0x01, 0x60, 0x00, 0x30, 0x00, 0x01, 0x00],
            [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00],
        ])
        // A legacy report arrives as an Advertisement.
        transport.deliverEvent([0x3E, 0x12, 0x02, 0x01, 0x00, 0x01, 0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0, 0x06,
                                0x05, 0x09, 0x61, 0x62, 0x63, 0x64, 0xB8])
        var iterator = stream.makeAsyncIterator()
        let advertisement = try #require(await iterator.next())
        #expect(advertisement.address == BluetoothAddress("F0:F1:F2:F3:F4:F5"))
        #expect(advertisement.eventType == .advInd && advertisement.isConnectable)
        #expect(advertisement.name == "abcd" && advertisement.rssi == -72)
        await host.stopScanning()
        #expect(transport.sentCommands.last == [0x01, 0x0C, 0x20, 0x02, 0x00, 0x00])
        await host.close()
    }

    @Test("a command the controller never answers times out naming it; later commands still go out")
    func commandTimeout() async throws {
        let transport = ScriptedTransport(responder: FakeController.responder(silent: [0x2003]))
        let host = Self.host(transport, commandTimeout: .seconds(1))
        await #expect {
            try await host.start()
        } throws: { error in
            guard case BluetoothError.timeout(let operation, let timeout, _) = error else { return false }
            return operation.contains("HCI LE Read Local Supported Features (0x2003)") && timeout == .seconds(1)
                && "\(error)".contains("timed out after 1 s: the controller may not support this command, or it hung")
        }
        let address = try await host.hci.execute(.readBDADDR)
        #expect(address == [0x55, 0x44, 0x33, 0x22, 0x11, 0xC0])
        await host.close()
    }

    @Test("command credits: with none left, the next command waits for a credit")
    func commandCredits() async throws {
        let transport = ScriptedTransport()
        transport.setResponder { packet in
            // Reset answered but leaves 0 credits.
            FakeController.opcode(of: packet) == 0x0C03 ? [FakeController.commandComplete(0x0C03, [0], credits: 0)] : []
        }
        let hci = HCIHost(transport: transport, commandTimeout: .seconds(5), logger: testLogger)
        await hci.start()
        try await hci.execute(.reset)
        transport.setResponder(FakeController.responder())
        let second = Task { try await hci.execute(.readBDADDR) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(transport.sentCommands.count == 1, "no credit: Read BD_ADDR must wait")
        transport.deliver(FakeController.commandComplete(0x0000, [], credits: 1))  // NOP grants a credit
        #expect(try await second.value == [0x55, 0x44, 0x33, 0x22, 0x11, 0xC0])
        #expect(transport.sentCommands.count == 2)
        await hci.close()
    }

    @Test("a non-zero status is a named error")
    func commandStatusError() async throws {
        let transport = ScriptedTransport { packet in
            [FakeController.commandComplete(FakeController.opcode(of: packet) ?? 0, [0x0C])]
        }
        let hci = HCIHost(transport: transport, logger: testLogger)
        await hci.start()
        await #expect(throws: BluetoothError.commandFailed(command: "HCI LE Set Scan Enable (0x200C)", status: .commandDisallowed)) {
            try await hci.execute(.leSetScanEnable(true))
        }
        await hci.close()
    }

    @Test("ACL flow control: never more packets outstanding than buffers; credits return with NOCP")
    func aclFlowControl() async throws {
        let transport = ScriptedTransport(responder: FakeController.responder())
        let hci = HCIHost(transport: transport, logger: testLogger)
        await hci.start()
        await hci.configureACL(packetLength: 27, packetCount: 2)
        transport.deliverEvent(Self.connectionComplete(handle: 1))
        try await Self.waitUntil { await hci.inboundPDUs(handle: 1) != nil }

        let pdu = L2CAPFrame(channel: 4, payload: [UInt8](repeating: 0xAB, count: 100)).bytes  // 104 bytes: 4 fragments
        let send = Task { try await hci.sendACL(handle: 1, pdu: pdu) }
        try await Self.waitUntil { transport.sent.filter { $0.type == .acl }.count == 2 }
        try await Task.sleep(for: .milliseconds(100))
        #expect(transport.sent.filter { $0.type == .acl }.count == 2, "only 2 buffers")
        transport.deliverEvent([0x13, 0x05, 0x01, 0x01, 0x00, 0x01, 0x00])
        try await Self.waitUntil { transport.sent.filter { $0.type == .acl }.count == 3 }
        transport.deliverEvent([0x13, 0x05, 0x01, 0x01, 0x00, 0x02, 0x00])
        try await send.value
        let acl = transport.sent.filter { $0.type == .acl }.map(\.bytes)
        #expect(acl.map(\.count) == [31, 31, 31, 27])
        #expect(acl.map { $0[1] >> 4 } == [0, 1, 1, 1], "PB flags: first non-flushable, then continuations")
        #expect(acl.flatMap { $0.dropFirst(4) } == pdu)
        #expect(await hci.availableACLBuffers == 1, "one fragment still outstanding")
        // Disconnection returns the outstanding buffers.
        transport.deliverEvent([0x05, 0x04, 0x00, 0x01, 0x00, 0x13])
        try await Self.waitUntil { await hci.availableACLBuffers == 2 }
        await hci.close()
    }

    @Test("fragmented ACL from the controller is reassembled into L2CAP PDUs per connection")
    func inboundReassembly() async throws {
        let transport = ScriptedTransport(responder: FakeController.responder())
        let hci = HCIHost(transport: transport, logger: testLogger)
        await hci.start()
        transport.deliverEvent(Self.connectionComplete(handle: 3))
        var stream: AsyncStream<[UInt8]>?
        try await Self.waitUntil {
            stream = await hci.inboundPDUs(handle: 3)
            return stream != nil
        }
        let pdu = L2CAPFrame(channel: 4, payload: Array(0..<60)).bytes
        for (index, offset) in stride(from: 0, to: pdu.count, by: 27).enumerated() {
            let fragment = ACLPacket(handle: 3, boundary: index == 0 ? .firstFlushable : .continuation,
                                     data: Array(pdu[offset..<min(offset + 27, pdu.count)]))
            transport.deliver(fragment.packet)
        }
        transport.deliver(ACLPacket(handle: 3, boundary: .firstFlushable, data: L2CAPFrame(channel: 4, payload: [9]).bytes).packet)
        transport.deliverEvent([0x05, 0x04, 0x00, 0x03, 0x00, 0x08])
        var received: [[UInt8]] = []
        for await value in try #require(stream) { received.append(value) }
        #expect(received == [pdu, L2CAPFrame(channel: 4, payload: [9]).bytes], "stream finishes at disconnection")
        await hci.close()
    }

    @Test("a connection attempt that times out is cancelled at the controller before connect() returns")
    func connectTimeoutCancels() async throws {
        let transport = ScriptedTransport()
        transport.setResponder { packet in
            let fake = FakeController.responder()
            if FakeController.opcode(of: packet) == 0x2043 { return [FakeController.commandStatus(0x2043)] }
            if FakeController.opcode(of: packet) == 0x200E {
                // Command Complete, then the cancelled attempt: LE Connection Complete, status 0x02.
                return [FakeController.commandComplete(0x200E, [0]),
                        HCIPacket(.event, [0x3E, 0x13, 0x01, 0x02, 0x00, 0x00, 0x00, 0x01, 0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0,
                                           0, 0, 0, 0, 0, 0, 0])]
            }
            return fake(packet)
        }
        let host = Self.host(transport)
        try await host.start()
        await #expect {
            _ = try await host.connect(to: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, type: .random, timeout: .milliseconds(300))
        } throws: { error in
            guard case BluetoothError.timeout(let operation, _, let hint) = error else { return false }
            return operation == "connecting to F0:F1:F2:F3:F4:F5 (random)" && hint?.contains("the accessory did not answer") == true
                && "\(error)" == "connecting to F0:F1:F2:F3:F4:F5 (random) timed out after 300 ms: the accessory did not answer: is it advertising, in range, and not connected to another device?"
        }
        #expect(transport.sentCommands.last == [0x01, 0x0E, 0x20, 0x00], "LE Create Connection Cancel sent")
        await host.close()
    }

    @Test("a connection nobody asked for is disconnected without stalling the event loop")
    func orphanConnection() async throws {
        let transport = ScriptedTransport(responder: FakeController.responder())
        let host = Self.host(transport)
        try await host.start()
        transport.deliverEvent(Self.connectionComplete(handle: 5))
        try await Self.waitUntil { transport.sentCommands.contains([0x01, 0x06, 0x04, 0x03, 0x05, 0x00, 0x13]) }
        transport.deliverEvent([0x05, 0x04, 0x00, 0x05, 0x00, 0x16])
        try await Self.waitUntil { await host.activeConnections.isEmpty }
        // The event loop still serves other events at once.
        let stream = try await host.scan()
        transport.deliverEvent([0x3E, 0x12, 0x02, 0x01, 0x00, 0x01, 0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0, 0x06,
                                0x05, 0x09, 0x61, 0x62, 0x63, 0x64, 0xB8])
        #expect(try await first(stream, timeout: .seconds(2)).name == "abcd")
        await host.close()
    }

    static func connectionComplete(handle: UInt8) -> [UInt8] {
        [0x3E, 0x13, 0x01, 0x00, handle, 0x00, 0x00, 0x01, 0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0, 0x28, 0x00, 0x00, 0x00, 0x90, 0x01, 0x00]
    }

    /// Waits for `condition` (generous: a loaded 2-core machine can starve the test pool for seconds).
    static func waitUntil(timeout: Duration = .seconds(60), _ condition: () async -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !(await condition()) {
            guard clock.now < deadline else {
                Issue.record("condition not met within \(timeout)")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
