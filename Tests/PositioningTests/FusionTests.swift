import Positioning
import Testing

/// The fusion on hand-made reports: exact geometry, outliers, borders, silence, clocks.
@Suite struct FusionTests {
    static func plan() throws -> HousePlan {
        try HousePlan(
            hosts: [
                HouseHost(name: "a", position: PlanePoint(x: 0, y: 0), height: 1.0, heading: 45),
                HouseHost(name: "b", position: PlanePoint(x: 8, y: 0), height: 1.0, heading: -45),
                HouseHost(name: "c", position: PlanePoint(x: 4, y: 4), height: 1.0, heading: 180),
            ],
            rooms: [
                HouseRoom(name: "west", polygon: RoomPolygon([.init(x: 0, y: 0), .init(x: 4, y: 0), .init(x: 4, y: 4), .init(x: 0, y: 4)])),
                HouseRoom(name: "east", polygon: RoomPolygon([.init(x: 4, y: 0), .init(x: 8, y: 0), .init(x: 8, y: 4), .init(x: 4, y: 4)])),
            ])
    }

    /// Reports of every host for a tag at `point`, exact, at `time`.
    static func reports(_ plan: HousePlan, at point: PlanePoint, time: Double, bias: [String: Double] = [:]) -> [HostReport] {
        plan.hosts.enumerated().map { index, host in
            HostReport(
                host: host.name, time: time + Double(index) * 0.01, tracking: true, range: host.position.distance(to: point) + (bias[host.name] ?? 0),
                lastSeen: time)
        }
    }

    @Test func exactRangesGiveTheExactPoint() throws {
        let plan = try Self.plan()
        var fusion = AccessoryFusion(plan: plan)
        for step in 0..<10 {
            for report in Self.reports(plan, at: PlanePoint(x: 2, y: 1.5), time: Double(step) * 0.2) { _ = fusion.apply(report) }
        }
        let point = try #require(fusion.current.point)
        #expect(point.distance(to: PlanePoint(x: 2, y: 1.5)) < 0.01, "\(point)")
        #expect(fusion.current.room == "west" && fusion.current.presence == .home && fusion.current.hosts == ["a", "b", "c"])
        #expect(fusion.current.trackerState == "west")
        #expect((fusion.current.accuracy ?? 1) < 0.25)
    }

    @Test func anOutlierBarelyMovesIt() throws {
        let plan = try Self.plan()
        var fusion = AccessoryFusion(plan: plan)
        let truth = PlanePoint(x: 5, y: 2)
        for step in 0..<20 {
            for report in Self.reports(plan, at: truth, time: Double(step) * 0.2) { _ = fusion.apply(report) }
        }
        _ = fusion.apply(HostReport(host: "a", time: 4.05, tracking: true, range: truth.distance(to: .zero) + 5))
        #expect(try #require(fusion.current.point).distance(to: truth) < 0.05)
        #expect(fusion.statistics.rejected >= 1)
    }

    @Test func azimuthsAloneWithOneRangePlaceIt() throws {
        let plan = try HousePlan(hosts: [HouseHost(name: "a", position: .zero, height: 1.0, heading: 90)], rooms: [])
        var fusion = AccessoryFusion(plan: plan)
        // East of the kit is its boresight (heading 90): a tag 3 m north-east is at azimuth -45.
        let truth = PlanePoint.polar(from: .zero, distance: 3, bearing: 45)
        for step in 0..<10 {
            _ = fusion.apply(HostReport(host: "a", time: Double(step) * 0.2, tracking: true, range: 3, azimuth: -45, figureOfMerit: 100))
        }
        #expect(try #require(fusion.current.point).distance(to: truth) < 0.05)
    }

