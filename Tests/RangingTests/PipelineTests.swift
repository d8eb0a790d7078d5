import Ranging
import Testing

/// A pipeline plus the events it reported.
struct Recorder {
    var pipeline: RangingPipeline<ConfiguredFilter>
    var events: [RangingEvent] = []

    init(filter: FilterSpec = .default, lostAfter: Double = 2) {
        pipeline = RangingPipeline(filter: filter, lostAfter: lostAfter)
    }

    mutating func feed(_ sample: RangeSample) -> RangingUpdate {
        let update = pipeline.process(sample)
        events.append(contentsOf: update.events)
        return update
    }

    mutating func feed(_ t: Double, _ distance: Double?, status: UInt8 = 0) -> RangingUpdate {
        feed(RangeSample(timestamp: t, distance: distance, status: status))
    }

    mutating func tick(_ t: Double) {
        events.append(contentsOf: pipeline.tick(now: t))
    }
}

@Suite struct PipelineTests {
    @Test func firstSampleIsFoundAndEntersItsZone() {
        var r = Recorder()
        let update = r.feed(0.5, 1.0)
        #expect(r.events == [.found(at: 0.5), .change(nil, 0, at: 0.5)])
        #expect(update.distance == 1.0)
        #expect(update.zone?.index == 0)
        #expect(update.isHeld == false)
        #expect(update.confidence == 1)
        #expect(update.state == .tracking)
        #expect(r.pipeline.state == .tracking)
    }

    @Test func silenceIsLostThroughTick() {
        var r = Recorder()
        for i in 0...10 { _ = r.feed(Double(i) * 0.1, 2.0) }
        r.events.removeAll()
        r.tick(2.9)
        #expect(r.events.isEmpty)
        r.tick(3.05)
        // Lost at the moment the 2 s limit passed (last sample 1.0 s), and the zone is left.
        #expect(r.events == [.lostIn(1, at: 3.0), .change(1, nil, at: 3.0)])
        #expect(r.pipeline.state == .lost)
        #expect(r.pipeline.currentZone == nil)
        r.tick(10)
        #expect(r.events.count == 2)  // reported once
    }

    @Test func aSampleAfterSilenceReportsLostThenFound() {
        var r = Recorder()
        for i in 0...10 { _ = r.feed(Double(i) * 0.1, 2.0) }
        r.events.removeAll()
        let update = r.feed(5.0, 1.0)
        #expect(r.events == [.lostIn(1, at: 3.0), .change(1, nil, at: 3.0), .found(at: 5.0), .change(nil, 0, at: 5.0)])
        // Filter state was reset: the new estimate is the new sample, not a blend with 2 m.
        #expect(update.distance == 1.0)
        #expect(update.velocity == 0)
    }

    @Test func filtersResetAfterLost() {
        // Without the reset the Kalman gate would reject 4 m after 2 m and hold the old value.
        var r = Recorder(filter: FilterSpec(.kalman))
        for i in 0...20 { _ = r.feed(Double(i) * 0.1, 2.0) }
        r.tick(10)
        #expect(r.feed(10.5, 4.0).distance == 4.0)
        #expect(abs((r.feed(10.6, 4.02).distance ?? 0) - 4.0) < 0.03)
    }

    @Test func errorSamplesAreHeldAndDoNotRefreshTheSilenceTimer() {
        var r = Recorder()
        _ = r.feed(0, 2.0)
        let held = r.feed(1.0, 9.9, status: 0x21)
        #expect(held.isHeld == true)
        #expect(held.distance == 2.0)
        #expect(held.sample.status == 0x21)
        #expect(abs(held.confidence - 0.5) < 1e-12)  // 1 s of a 2 s limit
        let stillHeld = r.feed(1.9, nil)
        #expect(stillHeld.isHeld == true)
        r.events.removeAll()
        let afterLoss = r.feed(2.1, nil, status: 0x21)  // error status at 2.1 s: lost at 2.0 s
        #expect(afterLoss.state == .lost)
        #expect(afterLoss.distance == nil && afterLoss.zone == nil && afterLoss.confidence == 0)
        #expect(r.events == [.lostIn(1, at: 2.0), .change(1, nil, at: 2.0)])
    }

    @Test func nothingIsReportedBeforeTheFirstUsableSample() {
        var r = Recorder()
        for update in [r.feed(0, nil, status: 0x21), r.feed(0.1, .nan), r.feed(0.2, .infinity)] {
            #expect(update.state == .waiting)
            #expect(update.distance == nil && update.zone == nil && update.direction == nil && update.confidence == 0)
        }
        #expect(r.events.isEmpty)
        #expect(r.pipeline.state == .waiting)
    }

