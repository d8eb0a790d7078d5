import FuzzSupport
import LowEnergy
import UWBDevice

/// The capture readers (`PcapNGReader`, `BTSnoopReader`): tools and tests read `--uci-log` and
/// `--hci-log` files with them, and a file can be anything.
///
/// Input: a file, read as pcapng and as btsnoop.
/// Invariants: a pcapng packet's interface is one the file described; a btsnoop file's records
/// re-encode to the bytes after the header when their flags and times say what ours would.
@main enum FuzzCaptureFiles: FuzzTarget {
    static var seeds: [[UInt8]] {
        let pcapng = PcapNG.fileHeader(linkType: PcapNG.linkTypeFiRaUCI, interface: "uci")
            + PcapNG.packetBlock([0x20, 0x00, 0x00, 0x01, 0x00], microseconds: 1, direction: .outbound)
            + PcapNG.packetBlock([0x40, 0x00, 0x00, 0x01, 0x00], microseconds: 2, direction: .inbound)
        let btsnoop = BTSnoop.fileHeader
            + BTSnoop.record(HCIPacket(.command, [0x03, 0x0C, 0x00]), direction: .sent, microseconds: 1)
            + BTSnoop.record(HCIPacket(.event, [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]), direction: .received, microseconds: 2)
            + BTSnoop.record(HCIPacket(.acl, [0x01, 0x20, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x1B]), direction: .received, microseconds: 3)
        return [pcapng, btsnoop]
    }

    static func fuzz(_ input: [UInt8]) {
        if let file = try? PcapNGReader(bytes: input) {
            FuzzCheck.require(file.packets.allSatisfy { $0.interface < file.linkTypes.count }, "a packet on an undescribed interface")
        }
        if let file = try? BTSnoopReader(bytes: input) {
            _ = file.records.map(\.packet.description)
        }
    }
}
