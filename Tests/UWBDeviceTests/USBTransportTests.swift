import Foundation
import NearbyTestSupport
import Testing
import UWBDevice

/// The USB transport through the real libusb path, against dev kits emulated by umockdev
/// (`Tests/Peers/umockdev/emulator.py`). Each test runs its body in a second copy of this test
/// binary under the emulator (see ``USBEmulatedKit``) and checks the emulator's event log here.
@Suite(.serialized) struct USBTransportTests {
    // MARK: CDC-ACM (Qorvo DWM3001CDK)

    @Test func cdcACMCarriesPacketsByteExactBothWays() async throws {
        if USBEmulatedKit.isInner(#function.prefix { $0 != "(" }.description) {
            try await exchangeEveryVector(vendorID: 0x1915, productID: 0x520F)
            return
        }
        let server = try Self.uwbs()
        let run = try await USBEmulatedKit.runInner("cdcACMCarriesPacketsByteExactBothWays", kit: .dwm3001cdk, server: server)
        #expect(server.received == Self.sentByExchange)
        let events = run.events
        // The kernel's cdc_acm was bound to both interfaces and detached before claiming.
        for interface in [0, 1] {
            let detach = try #require(events.firstIndex(of: "detach interface \(interface) (cdc_acm)"), "\(run.transcript)")
            let claim = try #require(events.firstIndex(of: "claim interface \(interface)"), "\(run.transcript)")
            #expect(detach < claim)
        }
        let dtr = try #require(events.firstIndex(of: "DTR on"), "\(run.transcript)")
        let firstWrite = try #require(events.firstIndex { $0.hasPrefix("bulk-out") }, "\(run.transcript)")
        #expect(dtr < firstWrite)
        // Raw UCI on the bulk OUT pipe: one transfer per packet, byte-exact.
        let writes = events.filter { $0.hasPrefix("bulk-out ") }
        #expect(writes == [Vectors.getDeviceInfo, Vectors.longCommand, Vectors.dataPacket, Vectors.reset].map { "bulk-out " + hex($0) })
        // The board answered in 64-byte packets: several UCI packets shared a transfer, and the
        // 204-byte notification spanned several packets.
        #expect(events.contains { $0.hasPrefix("bulk-in ") && $0.count > "bulk-in ".count + 64 * 3 })
        // Closing gave both interfaces back to cdc_acm.
        #expect(events.contains("attach interface 0 (cdc_acm)"))
        #expect(events.contains("attach interface 1 (cdc_acm)"))
    }

    @Test func withoutDTRTheKitIsSilentAndWritesTimeOut() async throws {
        if USBEmulatedKit.isInner(#function.prefix { $0 != "(" }.description) {
            let configuration = UCITransportConfiguration(writeTimeout: .milliseconds(300), assertDTR: false)
            let transport = USBTransport(vendorID: 0x1915, productID: 0x520F, configuration: configuration)
            let packets = PacketCollector(try await transport.open())
            do {
                try await transport.send(Vectors.getDeviceInfo)
                Issue.record("the kit accepted a packet without DTR")
            } catch let error as UWBDeviceError {
                #expect(error.code == .timeout)
                #expect(error.description.contains("did not accept a UCI packet within 300 ms"))
                #expect(error.description.contains("DTR is off"))
                #expect(error.description.contains("SET_CONTROL_LINE_STATE"))
            }
            try await Task.sleep(for: .milliseconds(200))
            #expect(packets.packets.isEmpty)
            await transport.close()
            return
        }
        let server = try Self.uwbs()
        let run = try await USBEmulatedKit.runInner("withoutDTRTheKitIsSilentAndWritesTimeOut", kit: .dwm3001cdk, server: server)
        #expect(server.connectionCount == 0)
        #expect(!run.events.contains("DTR on"))
        #expect(run.events.contains("bulk-out cancelled by the host (4 bytes not accepted)"), "\(run.transcript)")
        #expect(!run.events.contains { $0.hasPrefix("uci-to-uwbs") })
    }

    @Test func unplugIsReportedWithinOneSecondAndTheKitIsReopenedAfterReplug() async throws {
        if USBEmulatedKit.isInner(#function.prefix { $0 != "(" }.description) {
            let emulator = try USBEmulatedKit.emulatorPID
            // Pinned to the address it has now; after the replug it is found on the same port.
            let transport = USBTransport(vendorID: 0x1915, productID: 0x520F, bus: 1, address: 2)
            let packets = PacketCollector(try await transport.open())
            try await transport.send(Vectors.getDeviceInfo)
            #expect(try await packets.waitForPackets(3) == [Vectors.ready, Vectors.deviceInfo, Vectors.longNotification])

            let unplugged = ContinuousClock.now
            kill(emulator, SIGUSR1)
            let error = try #require(try await packets.waitForEnd(timeout: .seconds(10)) as? UWBDeviceError)
            #expect(error.code == .disconnected)
            #expect(error.description.contains("unplugged"))
            let ended = try #require(packets.endedAt)
            #expect(ended >= unplugged, "reported after the unplug, by the unplug (not by a timeout: see the error above)")
            await #expect {
                try await transport.send(Vectors.getDeviceInfo)
            } throws: { error in
                (error as? UWBDeviceError)?.code == .disconnected
            }
            await #expect {
                try await transport.waitUntilPresent(timeout: .milliseconds(300))
            } throws: { error in
                (error as? UWBDeviceError)?.code == .timeout
            }

