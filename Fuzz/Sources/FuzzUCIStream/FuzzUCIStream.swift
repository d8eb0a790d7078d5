import FuzzSupport
@_spi(Benchmarks) import UWBDevice
import UCI
import FuzzUCICommon

/// The UWBS -> host byte stream, the way every transport receives it: bulk IN transfers
/// (FT230X status bytes stripped on the kits that have them) -> `UCIPacketFramer` ->
/// `UCIInbound.dispatch` (range data read in place; everything else through `UCIReassembler`) ->
/// `UCIMessage` decoding with the UCI version the client would use.
///
/// Input: 1 control byte (bit 0: strip FT230X status, bit 1: UCI 1.1, bits 2-7: transfer size),
/// then the stream.
/// Invariants: a range-data view and the full decoder agree; a decoded message re-encodes to bytes
/// that decode to the same message.
@main enum FuzzUCIStream: FuzzTarget {
    static var seeds: [[UInt8]] {
        // Transfers of 64 bytes; 3 bytes; 64 bytes with FT230X status bytes (2 per 64) added.
        var ftdi: [UInt8] = []
        var index = 0
        let stream = UCISeeds.stream
        while index < stream.count {
            ftdi += [0x01, 0x60] + stream[index..<min(stream.count, index + 62)]
            index += 62
        }
        return [[0x3F << 2] + stream, [2 << 2] + stream, [0x3F << 2 | 1] + ftdi, [0x3F << 2 | 2] + stream]
            + UCISeeds.packets.map { [0x3F << 2] + $0 }
    }

    static func fuzz(_ input: [UInt8]) {
        var reader = FuzzInput(input)
        let control = reader.byte()
        let stripsFTDI = control & 1 == 1
        let version: UCIVersion = control & 2 == 0 ? .v2_0 : .v1_1
        let transferSize = Int(control >> 2) + 1
        var framing = USBInFraming(stripsFTDIStatus: stripsFTDI, maxPacketSize: 64)
        var reassembler = UCIReassembler(maximumMessageSize: 4096)
        let stream = reader.rest()
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + transferSize)
            stream[start..<end].withUnsafeBytes { transfer in
                framing.receive(transfer) { packet in
                    handle(packet, version: version, reassembler: &reassembler)
                }
            }
            start = end
        }
        _ = reassembler.partialMessages
    }

    static func handle(_ packet: UCIPacket, version: UCIVersion, reassembler: inout UCIReassembler) {
        let inbound: UCIInbound?
        do {
            inbound = try UCIInbound.dispatch(packet, reassembling: &reassembler)
        } catch {
            FuzzCheck.require(!error.description.isEmpty, "an error without a message")
            return
        }
        switch inbound {
        case .rangeData(let view)?:
            UCIChecks.checkView(view)
        case .message(let raw)?:
            _ = reassembler.interruptedByDeviceError
            UCIChecks.checkMessage(raw, version: version)
        case nil:
            break
        }
    }
}
