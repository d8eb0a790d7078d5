import Ranging
import Testing

/// Feeds distances at the given times to a tracker; returns the events.
func track(_ tracker: inout ZoneTracker, _ points: [(Double, Double)]) -> [RangingEvent] {
    var events: [RangingEvent] = []
    for (t, d) in points {
        if let event = tracker.update(distance: d, at: t) { events.append(event) }
    }
    return events
}

/// Runs a trace through a pipeline and returns the events.
func events(of records: [TraceRecord], filter: FilterSpec, zones: ZoneMap = .standard) -> [RangingEvent] {
    var pipeline = RangingPipeline(filter: filter, zones: zones)
    var events: [RangingEvent] = []
    for record in records { events += pipeline.process(record.sample).events }
    return events
}

@Suite struct ZoneMapTests {
    @Test func standardZonesAndThresholds() {
        let map = ZoneMap.standard
        #expect(map.zones.map(\.name) == ["near", "mid", "far"])
        #expect(map.boundaries == [1.5, 3])
        #expect(abs(map.zones[0].enterThreshold - 1.4) < 1e-12 && abs(map.zones[0].exitThreshold - 1.6) < 1e-12)
        #expect(abs(map.zones[1].enterThreshold - 2.9) < 1e-12 && abs(map.zones[1].exitThreshold - 3.1) < 1e-12)
        #expect(map.zones.allSatisfy { $0.minimumDwell == 0.3 })
        #expect([0.2, 1.49, 1.5, 2.99, 3, 40].map { map.zone(containing: $0) } == [0, 0, 1, 1, 2, 2])
    }

    @Test func featuresMapToZones() {
        let map = ZoneMap.standard
        #expect(map.features.map(\.name) == ["A", "B"])
        #expect(map.features(activeIn: 0).map(\.name) == ["A", "B"])
        #expect(map.features(activeIn: 1).map(\.name) == ["A"])
        #expect(map.features(activeIn: 2).isEmpty)
        #expect(map.features(activeIn: nil).isEmpty)
        #expect(map.isFeature(1, activeIn: 0) && !map.isFeature(1, activeIn: 1))
    }

    @Test func invalidMapsAreRejectedWithAReason() {
        #expect(throws: ZoneMapError.self) { try ZoneMap(boundaries: [3, 1.5]) }
        #expect(throws: ZoneMapError.self) { try ZoneMap(boundaries: [1.5, 3], hysteresis: -0.1) }
        #expect(throws: ZoneMapError.self) { try ZoneMap(boundaries: [1.5, 1.6], hysteresis: 0.2) }
        #expect(throws: ZoneMapError.self) { try ZoneMap(boundaries: [1.5], minimumDwell: -1) }
        #expect(throws: ZoneMapError.self) { try ZoneMap(zones: []) }
        do {
            _ = try ZoneMap(boundaries: [1.5, 1.6], hysteresis: 0.2)
        } catch {
            #expect(error.description.contains("overlap"))
        }
        let map = try? ZoneMap(boundaries: [1, 2, 3])
        #expect(map?.zones.map(\.name) == ["zone1", "zone2", "zone3", "zone4"])
    }
}

@Suite struct ZoneTrackerTests {
    @Test func firstDistanceEntersItsZoneAtOnce() {
        var tracker = ZoneTracker(map: .standard)
        #expect(track(&tracker, [(0, 2.0)]) == [.change(nil, 1, at: 0)])
        #expect(tracker.current == 1)
    }

    @Test func hysteresisBandNeverTransitions() {
        var tracker = ZoneTracker(map: .standard)
        // In mid; dips to 1.41 m (inside the 1.4 ... 1.6 band) for seconds: no transition.
        var points: [(Double, Double)] = [(0, 2.0)]
        for i in 1..<50 {
            let distance: Double = i % 2 == 0 ? 1.41 : 1.59
            points.append((Double(i) * 0.1, distance))
        }
        #expect(track(&tracker, points) == [.change(nil, 1, at: 0)])
    }

    @Test func aCrossingNeedsTheDwell() {
        var tracker = ZoneTracker(map: .standard)
        _ = track(&tracker, [(0, 2.0)])
        // Below 1.4 m from t = 1.0; reported once the near zone has been indicated for 0.3 s.
        let events = track(&tracker, [(1.0, 1.3), (1.1, 1.3), (1.2, 1.3), (1.29, 1.3), (1.3, 1.3), (1.4, 1.3)])
        #expect(events == [.change(1, 0, at: 1.3)])
    }