    @Test func negativeDistanceStatusIsAMeasurement() {
        var r = Recorder(filter: FilterSpec(.raw))
        let update = r.feed(RangeSample(timestamp: 0, distance: -0.05, status: RangeSample.statusNegativeDistance))
        #expect(update.distance == -0.05)
        #expect(update.zone?.index == 0)
    }

    @Test func timestampsGoingBackwardsAreClamped() {
        var r = Recorder(filter: FilterSpec(.kalman))
        _ = r.feed(1.0, 2.0)
        let update = r.feed(0.5, 2.02)
        #expect(update.timestamp == 1.0)
        #expect(update.distance != nil)
    }

    @Test func fomAndNLoSSetTheConfidence() {
        var r = Recorder()
        let update = r.feed(RangeSample(timestamp: 0, distance: 2, figureOfMerit: 80, isNonLineOfSight: true))
        #expect(abs(update.confidence - 0.4) < 1e-12)
    }

    @Test func directionFromSmoothedAngles() {
        var r = Recorder(filter: FilterSpec(.raw))
        let right = r.feed(RangeSample(timestamp: 0, distance: 2, azimuth: 90, elevation: 0)).direction
        #expect(right?.azimuth == 90)
        #expect(abs((right?.x ?? 0) - 1) < 1e-12 && abs(right?.y ?? 1) < 1e-12 && abs(right?.z ?? 1) < 1e-12)
        let ahead = r.feed(RangeSample(timestamp: 0.1, distance: 2, azimuth: 0, elevation: 30)).direction
        #expect(abs((ahead?.y ?? 0) - 0.5) < 1e-12)
        #expect(abs((ahead?.z ?? 0) - -0.8660254037844386) < 1e-12)
        // A sample without angles keeps the last direction.
        #expect(r.feed(0.2, 2).direction == ahead)
        // Angles only (no distance) still update the direction and keep the distance.
        let anglesOnly = r.feed(RangeSample(timestamp: 0.3, azimuth: -45))
        #expect(anglesOnly.direction?.azimuth == -45)
        #expect(anglesOnly.distance == 2)
    }

