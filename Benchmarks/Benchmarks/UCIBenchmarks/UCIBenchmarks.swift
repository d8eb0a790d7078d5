import Benchmark
import UCI

let benchmarks: @Sendable () -> Void = {
    Benchmark("UCIPacketFramer: frame a 60-byte notification", configuration: .init(metrics: [.throughput, .mallocCountTotal])) { benchmark in
        var framer = UCIPacketFramer()
        let packet: [UInt8] = [0x62, 0x00, 0x00, 0x38] + [UInt8](repeating: 0, count: 56)
        for _ in benchmark.scaledIterations {
            framer.append(packet)
            blackHole(framer.nextPacket())
        }
    }
}