    @Test func anExcursionShorterThanTheDwellIsIgnored() {
        var tracker = ZoneTracker(map: .standard)
        _ = track(&tracker, [(0, 2.0)])
        #expect(track(&tracker, [(1.0, 1.0), (1.1, 1.0), (1.2, 1.0), (1.25, 2.0), (1.35, 1.0), (1.5, 1.0)]).isEmpty)
        #expect(tracker.current == 1)
    }

    @Test func aJumpAcrossTwoZonesIsOneTransition() {
        var tracker = ZoneTracker(map: .standard)
        _ = track(&tracker, [(0, 1.0)])
        let events = track(&tracker, [(1, 5), (1.2, 5), (1.4, 5)])
        #expect(events == [.change(0, 2, at: 1.4)])
    }

    @Test func clearReportsTheExit() {
        var tracker = ZoneTracker(map: .standard)
        _ = track(&tracker, [(0, 1.0)])
        #expect(tracker.clear(at: 5) == .change(0, nil, at: 5))
        #expect(tracker.clear(at: 6) == nil)
        #expect(tracker.current == nil)
    }
}

/// The zone behaviour on real noise: the synthetic traces of data/synthetic (from Hanyang).
@Suite struct ZoneNoiseTests {
    @Test(arguments: [FilterSpec(.raw), FilterSpec.default])
    func noiseHoveringAtTheBoundaryProducesNoFlaps(filter: FilterSpec) throws {
        // 449 real noisy samples centred exactly on the 1.5 m boundary, 65 s.
        let records = try TraceFiles.records("data/synthetic/hover_1p5m.csv")
        let events = events(of: records, filter: filter)
        #expect(events.count == 2)  // found + the first zone
        #expect(events.first == .found(at: 0))
        let run = BenchRunner.quick().run(trace: "hover", records: records, filter: filter)
        #expect(run.result.zoneTransitions == 0)
        #expect(run.result.zoneFlaps == 0)
    }

    @Test func withoutHysteresisTheSameNoiseFlaps() throws {
        // The control experiment: no hysteresis, no dwell → raw noise flaps constantly.
        let records = try TraceFiles.records("data/synthetic/hover_1p5m.csv")
        let zones = try ZoneMap(boundaries: [1.5, 3], hysteresis: 0, minimumDwell: 0)
        let run = BenchRunner.quick(zones: zones).run(trace: "hover", records: records, filter: FilterSpec(.raw))
        #expect(run.result.zoneFlaps > 100)
    }

    @Test(arguments: FilterSpec.benchmarkSet)
    func aRealCrossingIsExactlyOneTransition(filter: FilterSpec) throws {
        let records = try TraceFiles.records("data/synthetic/step_2m_4m.csv")
        let transitions = events(of: records, filter: filter).filter { $0.enteredZone != nil }
        // The first entry (mid) and exactly one transition to far, after the step at 12.9 s.
        #expect(transitions.count == 2)
        #expect(transitions.first == .change(nil, 1, at: 0))
        if let last = transitions.last {
            let t = last.timestamp
            #expect(last.enteredZone == 2)
            #expect(t > 12.8 && t < 15)
        }
    }

    @Test func theDefaultFollowsAWalkThroughEveryZone() throws {
        let records = try TraceFiles.records("data/synthetic/walk_4m_1m.csv")
        let run = BenchRunner.quick().run(trace: "walk", records: records, filter: .default)
        #expect(run.result.zoneTransitions == 8)
        #expect(run.result.truthZoneTransitions == 8)
        #expect(run.result.zoneFlaps == 0)
        #expect(run.result.zoneLatency! > 0 && run.result.zoneLatency! < 1)
        #expect(run.result.zoneAccuracy! > 0.9)
    }
}

@Suite struct ZoneNameTests {
    @Test func namesAreStoredInlineAndLongNamesAreRefused() throws {
        #expect(ZoneName("near").description == "near")
        #expect(ZoneName("ümlaut-zone").description == "ümlaut-zone")
        #expect(ZoneName("exactly-15-byte").description == "exactly-15-byte")
        #expect(ZoneName("sixteen-bytes-xx").description == "sixteen-bytes-x", "cut at the last whole character")
        #expect(ZoneName("ééééééééé").description == "ééééééé", "2-byte characters are not split")
        #expect(ZoneRef(index: 2, name: "far") == ZoneRef(index: 2, zoneName: "far"))
        let error = #expect(throws: ZoneMapError.self) {
            try ZoneMap(zones: [Zone(name: "kitchen-counter-area", upperBound: 1), Zone(name: "far", upperBound: .infinity)])
        }
        #expect(error?.description.contains("at most") == false || error?.description.contains("1 to 15 bytes") == true)
        #expect(error?.description.contains("'kitchen-counter-area'") == true)
    }
}
