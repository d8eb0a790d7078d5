import Benchmark
import Ranging

let benchmarks: @Sendable () -> Void = {
    Benchmark("RangeSample: validity check", configuration: .init(metrics: [.throughput, .mallocCountTotal])) { benchmark in
        let sample = RangeSample(timestamp: 0, distance: 1.5, status: 0)
        for _ in benchmark.scaledIterations {
            blackHole(sample.isValid)
        }
    }
}
