import Benchmark
import Foundation
import Ranging

// Throughput and allocations of the Ranging engine on a bundled real trace
// (data/hanyang/dynamic/los_A_case1_A5.csv: 2134 samples, 10 Hz, real noise and gaps).
// One benchmark iteration = one sample; the scaling factor runs 1000 samples per measurement, so
// mallocCountTotal is per 1000 samples and throughput is in samples/s (scaled by 1000: "K").
// Pipelines and filters are built and warmed up (one pass over the trace) before measuring.

/// The trace's samples, read with Foundation (benchmark-only I/O) and parsed by `TraceParser`.
func bundledSamples(_ relativePath: String) -> [RangeSample] {
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { root.deleteLastPathComponent() }
    let path = root.appendingPathComponent(relativePath).path
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        fatalError("cannot read the benchmark trace \(path)")
    }
    var parser = TraceParser(source: relativePath)
    var samples: [RangeSample] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        do {
            if let record = try parser.parse(line: line, number: index + 1) { samples.append(record.sample) }
        } catch {
            fatalError("\(error)")
        }
    }
    return samples
}

/// What a consumer reads from an update (distance, velocity, confidence, zone, held flag, and
/// the azimuth when there is one), folded into one value for `blackHole`: this keeps every field
/// live without copying the whole 154-byte update into `blackHole`'s generic argument, which a
/// real consumer would not do either.
@inline(__always)
func consume(_ update: RangingUpdate) -> Double {
    let zone = Double(update.zone?.index ?? -1)
    let values = (update.distance ?? 0) + (update.velocity ?? 0) + update.confidence
    return values + zone + Double(update.events.count)
        + (update.isHeld ? 1 : 0) + (update.direction?.azimuth ?? 0)
}

/// Replays a trace endlessly: after the last sample it starts again, later in time.
struct Replay {
    let samples: [RangeSample]
    let period: Double
    var index = 0
    var offset = 0.0

    init(_ samples: [RangeSample]) {
        self.samples = samples
        self.period = samples[samples.count - 1].timestamp - samples[0].timestamp + 0.1
    }

    @inline(__always)
    mutating func next() -> RangeSample {
        var sample = samples[index]
        sample.timestamp += offset
        index += 1
        if index == samples.count {
            index = 0
            offset += period
        }
        return sample
    }
}

let benchmarks: @Sendable () -> Void = {
    let samples = bundledSamples("data/hanyang/dynamic/los_A_case1_A5.csv")
    // The same samples with azimuth and elevation added, to measure the direction path too.
    let withAngles = samples.map { sample -> RangeSample in
        var sample = sample
        sample.azimuth = 40 * sin(sample.timestamp / 7)
        sample.elevation = 10 * cos(sample.timestamp / 11)
        sample.figureOfMerit = 90
        return sample
    }
    let configuration = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(2))

    // The whole pipeline (filter + direction + zones + lost/found) for every filter by name.
    for spec in [FilterSpec.default] + FilterSpec.benchmarkSet.filter({ $0 != .default }) {
        let label = spec == .default ? "\(spec.name) (default)" : spec.name
        Benchmark("Pipeline \(label)", configuration: configuration) { benchmark in
            var pipeline = RangingPipeline(filter: spec)
            var replay = Replay(samples)
            for _ in samples.indices { blackHole(consume(pipeline.process(replay.next()))) }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(consume(pipeline.process(replay.next())))
            }
        }
    }

    Benchmark("Pipeline \(FilterSpec.default.name) (default) with azimuth + elevation", configuration: configuration) { benchmark in
        var pipeline = RangingPipeline(filter: .default)
        var replay = Replay(withAngles)
        for _ in samples.indices { blackHole(consume(pipeline.process(replay.next()))) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(consume(pipeline.process(replay.next())))
        }
    }

    // The default on the AAU drone trace: 10 Hz, heavy-tailed spikes and unusable rows (status 1).
    let drone = bundledSamples("data/aau/loiter_tag_a2.csv")
    Benchmark("Pipeline \(FilterSpec.default.name) (default) on the AAU drone trace", configuration: configuration) { benchmark in
        var pipeline = RangingPipeline(filter: .default)
        var replay = Replay(drone)
        for _ in drone.indices { blackHole(consume(pipeline.process(replay.next()))) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(consume(pipeline.process(replay.next())))
        }
    }

    Benchmark("Pipeline KalmanFilter (generic, no run-time dispatch)", configuration: configuration) { benchmark in
        var pipeline = RangingPipeline(
            distanceFilter: KalmanFilter(.standard(for: .distance)), angleFilter: KalmanFilter(.standard(for: .angle)))
        var replay = Replay(samples)
        for _ in samples.indices { blackHole(consume(pipeline.process(replay.next()))) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(consume(pipeline.process(replay.next())))
        }
    }

    // Each filter alone on the distances.
    func filterBenchmark<F: RangeFilter>(_ name: String, _ make: @escaping @Sendable () -> F) {
        Benchmark("Filter \(name)", configuration: configuration) { benchmark in
            var filter = make()
            var replay = Replay(samples)
            func input() -> FilterInput {
                let sample = replay.next()
                return FilterInput(value: sample.distance ?? 0, time: sample.timestamp)
            }
            for _ in samples.indices { blackHole(filter.update(input())) }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(filter.update(input()))
            }
        }
    }
    filterBenchmark("raw") { RawFilter() }
    filterBenchmark("median3") { MedianAverageFilter(.standard(for: .distance)) }
    filterBenchmark("ma10") { MovingAverageFilter(.standard(for: .distance)) }
    filterBenchmark("ema") { ExponentialMovingAverageFilter(.standard(for: .distance)) }
    filterBenchmark("one-euro") { OneEuroFilter(.standard(for: .distance)) }
    filterBenchmark("kalman") { KalmanFilter(.standard(for: .distance)) }
    filterBenchmark("imm") { IMMFilter(.standard(for: .distance)) }
    filterBenchmark("hampel") { HampelFilter(.standard(for: .distance)) }
    filterBenchmark("hampel+kalman (ConfiguredFilter)") { ConfiguredFilter(FilterSpec(.kalman, hampel: true), domain: .distance) }
}
