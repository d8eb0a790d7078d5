import Foundation
import LowEnergy
import NearbySupport
import NearbyTestSupport
import Testing

/// `--hci-log`: btsnoop (datalink 1002) written by the tap at the HCI transport seam, key
/// material zeroed; read back with our reader and dissected by tshark.
@Suite("HCI capture (btsnoop)")
struct HCICaptureTests {
    static let key: [UInt8] = (0..<16).map { UInt8(0xA0 + $0) }

    @Test("a record is byte-exact: big-endian lengths, flags (direction, command/event), time since year 0, H4 type")
    func record() throws {
        #expect(BTSnoop.fileHeader == Array("btsnoop".utf8) + [0, 0, 0, 0, 1, 0, 0, 0x03, 0xEA])
        let record = BTSnoop.record(HCIPacket(.command, [0x03, 0x0C, 0x00]), direction: .sent, microseconds: 1)
        #expect(record == [0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 0, 0x00, 0xDC, 0xDD, 0xB3, 0x0F, 0x2F, 0x80, 0x01, 0x01, 0x03, 0x0C, 0x00])
        let event = BTSnoop.record(HCIPacket(.event, [0x0E, 0x01, 0x01]), direction: .received, microseconds: 0)
        #expect(Array(event[8..<12]) == [0, 0, 0, 3], "received, event")
        let acl = BTSnoop.record(HCIPacket(.acl, [0x01, 0x20, 0x00, 0x00]), direction: .received, microseconds: 0)
        #expect(Array(acl[8..<12]) == [0, 0, 0, 1], "received, data")
        let file = try BTSnoopReader(bytes: BTSnoop.fileHeader + record + event + acl)
        #expect(file.records.map(\.packet.type) == [.command, .event, .acl])
        #expect(file.records.map(\.direction) == [.sent, .received, .received])
        #expect(file.records[0].microseconds == 1)
    }

    @Test("keys are zeroed: LE Enable Encryption, LTK Request Reply, LE Encrypt, resolving list IRKs, DHKey, SMP key PDUs")
    func redaction() {
        var redactor = HCIKeyRedactor()
        let zero = [UInt8](repeating: 0, count: 16)
        // LE Enable Encryption: handle, rand, ediv kept; the LTK zeroed.
        let enable = HCIPacket(.command, [0x19, 0x20, 28, 0x01, 0x00] + [UInt8](repeating: 7, count: 10) + Self.key)
        #expect(redactor.redact(enable, sent: true).bytes == [0x19, 0x20, 28, 0x01, 0x00] + [UInt8](repeating: 7, count: 10) + zero)
        let reply = HCIPacket(.command, [0x1A, 0x20, 18, 0x01, 0x00] + Self.key)
        #expect(redactor.redact(reply, sent: true).bytes == [0x1A, 0x20, 18, 0x01, 0x00] + zero)
        let encrypt = HCIPacket(.command, [0x17, 0x20, 32] + Self.key + [UInt8](repeating: 5, count: 16))
        #expect(redactor.redact(encrypt, sent: true).bytes == [0x17, 0x20, 32] + zero + [UInt8](repeating: 5, count: 16))
        let resolving = HCIPacket(.command, [0x27, 0x20, 39, 0x01, 1, 2, 3, 4, 5, 6] + Self.key + Self.key)
        #expect(redactor.redact(resolving, sent: true).bytes == [0x27, 0x20, 39, 0x01, 1, 2, 3, 4, 5, 6] + zero + zero)
        let dhkey = HCIPacket(.event, [0x3E, 34, 0x09, 0x00] + Self.key + Self.key)
        #expect(redactor.redact(dhkey, sent: false).bytes == [0x3E, 34, 0x09, 0x00] + zero + zero)
        let other = HCIPacket(.command, [0x03, 0x0C, 0x00])
        #expect(redactor.redact(other, sent: true) == other)

        // SMP Encryption Information on handle 0x0040, L2CAP CID 6: the LTK zeroed.
        let smp = L2CAPFrame(channel: 6, payload: [0x06] + Self.key).bytes
        let whole = ACLPacket.fragments(of: smp, handle: 0x40, maximumLength: 64).map(\.packet)
        #expect(whole.count == 1)
        #expect(redactor.redact(whole[0], sent: false).bytes.suffix(16) == ArraySlice(zero))
        // The same PDU in 5-byte fragments, sent: every key byte zeroed wherever it falls.
        let fragments = ACLPacket.fragments(of: smp, handle: 0x40, maximumLength: 5).map(\.packet)
        let redacted = fragments.map { redactor.redact($0, sent: true) }
        #expect(redacted.flatMap { $0.bytes.dropFirst(4) } == Array(smp.prefix(5)) + zero)
        // Identity Information (IRK) too; Pairing Random is kept (not a long-term key).
        let irk = ACLPacket.fragments(of: L2CAPFrame(channel: 6, payload: [0x08] + Self.key).bytes, handle: 0x40, maximumLength: 64)[0].packet
        #expect(redactor.redact(irk, sent: false).bytes.suffix(16) == ArraySlice(zero))
        let random = ACLPacket.fragments(of: L2CAPFrame(channel: 6, payload: [0x04] + Self.key).bytes, handle: 0x40, maximumLength: 64)[0].packet
        #expect(redactor.redact(random, sent: false) == random)
        // The same bytes on the ATT channel are data, not keys.
        let att = ACLPacket.fragments(of: L2CAPFrame(channel: 4, payload: [0x06] + Self.key).bytes, handle: 0x40, maximumLength: 64)[0].packet
        #expect(redactor.redact(att, sent: false) == att)
    }
}

