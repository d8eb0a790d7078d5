import Benchmark
#if canImport(Glibc)
import Glibc
#endif
import NearbyInteraction
import NearbyRuntime
import NearbySupport
import NearbyTerminal
import NIProtocol
import Ranging
import UCI

// The last stage of a sample on the host (specs/runtime.md section 6): the update's JSON line,
// written into the output buffer in place (RunJSON.appendUpdateLine), and a whole burst through a
// LineWriter to /dev/null. One iteration = one update; the scaling factor runs 1000 per
// measurement, so mallocCountTotal is per 1000 updates. The buffer is warmed up first: the
// target is 0 mallocs per update.

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.throughput, .wallClock, .mallocCountTotal]
    let identity = AccessoryIdentity(id: "F0:F1:F2:F3:F4:F5", displayName: "Kitchen tag")
    let context = RunContext(accessories: [identity], zones: .standard, start: 1000, wallStart: 1_700_000_000)

    /// Updates as a pipeline makes them: a walk from 4 m to 1 m with noise, angles and a zone.
    func updates(_ count: Int) -> [RangingUpdate] {
        var pipeline = RangingPipeline(filter: .default, zones: .standard, lostAfter: 2)
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { index in
            let t = 1000 + Double(index) * 0.01
            let distance = 4 - 3 * Double(index % 1000) / 1000 + Double.random(in: -0.05...0.05, using: &generator)
            return pipeline.process(
                RangeSample(timestamp: t, distance: distance, azimuth: Double.random(in: -30...30, using: &generator),
                            elevation: 5, figureOfMerit: 90, isNonLineOfSight: false))
        }
    }

    Benchmark("JSON line: an update encoded into the output buffer (RunJSON.appendUpdateLine)",
              configuration: .init(metrics: metrics, scalingFactor: .kilo)) { benchmark in
        let made = updates(1000)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        for update in made { RunJSON.appendUpdateLine(update, accessory: identity, time: update.timestamp, context: context, to: &buffer) }
        buffer.removeAll(keepingCapacity: true)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let update = made[index % made.count]
            RunJSON.appendUpdateLine(update, accessory: identity, time: update.timestamp, context: context, to: &buffer)
            if buffer.count > 1 << 19 { buffer.removeAll(keepingCapacity: true) }
        }
        benchmark.stopMeasurement()
        blackHole(buffer.count)
    }

    // The raw UWB path's line (`nearby uwb range --json`): a decoded sample as a range
    // notification carries it (centimetres, Q9.7 degrees) written into the output buffer.
    Benchmark("uwb range --json line: a sample encoded into the output buffer (UWBRangeOutput.append)",
              configuration: .init(metrics: metrics, scalingFactor: .kilo)) { benchmark in
        var generator = SystemRandomNumberGenerator()
        let samples = (0..<1000).map { index in
            UCIPeerRangeSample(
                session: 42, peer: .short(0x0002),
                sample: RangeSample(
                    timestamp: 1000 + Double(index) * 0.05, distance: Double(Int.random(in: 30...800, using: &generator)) / 100,
                    azimuth: Double(Int.random(in: -7680...7680, using: &generator)) / 128,
                    elevation: Double(Int.random(in: -3840...3840, using: &generator)) / 128,
                    figureOfMerit: 100, isNonLineOfSight: false))
        }
        let output = UWBRangeOutput(json: true)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        for sample in samples { output.append(sample, start: 1000, to: &buffer) }
        buffer.removeAll(keepingCapacity: true)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            output.append(samples[index % samples.count], start: 1000, to: &buffer)
            if buffer.count > 1 << 19 { buffer.removeAll(keepingCapacity: true) }
        }
        benchmark.stopMeasurement()
        blackHole(buffer.count)
    }

    Benchmark("JSON lines: updates through JSONLinesOutput into a LineWriter, one write(2) per 8 (/dev/null)",
              configuration: .init(metrics: metrics, scalingFactor: .kilo)) { benchmark in
        let made = updates(1000)
        let descriptor = open("/dev/null", O_WRONLY)
        defer { close(descriptor) }
        let writer = LineWriter(descriptor: descriptor)
        let output = JSONLinesOutput(writer: writer, notes: { _ in })
        output.runStarted(context)
        let events = made.map { NearbySessionEvent(accessory: identity, time: $0.timestamp, kind: .update($0)) }
        for event in events { output.handle(event, status: nil) }
        output.flush()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            output.handle(events[index % events.count], status: nil)
            if index % 8 == 7 { output.flush() }
        }
        output.flush()
        benchmark.stopMeasurement()
    }

    // The queue between the reader and the printer: bursts of 8 updates posted inside a
    // WakeBatch (as a reader's burst is) and taken by the consumer in one receive(into:).
    Benchmark("Mailbox: updates posted in bursts of 8 inside a WakeBatch, taken with receive(into:)",
              configuration: .init(metrics: metrics, scalingFactor: .kilo)) { benchmark in
        let events = updates(8).map { NearbySessionEvent(accessory: identity, time: $0.timestamp, kind: .update($0)) }
        let mailbox = Mailbox<NearbySessionEvent>(capacity: 1024)
        var batch: [NearbySessionEvent] = []
        batch.reserveCapacity(64)
        func burst() async {
            WakeBatch.run { for event in events { mailbox.post(event, droppable: true) } }
            batch.removeAll(keepingCapacity: true)
            _ = await mailbox.receive(into: &batch)
        }
        for _ in 0..<16 { await burst() }  // warm up: the lanes reach their capacity
        benchmark.startMeasurement()
        for _ in 0..<(benchmark.scaledIterations.count / 8) { await burst() }
        benchmark.stopMeasurement()
        precondition(batch.count == 8)
    }
}