    @Test func directionConfidenceFromFoMAndUncertaintyFromTheFilter() throws {
        var r = Recorder()
        let first = try #require(r.feed(RangeSample(timestamp: 0, distance: 2, azimuth: 20, figureOfMerit: 60)).direction)
        #expect(abs(first.confidence - 0.6) < 1e-12)
        // One measurement with FoM 60: σ = 5° / 0.6.
        #expect(abs(try #require(first.uncertainty) - 5 / 0.6) < 1e-9)
        var last = first
        for i in 1...30 {
            last = try #require(
                r.feed(RangeSample(timestamp: Double(i) * 0.1, distance: 2, azimuth: 20, figureOfMerit: 90, isNonLineOfSight: true))
                    .direction)
        }
        #expect(abs(last.confidence - 0.45) < 1e-12)
        // Still at 20° for 3 s: the estimate is far more certain than one measurement.
        #expect(try #require(last.uncertainty) < 5 / 0.9 * 3 / 2)
        // A sample without angles keeps the direction and its confidence.
        #expect(r.feed(RangeSample(timestamp: 3.2, distance: 2, figureOfMerit: 10)).direction == last)
        // Filters without an uncertainty model report none.
        var raw = Recorder(filter: FilterSpec(.ema))
        let direction = try #require(raw.feed(RangeSample(timestamp: 0, distance: 2, azimuth: 20)).direction)
        #expect(direction.confidence == 1 && direction.uncertainty == nil)
    }

    @Test func velocityOfAWalk() {
        for filter in [FilterSpec(.imm), FilterSpec(.kalman), FilterSpec(.ma10)] {
            var r = Recorder(filter: filter)
            var velocity: Double?
            for i in 0...60 { velocity = r.feed(Double(i) * 0.1, 5 - 0.5 * Double(i) * 0.1).velocity }
            #expect(abs((velocity ?? 0) - -0.5) < 0.02, "\(filter)")
        }
    }

    @Test func resetReturnsToWaiting() {
        var r = Recorder()
        _ = r.feed(0, 1)
        r.pipeline.reset()
        r.events.removeAll()
        #expect(r.pipeline.state == .waiting)
        _ = r.feed(0, 5)
        #expect(r.events == [.found(at: 0), .change(nil, 2, at: 0)])
    }

    @Test func aConcreteFilterTypeGivesTheSameResultsAsTheConfiguredOne() throws {
        let records = try TraceFiles.records("data/hanyang/dynamic/nlos_A_case1_A3.csv")
        var generic = RangingPipeline(
            distanceFilter: KalmanFilter(.standard(for: .distance)), angleFilter: KalmanFilter(.standard(for: .angle)))
        var configured = RangingPipeline(filter: FilterSpec(.kalman))
        var genericEvents: [RangingEvent] = []
        var configuredEvents: [RangingEvent] = []
        for record in records {
            let a = generic.process(record.sample)
            let b = configured.process(record.sample)
            genericEvents += a.events
            configuredEvents += b.events
            #expect(a == b)
        }
        #expect(genericEvents == configuredEvents)
        var genericIMM = RangingPipeline(
            distanceFilter: IMMFilter(.standard(for: .distance)), angleFilter: IMMFilter(.standard(for: .angle)))
        var configuredIMM = RangingPipeline(filter: FilterSpec(.imm))
        for record in records {
            #expect(genericIMM.process(record.sample) == configuredIMM.process(record.sample))
        }
    }

    /// A spike never crosses a zone boundary on its own, at any rate: the default pipeline at
    /// 1.65 m (mid, 0.15 m outside near) sees spikes to 1.0 m (near) and 3.6 m (far), single and
    /// as 0.2 s bursts, and reports no zone change. A real walk in at 1 m/s then enters near at
    /// most 0.1 s after `raw` does (the zone-latency goal of issue 27) at 10 and 100 Hz. Known
    /// issue (`specs/filters.md` §6.7): at 2 Hz the default enters one sample (0.5 s) after raw,
    /// because the first sample of a start from rest, 0.5 m away, is as likely an outlier as a
    /// start to a filter that believed "still"; the expectation stays so that a fix shows up here.
    @Test(arguments: [2.0, 10.0, 100.0])
    func spikesNeverChangeTheZoneButARealMoveDoes(rate: Double) throws {
        let dt = 1 / rate
        let burst = max(Int((0.2 * rate).rounded(.down)), 1)
        // Returns the events after the rest period (spikes, then the walk) and the walk's start.
        func run(_ filter: FilterSpec) -> (spikes: [RangingEvent], walk: [RangingEvent], start: Double) {
            var r = Recorder(filter: filter)
            var t = 0.0
            func feed(_ distance: Double) {
                t += dt
                _ = r.feed(t, distance)
            }
            for i in 0..<Int(5 * rate) { feed(1.65 + 0.02 * Double(i % 3 - 1)) }
            r.events.removeAll()
            for spike in [1.0, 3.6] {
                feed(spike)
                for _ in 0..<Int(2 * rate) { feed(1.65) }
                for _ in 0..<burst { feed(spike) }
                for _ in 0..<Int(2 * rate) { feed(1.65) }
            }
            let spikes = r.events
            r.events.removeAll()
            // Walk in from 1.65 m to 0.9 m at 1 m/s; the truth crosses 1.4 m 0.25 s after the start.
            let start = t
            while t - start < 2 { feed(max(1.65 - (t + dt - start), 0.9)) }
            return (spikes, r.events, start)
        }
        let imm = run(.default)
        #expect(imm.spikes.isEmpty, "\(imm.spikes)")
        func entered(_ events: [RangingEvent]) -> Double? {
            for event in events {
                if case .zoneChanged(let from, let to, let at) = event, from?.index == 1, to?.index == 0 { return at }
            }
            return nil
        }
        let at = try #require(entered(imm.walk), "\(imm.walk)")
        let rawAt = try #require(entered(run(FilterSpec(.raw)).walk))
        let latency = at - rawAt
        if rate >= 10 {
            #expect(latency <= 0.1 + 1e-9, "entered near \(latency) s after raw")
        } else {
            withKnownIssue("zone latency from rest at \(rate) Hz (issue 27)") {
                #expect(latency <= 0.1 + 1e-9, "entered near \(latency) s after raw")
            }
        }
    }

    @Test func tickIgnoresNonFiniteTimes() {
        var r = Recorder()
        _ = r.feed(0, 2)
        r.tick(.nan)
        r.tick(.infinity)
        #expect(r.pipeline.state == .tracking)
    }

    @Test func eventDescriptionsUseZoneNames() {
        #expect(RangingEvent.change(nil, 0, at: 1.25).description == "entered near at 1.250 s")
        #expect(RangingEvent.change(1, 0, at: 2).description == "mid -> near at 2.000 s")
        #expect(RangingEvent.change(2, nil, at: 2).summary == "left far")
        #expect(RangingEvent.lostIn(1, at: 3).description == "lost at 3.000 s")
    }
}
