import FuzzLowEnergyCommon
import FuzzSupport
@testable import LowEnergy

/// The controller -> host H4 byte stream, as `HCIHost` and `BLEConnection` take it: `H4Framer`
/// -> events (`HCIEvent`, LE meta events, advertising reports and their data) and ACL data
/// (`ACLPacket` -> `ACLReassembler` -> `L2CAPFrame` -> ATT bearer, LE signaling, SMP decoding).
///
/// Input: 1 control byte (bits 0-5: read size - 1), then the stream.
/// Invariants: a decoded ACL packet or L2CAP frame re-encodes to its bytes; the reassembler never
/// returns a PDU whose L2CAP length disagrees with its size.
@main enum FuzzHCI: FuzzTarget {
    static let seeds: [[UInt8]] = LowEnergySeeds.h4Streams

    static func fuzz(_ input: [UInt8]) {
        var reader = FuzzInput(input)
        let readSize = Int(reader.byte() & 0x3F) + 1
        var framer = H4Framer()
        var reassemblers: [UInt16: ACLReassembler] = [:]
        let bearer = LowEnergySeeds.bearer()
        let stream = reader.rest()
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + readSize)
            defer { start = end }
            let packets: [HCIPacket]
            do {
                packets = try framer.append(stream[start..<end])
            } catch {
                return  // out of sync: the host ends the transport
            }
            for packet in packets {
                switch packet.type {
                case .event:
                    guard let event = try? HCIEvent(decoding: packet.bytes) else { continue }
                    if case .le(.advertisingReports(let reports)) = event {
                        for report in reports { _ = AdvertisingData(parsing: report.data).localName }
                    }
                case .acl:
                    guard let acl = try? ACLPacket(decoding: packet.bytes) else { continue }
                    // The broadcast flag (bits 14-15) is not kept: LE links only carry 0b00.
                    var expected = packet.bytes
                    expected[1] &= 0x3F
                    FuzzCheck.require(acl.packet.bytes == expected, "ACL packet does not re-encode")
                    let outcome = reassemblers[acl.handle, default: ACLReassembler()].append(acl)
                    guard let pdu = outcome.pdu else { continue }
                    FuzzCheck.require(pdu.count == 4 + (Int(pdu[0]) | Int(pdu[1]) << 8), "PDU length mismatch")
                    guard let frame = try? L2CAPFrame(decoding: pdu) else {
                        FuzzCheck.require(false, "a reassembled PDU does not decode as an L2CAP frame")
                        continue
                    }
                    FuzzCheck.require(frame.bytes == pdu, "L2CAP frame does not re-encode")
                    switch frame.channel {
                    case L2CAPFrame.attributeProtocolChannel: _ = bearer.receive(frame.payload)
                    case L2CAPFrame.leSignalingChannel: _ = LESignaling.handle(frame.payload)
                    case L2CAPFrame.securityManagerChannel: _ = try? SMPPDU(decoding: frame.payload)
                    default: break
                    }
                default:
                    break
                }
            }
        }
    }
}
