import Foundation
import Logging
import NearbySupport
import NearbyTestSupport
import Simulation
import Testing
import UCI
import UWBDevice

/// `--uci-log`: pcapng of link type FiRa UCI (299), one Enhanced Packet Block per UCI packet with
/// its direction, written by the tap at the transport seam; read back with our reader and tshark.
@Suite struct UCICaptureTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-uci-capture-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    @Test("the pcapng blocks are byte-exact: section header, interface 299 with its name, a packet with epb_flags")
    func blocks() {
        let header = PcapNG.fileHeader(linkType: PcapNG.linkTypeFiRaUCI, interface: "uci", application: "ab")
        // SHB: type, length 40, magic, 1.0, section length -1, shb_userappl "ab" (padded), end, length.
        #expect(
            Array(header.prefix(40)) == [
                0x0A, 0x0D, 0x0D, 0x0A, 40, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A, 1, 0, 0, 0,
                0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 4, 0, 2, 0, 0x61, 0x62, 0, 0, 0, 0, 0, 0, 40, 0, 0, 0,
            ])
        let interface = Array(header.dropFirst(40))
        #expect(Array(interface.prefix(12)) == [1, 0, 0, 0, 32, 0, 0, 0, 0x2B, 0x01, 0, 0], "IDB of link type 299 (0x012B)")
        let block = PcapNG.packetBlock([0x20, 0x00, 0x00, 0x01, 0x00], microseconds: 0x1_0000_0002, direction: .outbound)
        #expect(block.count == 52)
        #expect(Array(block[8..<20]) == [0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0], "interface 0, timestamp high, low")
        #expect(Array(block[28..<36]) == [0x20, 0x00, 0x00, 0x01, 0x00, 0, 0, 0], "the packet, padded to 4 bytes")
        #expect(Array(block[36..<44]) == [2, 0, 4, 0, 2, 0, 0, 0], "epb_flags: outbound")
        let read = try? PcapNGReader(bytes: header + block)
        #expect(read?.linkTypes == [299])
        #expect(read?.packets.first?.bytes == [0x20, 0x00, 0x00, 0x01, 0x00] && read?.packets.first?.direction == .outbound)
    }

    /// Found by FuzzCaptureFiles (specs/fuzzing.md §4): a Simple Packet Block names interface 0
    /// of its section; before any Interface Description Block there is none, and the reader
    /// returned a packet on an interface the file never described.
    @Test("a Simple Packet Block before any interface is refused, naming the block; after one it is read")
    func simplePacketBlockNeedsAnInterface() {
        let header = PcapNG.fileHeader(linkType: PcapNG.linkTypeFiRaUCI, interface: "uci", application: "ab")
        let sectionOnly = Array(header.prefix(40))
        // SPB: type 3, length 20, original length 4, the packet (4 bytes), length.
        let simple: [UInt8] = [3, 0, 0, 0, 20, 0, 0, 0, 4, 0, 0, 0, 0x60, 0x01, 0x00, 0x00, 20, 0, 0, 0]
        do {
            _ = try PcapNGReader(bytes: sectionOnly + simple)
            Issue.record("a Simple Packet Block without an interface was accepted")
        } catch {
            #expect(error.description == "Simple Packet Block at offset 40 before any Interface Description Block")
        }
        let read = try? PcapNGReader(bytes: header + simple)
        #expect(read?.packets.count == 1 && read?.packets.first?.interface == 0 && read?.packets.first?.bytes == [0x60, 0x01, 0x00, 0x00])
    }

    @Test("a client on the virtual UWBS: every packet captured with its direction; our reader and tshark agree; mode 0600")
    func clientSession() async throws {
        let path = directory.appendingPathComponent("uci.pcapng").path
        let log = try UCICaptureLog(path: path, interface: "sim")
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, seed: 1)
        defer { Task { await world.shutdown() } }
        _ = try await world.addPeer(VirtualPeer(sessionID: 42, address: .short(0x0002), peerAddress: .short(0x0001), rangingInterval: 50))
        let client = UCIClient(transport: world.makeTransport().capturing(to: log), configuration: UCIClientConfiguration(responseTimeout: .seconds(20)), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        try await client.open()
        let session = try await client.openSession(
            id: 42,
            parameters: FiRaSessionParameters(
                deviceMACAddress: .short(0x0001), destinationMACAddresses: [.short(0x0002)], deviceType: .controller,
                deviceRole: .initiator, rangingInterval: 50))
        try await session.start()
        var samples = 0
        for await _ in session.samples {
            samples += 1
            if samples == 5 { break }
        }
        await client.close()
        log.close()

        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let file = try PcapNGReader(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(file.linkTypes == [PcapNG.linkTypeFiRaUCI])
        let packets = file.packets
        #expect(packets.count == log.file.statistics.recordsWritten)
        // Every outbound packet is a command, every inbound one a response or a notification.
        let typed = try packets.map { ($0.direction, try UCIPacket(bytes: $0.bytes)) }
        #expect(typed.allSatisfy { direction, packet in
            direction == .outbound ? packet.header.messageType == .command : packet.header.messageType != .command
        })
        // The first command is the reset; before it only the power-up CORE_DEVICE_STATUS_NTF(READY),
        // recorded as it arrives (the capture taps the transport's own thread).
        let firstSent = typed.firstIndex { $0.0 == .outbound }
        #expect(firstSent.map { typed[$0].1.header.opcode } == .coreDeviceReset)
        #expect(typed[..<(firstSent ?? 0)].allSatisfy { $0.0 == .inbound && $0.1.header.opcode == .coreDeviceStatus })
        let ranging = typed.filter { $0.1.header.isUnsegmentedSessionInfo }
        #expect(ranging.count >= 5, "the range notifications are in the capture")
        let times = packets.map(\.microseconds)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })

        // tshark reads the same frames, lengths and directions (Debian 12's Wireshark 4.0 shows
        // the bytes as data: the UCI dissector came with 4.2; with it, every frame is `uci`).
        let rows = try await Tshark.fields(path, ["frame.number", "frame.len", "frame.p2p_dir", "_ws.malformed"])
        #expect(rows.count == packets.count)
        for (row, packet) in zip(rows, packets) {
            #expect(row[1] == "\(packet.bytes.count)")
            #expect(row[2] == (packet.direction == .outbound ? "0" : "1"), "p2p_dir 0 = sent, 1 = received")
            #expect(row[3].isEmpty, "no malformed frame")
        }
        if try await Tshark.knows("uci") {
            let protocols = try await Tshark.fields(path, ["frame.protocols"])
            #expect(protocols.allSatisfy { $0.first?.hasSuffix("uci") == true })
        }
    }
}
