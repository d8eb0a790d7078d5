import Benchmark
import LowEnergy

/// The BLE host's per-packet paths: every advertising report while scanning, every ACL fragment
/// of a data-channel message.
let benchmarks: @Sendable () -> Void = {
    // An LE Extended Advertising Report as Bumble sends it: NUS UUID and a name (58 bytes).
    let report: [UInt8] = [0x3E, 0x38, 0x0D, 0x01, 0x01, 0x00, 0x01, 0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0,
                           0x01, 0x01, 0x00, 0x00, 0xCE, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                           0x1E, 0x02, 0x01, 0x06, 0x11, 0x07, 0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0,
                           0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E, 0x08, 0x09, 0x6E, 0x62, 0x2D, 0x70,
                           0x65, 0x65, 0x72]
    Benchmark("LowEnergy: decode an extended advertising report and parse its AD",
              configuration: .init(metrics: [.throughput, .mallocCountTotal])) { benchmark in
        for _ in benchmark.scaledIterations {
            if case .le(.advertisingReports(let reports))? = try? HCIEvent(decoding: report) {
                blackHole(AdvertisingData(parsing: reports[0].data))
            }
        }
    }

    // A 244-byte notification: a 251-byte L2CAP PDU in ten 27-byte ACL fragments.
    let pdu = L2CAPFrame(channel: 4, payload: [0x1B, 0x12, 0x00] + [UInt8](repeating: 0xAB, count: 244)).bytes
    let fragments = stride(from: 0, to: pdu.count, by: 27).enumerated().map { index, offset in
        ACLPacket(handle: 1, boundary: index == 0 ? .firstFlushable : .continuation,
                  data: Array(pdu[offset..<min(offset + 27, pdu.count)]))
    }
    let stream = fragments.flatMap(\.packet.h4Bytes)
    Benchmark("LowEnergy: frame and reassemble a 251-byte L2CAP PDU from 27-byte ACL fragments",
              configuration: .init(metrics: [.throughput, .mallocCountTotal])) { benchmark in
        for _ in benchmark.scaledIterations {
            var framer = H4Framer()
            var reassembler = ACLReassembler()
            for packet in (try? framer.append(stream)) ?? [] {
                if let acl = try? ACLPacket(decoding: packet.bytes) {
                    blackHole(reassembler.append(acl).pdu)
                }
            }
        }
    }
}