    @Test func aBorderDoesNotFlap() throws {
        let plan = try Self.plan()
        var fusion = AccessoryFusion(plan: plan)
        var rooms: [String?] = []
        // Standing 5 cm west of the wall, the estimate wobbling ±15 cm across it.
        for step in 0..<200 {
            let wobble = (step % 2 == 0 ? -0.15 : 0.15)
            for report in Self.reports(plan, at: PlanePoint(x: 3.95 + wobble, y: 2), time: Double(step) * 0.2) {
                let change = fusion.apply(report)
                if change.room { rooms.append(fusion.current.room) }
            }
        }
        #expect(rooms == ["west"], "\(rooms)")
        // Walking across: the room changes once, once the position is `room_margin` inside.
        for step in 0..<30 {
            for report in Self.reports(plan, at: PlanePoint(x: 3.95 + Double(step) * 0.05, y: 2), time: 40 + Double(step) * 0.05) {
                if fusion.apply(report).room { rooms.append(fusion.current.room) }
            }
        }
        #expect(rooms == ["west", "east"], "\(rooms)")
        #expect(try #require(fusion.current.point).x >= 4 + FusionParameters().roomMargin - 0.05)
    }

    @Test func silenceMeansNotHomeAfterAwayAfter() throws {
        let plan = try Self.plan()
        var parameters = FusionParameters()
        parameters.awayAfter = 5
        var fusion = AccessoryFusion(plan: plan, parameters: parameters)
        for step in 0..<10 {
            for report in Self.reports(plan, at: PlanePoint(x: 2, y: 2), time: Double(step) * 0.2) { _ = fusion.apply(report) }
        }
        #expect(fusion.tick(now: 10).isEmpty, "still tracked: home")
        // Every host loses it; the last sample was at 2.0 s.
        for host in plan.hosts { _ = fusion.apply(HostReport(host: host.name, time: 4, tracking: false, lastSeen: 2.0)) }
        #expect(fusion.current.presence == .home)
        #expect(fusion.tick(now: 6.9).isEmpty)
        let change = fusion.tick(now: 7.1)
        #expect(change.presence && change.room && fusion.current.presence == .notHome && fusion.current.trackerState == "not_home")
        #expect(fusion.current.time == 7.0, "stamped at last seen + away_after")
        // Heard again: home.
        let back = fusion.apply(HostReport(host: "a", time: 20, tracking: true, range: 2, lastSeen: 20))
        #expect(back.presence && fusion.current.presence == .home)
    }

    @Test func anOfflineHostNoLongerHears() throws {
        let plan = try Self.plan()
        var parameters = FusionParameters()
        parameters.awayAfter = 5
        var fusion = AccessoryFusion(plan: plan, parameters: parameters)
        _ = fusion.apply(HostReport(host: "a", time: 0, tracking: true, range: 2, lastSeen: 0))
        fusion.hostOffline("a", at: 1)
        #expect(fusion.lastHeard(now: 3) == 0)
        #expect(fusion.tick(now: 5.5).presence)
        // A retained state of a host that is offline does not bring it home.
        var other = AccessoryFusion(plan: plan, parameters: parameters)
        let change = other.apply(HostReport(host: "b", time: 0, tracking: true, range: 2, lastSeen: 0), offlineSince: 0)
        #expect(!change.presence && other.current.presence == .notHome)
    }

    @Test func theSkewEstimatorFindsAClockAheadOrBehind() {
        var ahead = ClockSkewEstimator()
        var behind = ClockSkewEstimator()
        var fine = ClockSkewEstimator()
        for i in 0..<50 {
            let t = Double(i) * 0.5
            let delay = 0.003 + Double(i % 7) * 0.02
            ahead.add(time: t + 1.5, arrival: t + delay)
            behind.add(time: t - 0.8, arrival: t + delay)
            fine.add(time: t, arrival: t + delay)
        }
        #expect(abs((ahead.offset ?? 0) + 1.497) < 1e-9 && abs(ahead.correction + 1.497) < 1e-9)
        #expect(abs((behind.offset ?? 0) - 0.803) < 1e-9)
        #expect(fine.correction == 0 && (fine.offset ?? 1) < 0.01)
        var young = ClockSkewEstimator()
        young.add(time: 0, arrival: 5)
        #expect(young.offset == nil, "too few messages for an estimate")
    }
}