extension BumbleTests {
    @Suite("Bumble: --hci-log captures")
    struct Captures {
        @Test("pairing, then the data channel: tshark dissects HCI, L2CAP, ATT writes and notifications and SMP, nothing malformed; no key in the file; 0600")
        func pairedDataChannel() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-hci-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("hci.btsnoop").path
            let capture = try HCICaptureLog(path: path)
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let bonds = InMemoryBondStore()
            let host = try await BLEHost.open(
                peer.spec, configuration: BLEHostConfiguration(commandTimeout: .seconds(5)), security: Security.context(bonds: bonds),
                capture: capture, logger: testLogger)
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let bond = try await connection.pair()
            let channel = try await GATTDataChannel.open(on: connection, host: host)
            var messages = channel.messages.makeAsyncIterator()
            try await channel.send([0x0A, 0x01])
            #expect(await messages.next() == [0x0A, 0x01])
            await channel.close()
            await host.close()
            capture.close()

            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let records = try BTSnoopReader(bytes: bytes).records
            #expect(records.count == capture.file.statistics.recordsWritten && capture.file.statistics.recordsLost == 0)
            #expect(records.first?.packet.bytes.prefix(2) == [0x03, 0x0C], "HCI Reset first")
            // Neither long-term key appears, in either byte order.
            // (Bumble's IRK is all zeros: that one cannot be told from a redacted field.)
            let keys = [bond.peerLongTermKey?.key.bytes, bond.localLongTermKey?.key.bytes, bond.peerIRK?.bytes].compactMap { $0 }
            #expect(keys.contains { $0.contains { $0 != 0 } }, "the pairing made a key to look for")
            for key in keys where key.contains(where: { $0 != 0 }) {
                let leaks = records.filter { contains($0.packet.bytes, key) || contains($0.packet.bytes, key.reversed()) }
                #expect(leaks.isEmpty, "a key is in the capture: \(leaks.map { "\($0.direction) \($0.packet)" })")
            }

            let rows = try await Tshark.fields(path, ["frame.number", "frame.protocols", "btatt.opcode", "btsmp.opcode", "_ws.malformed"])
            #expect(rows.count == records.count)
            #expect(rows.allSatisfy { $0.count == 5 && $0[4].isEmpty }, "no malformed frame")
            let protocols = rows.map { $0[1] }
            #expect(protocols.contains { $0.contains("bthci_cmd") } && protocols.contains { $0.contains("bthci_evt") })
            #expect(protocols.contains { $0.contains("btl2cap") })
            let att = rows.flatMap { $0[2].split(separator: ",").map(String.init) }
            #expect(att.contains("0x12") || att.contains("0x52"), "our ATT writes are dissected: \(Set(att))")
            #expect(att.contains("0x1b"), "the accessory's notifications are dissected: \(Set(att))")
            let smp = rows.flatMap { $0[3].split(separator: ",").map(String.init) }
            #expect(smp.contains("0x01") && smp.contains("0x02"), "SMP Pairing Request / Response dissected: \(Set(smp))")
            let expert = try await Tshark.read(path, ["-q", "-z", "expert,error"])
            #expect(!expert.contains("Malformed"), "\(expert)")
            try? FileManager.default.removeItem(at: directory)
        }

        func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
            guard needle.count <= haystack.count else { return false }
            return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
    }
}
