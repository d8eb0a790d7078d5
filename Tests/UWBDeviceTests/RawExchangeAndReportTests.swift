import NearbySupport
import Simulation
import Synchronization
import Testing
import UCI
@testable import UWBDevice

/// `nearby uwb raw`, `nearby uwb info` and `nearby uwb list` as library calls: raw packets over
/// TCP to a virtual UWBS server, the device report, and the device list.
@Suite struct RawExchangeAndReportTests {
    /// Lines collected from the exchange's callbacks.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        @Sendable func add(_ line: String) { lines.withLock { $0.append(line) } }
    }

    @Test func commandsGetTheirResponsesAndNotificationsArePrinted() async throws {
        let world = try VirtualUWBSWorld()
        let server = try VirtualUWBSServer(world: world, host: "127.0.0.1", port: 0)
        let packets = Lines(), errors = Lines()
        let ok = await UCIRawExchange.run(
            [try UCIPacket(hex: "20 00 00 01 00"), try UCIPacket(hex: "20 02 00 00")], over: TCPTransport(host: "127.0.0.1", port: server.port),
            device: "tcp", responseTimeout: .seconds(30), listen: .milliseconds(100), packet: packets.add, error: errors.add)
        #expect(ok && errors.all.isEmpty)
        let lines = packets.all
        // The first line sent is the reset; the power-up CORE_DEVICE_STATUS_NTF may be printed before it
        // (it is read as soon as it arrives).
        #expect(lines.first { $0.hasPrefix(">") } == "> 20 00 00 01 00                        CMD gid 0x0 oid 0x0, 1 payload byte(s)")
        #expect(lines.prefix { $0.hasPrefix("<") }.allSatisfy { $0.hasPrefix("< 60 01 ") })
        #expect(lines.contains("< 40 00 00 01 00                        RSP gid 0x0 oid 0x0, 1 payload byte(s), status 0x0"))
        #expect(lines.contains { $0.hasPrefix("< 60 01 00 01 01") && $0.hasSuffix("NTF gid 0x0 oid 0x1, 1 payload byte(s)") })
        #expect(lines.contains { $0.hasPrefix("> 20 02 00 00") })
        #expect(lines.contains { $0.hasPrefix("< 40 02 ") && $0.hasSuffix("status 0x0") })
        await server.stop()
        await world.shutdown()
    }

    @Test func aResponseThatDoesNotComeFailsNamingThePacket() async throws {
        let world = try VirtualUWBSWorld()
        let server = try VirtualUWBSServer(
            world: world, host: "127.0.0.1", port: 0, configuration: VirtualUWBSConfiguration(responseDelay: .seconds(5)))
        let packets = Lines(), errors = Lines()
        let ok = await UCIRawExchange.run(
            [try UCIPacket(hex: "20 00 00 01 00"), try UCIPacket(hex: "20 02 00 00")], over: TCPTransport(host: "127.0.0.1", port: server.port),
            device: "tcp:test", responseTimeout: .milliseconds(200), listen: .zero, packet: packets.add, error: errors.add)
        #expect(!ok)
        #expect(errors.all == ["tcp:test: the response to packet 1 (20 00 00 01) timed out after 200 ms"])
        #expect(!packets.all.contains { $0.hasPrefix("> 20 02") }, "nothing is sent after a missing response")
        await server.stop()
        await world.shutdown()
    }

    @Test func aTransportThatCannotOpenIsReported() async throws {
        let world = try VirtualUWBSWorld()
        let server = try VirtualUWBSServer(world: world, host: "127.0.0.1", port: 0)
        let port = server.port
        await server.stop()
        let errors = Lines()
        let ok = await UCIRawExchange.run(
            [try UCIPacket(hex: "20 02 00 00")], over: TCPTransport(host: "127.0.0.1", port: port), device: "tcp",
            responseTimeout: .seconds(1), listen: .zero, packet: { _ in }, error: errors.add)
        #expect(!ok && errors.all.count == 1)
        await world.shutdown()
    }

    @Test func theDeviceReportHasVersionsAndDecodedCapabilities() async throws {
        let world = try VirtualUWBSWorld()
        let fields = try await UCIClient(transport: world.makeTransport(name: "sim")).report(device: "sim")
        #expect(fields.map(\.name) == ["device", "uci_version", "mac_version", "phy_version", "test_version", "vendor_info", "capabilities"])
        #expect(fields[0] == UCIField("device", .text("sim")) && fields[1] == UCIField("uci_version", .text("2.0.0")))
        guard case .group(let capabilities) = fields[6].value else {
            Issue.record("capabilities: \(fields[6])")
            return
        }
        #expect(capabilities.contains(UCIField("supported_channels", .list([.integer(5), .integer(9)]))))
        let missing = UCIDeviceReport.fields(
            device: "x", info: UCIDeviceInfo(uciVersion: .v1_1, macVersion: .v1_1, phyVersion: .v1_1, testVersion: .v1_1, vendorInfo: []),
            capabilities: nil, capabilitiesError: nil)
        #expect(missing.last == UCIField("capabilities", .text("not read")))
        await world.shutdown()
    }

    @Test func theDeviceListSaysWhatToPassAndWhatToFix() {
        let kit = AttachedUSBDevice(
            bus: 1, address: 4, portPath: [2, 1], vendorID: 0x1915, productID: 0x520F, kit: .dwm3001cdk, manufacturer: "Qorvo",
            product: "DWM3001CDK", serialNumber: "A1", kernelDriver: "cdc_acm", access: .permissionDenied)
        let other = AttachedUSBDevice(
            bus: 1, address: 5, portPath: [3], vendorID: 0x1234, productID: 0x5678, kit: nil, manufacturer: nil, product: nil,
            serialNumber: nil, kernelDriver: nil, access: .failed("busy"))
        let lines = UWBDeviceDiscovery.listing(
            devices: [kit, other], ports: [SerialPortInfo(path: "/dev/ttyACM0", vendorID: 0x1915, productID: 0x520F, kit: .dwm3001cdk)], all: true)
        #expect(lines[0] == "USB devices:")
        #expect(lines[1].hasPrefix("  usb:1915:520f@1.4       Qorvo DWM3001CDK ("))
        #expect(lines[1].hasSuffix("\"Qorvo DWM3001CDK\"  serial A1  port 1-2.1  kernel driver: cdc_acm (nearby detaches it)  NO ACCESS"))
        #expect(lines[2].hasSuffix("port 1-3  cannot open: busy"))
        #expect(lines[3] == "Serial ports:")
        #expect(lines[4].hasPrefix("  serial:/dev/ttyACM0") && lines[4].hasSuffix("use serial:/dev/ttyACM0@115200"))
        #expect(lines[5] == "\nNO ACCESS: install the udev rule, then replug the kit:")
        let none = UWBDeviceDiscovery.listing(devices: [], ports: [], all: false)
        #expect(none[0] == "UWB dev kits on USB:" && none[1].hasPrefix("  none found (supported: Qorvo DWM3001CDK 1915:520f"))
        #expect(none.last == "  none (/dev/ttyACM*, /dev/ttyUSB*)")
    }
}
