import FuzzSupport
import FuzzUCICommon
import UCI

/// One UCI packet: `UCIPacket(bytes:)` -> `UCIReassembler` -> `UCIMessage` (UCI 1.1 and 2.0),
/// the direct `UCIResponse` / `UCINotification` decoders for the packet's opcode, and
/// `UCITLVReader` over the payload (the counted TLV lists of configuration messages).
///
/// Input: one packet (header + payload).
/// Invariants: see `UCIChecks.checkMessage`; a TLV list read entry by entry gives the same
/// entries as `countedList()`.
@main enum FuzzUCIMessage: FuzzTarget {
    static var seeds: [[UInt8]] { UCISeeds.packets }

    static func fuzz(_ input: [UInt8]) {
        guard let packet = try? UCIPacket(bytes: input) else { return }
        var reassembler = UCIReassembler()
        if let raw = try? reassembler.append(packet) {
            for version in [UCIVersion.v1_1, .v2_0] { UCIChecks.checkMessage(raw, version: version) }
        }
        let opcode = UCIOpcode(gid: UCIGroupID(rawValue: packet.header.groupOrFormat), oid: packet.header.opcodeID)
        _ = try? UCIResponse(opcode: opcode, payload: packet.payload)
        _ = try? UCINotification(opcode: opcode, payload: packet.payload, version: .v1_1)
        _ = try? UCIDataMessage(format: UCIDataPacketFormat(rawValue: packet.header.groupOrFormat), payload: packet.payload)
        checkTLVs(packet.payload)
        checkTLVs(packet.payload.dropFirst(min(4, packet.payload.count)))  // after a session handle
        checkTLVs(packet.payload.dropFirst(min(5, packet.payload.count)))  // after a handle and a status
    }

    static func checkTLVs(_ bytes: ArraySlice<UInt8>) {
        var whole = UCITLVReader(bytes, context: "FUZZ")
        let list = try? whole.countedList()
        var stepwise = UCITLVReader(bytes, context: "FUZZ")
        guard let count = try? stepwise.count() else {
            FuzzCheck.require(list == nil, "countedList read a list without a count")
            return
        }
        var entries: [UCITLV] = []
        for index in 0..<count {
            guard let tlv = try? stepwise.next(index, of: count) else { break }
            entries.append(tlv)
        }
        if let list {
            FuzzCheck.require(list == entries && stepwise.isAtEnd, "countedList and next() disagree")
        }
    }
}