            let replug = Task {
                try await Task.sleep(for: .milliseconds(300))
                kill(emulator, SIGUSR2)
            }
            try await transport.waitUntilPresent(timeout: .seconds(20))
            try await replug.value
            let again = PacketCollector(try await transport.open())
            // A fresh board: a new UWBS connection, READY again, then the same exchange.
            #expect(try await again.waitForPackets(1) == [Vectors.ready])
            try await transport.send(Vectors.reset)
            #expect(try await again.waitForPackets(3) == [Vectors.ready, Vectors.resetOK, Vectors.ready])
            await transport.close()
            #expect(try await again.waitForEnd() == nil)
            return
        }
        let server = try Self.uwbs()
        let run = try await USBEmulatedKit.runInner("unplugIsReportedWithinOneSecondAndTheKitIsReopenedAfterReplug", kit: .dwm3001cdk, server: server)
        // One UWBS connection per plug-in: the replugged board started fresh.
        #expect(server.connectionCount == 2)
        #expect(server.received == [Vectors.getDeviceInfo, Vectors.reset])
        let events = run.events
        let unplug = try #require(events.firstIndex(of: "unplugged 1.2"), "\(run.transcript)")
        let replug = try #require(events.firstIndex { $0.hasPrefix("plugged dwm3001cdk 1915:520f at 1.3") }, "\(run.transcript)")
        #expect(unplug < replug)
        // The whole bring-up was redone on the new device: detach, claim, DTR.
        let after = events[replug...]
        #expect(after.contains("detach interface 1 (cdc_acm)"))
        #expect(after.contains("claim interface 1"))
        #expect(after.contains("DTR on"))
        #expect(after.contains("bulk-out " + hex(Vectors.reset)))
    }

    @Test func anotherProcessHoldingTheKitIsReportedBusy() async throws {
        if USBEmulatedKit.isInner(#function.prefix { $0 != "(" }.description) {
            let first = USBTransport(vendorID: 0x1915, productID: 0x520F)
            let packets = PacketCollector(try await first.open())
            _ = try await packets.waitForPackets(1)
            let second = USBTransport(vendorID: 0x1915, productID: 0x520F)
            do {
                _ = try await second.open()
                Issue.record("a second user claimed a kit that is in use")
            } catch let error as UWBDeviceError {
                #expect(error.code == .busy)
                #expect(error.description.contains("LIBUSB_ERROR_BUSY"))
                #expect(error.description.contains("ModemManager"))
            }
            // The first user is unaffected.
            try await first.send(Vectors.reset)
            #expect(try await packets.waitForPackets(3) == [Vectors.ready, Vectors.resetOK, Vectors.ready])
            await first.close()
            return
        }
        let server = try Self.uwbs()
        let run = try await USBEmulatedKit.runInner("anotherProcessHoldingTheKitIsReportedBusy", kit: .dwm3001cdk, server: server)
        #expect(server.received == [Vectors.reset])
        #expect(run.events.contains("claim interface 0 refused: claimed by another process"), "\(run.transcript)")
    }

    @Test func discoveryListsTheKitAndNotFoundSaysWhatIsAttached() async throws {
        if USBEmulatedKit.isInner(#function.prefix { $0 != "(" }.description) {
            let devices = try UWBDeviceDiscovery.usbDevices()
            #expect(devices.count == 1)
            let kit = try #require(devices.first)
            #expect(kit.spec.description == "usb:1915:520f@1.2")
            #expect(kit.kit == .dwm3001cdk)
            #expect(kit.manufacturer == "Nordic Semiconductor")
            #expect(kit.product == "nRF52 USB Product")
            #expect(kit.serialNumber == "E4C1F0A2B3D5")
            #expect(kit.kernelDriver == "cdc_acm")
            #expect(kit.access == .ok)
            #expect(kit.portName == "1-1")
            let everything = try UWBDeviceDiscovery.usbDevices(includeUnknown: true)
            #expect(everything.count == 2)  // and the root hub
            #expect(everything.first?.kit == .dwm3001cdk)

            let missing = USBTransport(vendorID: 0x0403, productID: 0x6015)
            do {
                _ = try await missing.open()
                Issue.record("opened a kit that is not attached")
            } catch let error as UWBDeviceError {
                #expect(error.code == .notFound)
                #expect(error.description.contains("no USB device 0403:6015 is attached"))
                #expect(error.description.contains("Attached dev kits: usb:1915:520f@1.2 (Qorvo DWM3001CDK)"))
                #expect(error.description.contains("NXP SR150 EVK"))
                #expect(error.description.contains("nearby uwb list"))
            }
            let wrongAddress = USBTransport(vendorID: 0x1915, productID: 0x520F, bus: 1, address: 9)
            do {
                _ = try await wrongAddress.open()
                Issue.record("opened a kit at an address it does not have")
            } catch let error as UWBDeviceError {
                #expect(error.code == .notFound)
                #expect(error.description.contains("no 1915:520f at bus 1 address 9"))
            }
            return
        }
        _ = try await USBEmulatedKit.runInner("discoveryListsTheKitAndNotFoundSaysWhatIsAttached", kit: .dwm3001cdk, server: try Self.uwbs())
    }

    // MARK: FT230X (NXP SR150 EVK)

    @Test func ft230xStripsStatusBytesAndFramesPacketsForTheBoard() async throws {
        if USBEmulatedKit.isInner(#function.prefix { $0 != "(" }.description) {
            try await exchangeEveryVector(vendorID: 0x0403, productID: 0x6015)
            return
        }
        let server = try Self.uwbs()
        let run = try await USBEmulatedKit.runInner("ft230xStripsStatusBytesAndFramesPacketsForTheBoard", kit: .sr150, server: server)
        #expect(server.received == Self.sentByExchange)
        let events = run.events
        let detach = try #require(events.firstIndex(of: "detach interface 0 (ftdi_sio)"), "\(run.transcript)")
        let claim = try #require(events.firstIndex(of: "claim interface 0"), "\(run.transcript)")
        #expect(detach < claim)
        for setting in ["ftdi reset", "ftdi purge rx", "ftdi purge tx", "ftdi baud 3000000", "ftdi data 8N1",
                        "ftdi flow control none", "ftdi modem control 0303", "ftdi latency 2 ms"] {
            #expect(events.contains(setting), "missing \(setting)")
        }
        // Host -> board: the NXP header, then the packet, one transfer per packet.
        let writes = events.filter { $0.hasPrefix("bulk-out ") }
        let sent: [[UInt8]] = [Vectors.getDeviceInfo, Vectors.longCommand, Vectors.dataPacket, Vectors.reset]
        let framed: [String] = sent.map { packet in
            let header: [UInt8] = [0x01, UInt8(packet.count >> 8), UInt8(packet.count & 0xFF)]
            return "bulk-out " + hex(header + packet)
        }
        #expect(writes == framed)
        // The board saw the bare packets.
        let toBoard = events.filter { $0.hasPrefix("uci-to-uwbs ") }
        #expect(toBoard == [Vectors.getDeviceInfo, Vectors.longCommand, Vectors.dataPacket, Vectors.reset].map { "uci-to-uwbs " + hex($0) })
        // Every IN packet started with the 2 status bytes (stripped by the host: the inner test
        // checked the packets byte for byte); long answers needed several 64-byte packets.
        let reads = events.filter { $0.hasPrefix("bulk-in ") }
        #expect(!reads.isEmpty)
        #expect(reads.allSatisfy { $0.hasPrefix("bulk-in 01 60") })
        #expect(reads.contains { $0.count > "bulk-in ".count + 64 * 3 })
        #expect(events.contains("attach interface 0 (ftdi_sio)"))
    }

    // MARK: Shared parts

    /// The scripted UWBS behind the emulated board (started by the outer run).
    private static func uwbs() throws -> ScriptedUCIServer {
        try ScriptedUCIServer(greeting: [Vectors.ready], responder: Vectors.responder)
    }

    /// What ``exchangeEveryVector(vendorID:productID:)`` sends, in order.
    private static let sentByExchange = [Vectors.getDeviceInfo, Vectors.longCommand, Vectors.dataPacket, Vectors.reset]

    /// Opens the kit, exchanges every test vector with the scripted UWBS behind it and checks
    /// what the host receives byte for byte (the outer run checks what the UWBS received).
    private func exchangeEveryVector(vendorID: UInt16, productID: UInt16) async throws {
        let transport = USBTransport(vendorID: vendorID, productID: productID)
        let packets = PacketCollector(try await transport.open())
        #expect(try await packets.waitForPackets(1) == [Vectors.ready])
        try await transport.send(Vectors.getDeviceInfo)
        #expect(try await packets.waitForPackets(3) == [Vectors.ready, Vectors.deviceInfo, Vectors.longNotification])
        try await transport.send(Vectors.longCommand)
        try await transport.send(Vectors.dataPacket)
        try await transport.send(Vectors.reset)
        let all = try await packets.waitForPackets(7)
        #expect(all[3] == [0x41, 0x03, 0x00, 0xFF] + Array(Vectors.longCommand[4...]))
        #expect(all[4] == [0x02, 0x00] + Array(Vectors.dataPacket[2...]))
        #expect(all[5] == Vectors.resetOK)
        #expect(all[6] == Vectors.ready)
        await #expect {
            try await transport.send([0x20, 0x02, 0x00])
        } throws: { error in
            (error as? UWBDeviceError)?.code == .invalidPacket
        }
        await transport.close()
        #expect(try await packets.waitForEnd() == nil)
        #expect(packets.packets.count == 7)
    }
}
