import NearbyBase

/// The output of one filter on one trace: the metrics and the per-sample series behind them
/// (for plots).
public struct BenchRun: Sendable {
    /// The metrics.
    public var result: BenchResult
    /// The filter that ran.
    public var filter: FilterSpec
    /// Smoothed distance per trace record (`nil` where the pipeline reported none).
    public var outputs: [Double?]
    /// Reported zone per trace record.
    public var zones: [Int?]
    /// Every event the pipeline reported, in order.
    public var events: [RangingEvent]
}

/// Runs filters over traces and computes ``BenchResult``s: the engine of `nearby bench`.
///
/// Each run feeds every record of the trace through a fresh ``RangingPipeline`` configured with
/// the filter, the runner's zones and silence limit, then computes the metrics
/// (``BenchMetrics``) against the records' ground truth. The cost (`ns_per_sample`) is measured
/// with `ContinuousClock` over repeated passes of the whole pipeline (at least
/// ``minimumTimingDuration``), separately from the metric pass.
public struct BenchRunner: Sendable {
    /// The zones tracked (also the truth zones).
    public var zones: ZoneMap
    /// The pipeline's silence limit, seconds.
    public var lostAfter: Double
    /// Minimum total time of the timing passes (longer = steadier `ns_per_sample`).
    public var minimumTimingDuration: Duration

    /// Creates a runner.
    public init(zones: ZoneMap = .standard, lostAfter: Double = 2, minimumTimingDuration: Duration = .milliseconds(20)) {
        self.zones = zones
        self.lostAfter = lostAfter
        self.minimumTimingDuration = minimumTimingDuration
    }

    /// Runs `filter` over `records` (a trace named `trace`) and computes its metrics.
    public func run(trace: String, records: [TraceRecord], filter: FilterSpec) -> BenchRun {
        var pipeline = RangingPipeline(filter: filter, zones: zones, lostAfter: lostAfter)
        var outputs: [Double?] = []
        var reportedZones: [Int?] = []
        var events: [RangingEvent] = []
        outputs.reserveCapacity(records.count)
        reportedZones.reserveCapacity(records.count)
        for record in records {
            let update = pipeline.process(record.sample)
            events.append(contentsOf: update.events)
            outputs.append(update.distance)
            reportedZones.append(update.zone?.index)
        }

        let times = records.map(\.sample.timestamp)
        let truths = records.map(\.truth)
        let truthZones = truths.map { $0.map { zones.zone(containing: $0) } }
        let hasTruth = truths.contains { $0 != nil }
        let accuracy = BenchMetrics.errorStatistics(outputs: outputs, truths: truths)
        let reported = BenchMetrics.transitions(times: times, zones: reportedZones)
        let truthTransitions = hasTruth ? BenchMetrics.transitions(times: times, zones: truthZones) : nil

        let result = BenchResult(
            trace: trace,
            filter: filter.name,
            samples: records.count,
            rmse: accuracy?.rmse,
            bias: accuracy?.bias,
            rmseDebiased: accuracy?.rmseDebiased,
            p50AbsoluteError: accuracy?.p50,
            p95AbsoluteError: accuracy?.p95,
            jitter: BenchMetrics.jitter(times: times, outputs: outputs, truths: truths),
            lag: BenchMetrics.lag(times: times, outputs: outputs, truths: truths),
            zoneAccuracy: BenchMetrics.zoneAccuracy(reported: reportedZones, truth: truthZones),
            zoneTransitions: reported.count,
            truthZoneTransitions: truthTransitions?.count,
            zoneFlaps: BenchMetrics.flaps(reported: reported, truth: truthTransitions),
            zoneLatency: truthTransitions.flatMap { BenchMetrics.zoneLatency(reported: reported, truth: $0) },
            nanosecondsPerSample: timePerSample(records: records, filter: filter),
            truthIsStatic: hasTruth ? BenchMetrics.isStatic(truths: truths) : nil)
        return BenchRun(result: result, filter: filter, outputs: outputs, zones: reportedZones, events: events)
    }

    /// Mean wall-clock cost of the pipeline per sample, nanoseconds.
    func timePerSample(records: [TraceRecord], filter: FilterSpec) -> Double {
        guard !records.isEmpty else { return 0 }
        let clock = ContinuousClock()
        var elapsed = Duration.zero
        var passes = 0
        var checksum = 0.0
        repeat {
            var pipeline = RangingPipeline(filter: filter, zones: zones, lostAfter: lostAfter)
            let start = clock.now
            for record in records {
                checksum += pipeline.process(record.sample).distance ?? 0
            }
            elapsed += clock.now - start
            passes += 1
        } while elapsed < minimumTimingDuration && passes < 100_000
        let nanoseconds = elapsed.inSeconds * 1e9
        // The checksum keeps the optimiser from dropping the work; it is never NaN for finite input.
        return checksum.isNaN ? .nan : nanoseconds / Double(passes * records.count)
    }
}
