import Positioning
import Testing

@Suite struct GeometryTests {
    let square = RoomPolygon([.init(x: 0, y: 0), .init(x: 4, y: 0), .init(x: 4, y: 3), .init(x: 0, y: 3)])

    @Test func aPolygonKnowsInsideOutsideAndDepth() {
        #expect(square.problem == nil)
        #expect(square.area == 12)
        #expect(square.centroid == PlanePoint(x: 2, y: 1.5))
        #expect(square.contains(PlanePoint(x: 1, y: 1)) && !square.contains(PlanePoint(x: 5, y: 1)))
        #expect(square.contains(PlanePoint(x: 4, y: 1)), "a point on an edge is inside")
        #expect(abs(square.depth(PlanePoint(x: 1, y: 1)) - 1) < 1e-12)
        #expect(abs(square.depth(PlanePoint(x: 6, y: 1)) + 2) < 1e-12)
        #expect(abs(square.depth(PlanePoint(x: 5, y: 4)) + 2.squareRoot()) < 1e-12, "outside a corner: the distance to the corner")
        // An L-shaped room: the notch is outside.
        let l = RoomPolygon([.init(x: 0, y: 0), .init(x: 4, y: 0), .init(x: 4, y: 2), .init(x: 2, y: 2), .init(x: 2, y: 4), .init(x: 0, y: 4)])
        #expect(l.problem == nil && l.area == 12)
        #expect(!l.contains(PlanePoint(x: 3, y: 3)) && l.contains(PlanePoint(x: 1, y: 3)) && l.contains(PlanePoint(x: 3, y: 1)))
        #expect(l.interiorPoint(margin: 0.5).map { l.depth($0) >= 0.5 } == true)
    }

    @Test func badPolygonsAreExplained() {
        #expect(RoomPolygon([.init(x: 0, y: 0), .init(x: 1, y: 0)]).problem?.contains("at least 3 corners") == true)
        #expect(RoomPolygon([.init(x: 0, y: 0), .init(x: 1, y: 0), .init(x: 2, y: 0)]).problem?.contains("no area") == true)
        let bowtie = RoomPolygon([.init(x: 0, y: 0), .init(x: 2, y: 2), .init(x: 2, y: 0), .init(x: 0, y: 2)])
        #expect(bowtie.problem?.contains("cross") == true, "\(bowtie.problem ?? "")")
        #expect(RoomPolygon([.init(x: 0, y: 0), .init(x: .nan, y: 0), .init(x: 1, y: 1)]).problem?.contains("finite") == true)
    }

    @Test func bearingsAreClockwiseFromNorth() {
        let o = PlanePoint.zero
        #expect(o.bearing(to: PlanePoint(x: 0, y: 1)) == 0)
        #expect(abs(o.bearing(to: PlanePoint(x: 1, y: 0)) - 90) < 1e-12)
        #expect(abs(o.bearing(to: PlanePoint(x: 0, y: -1)) + 180) < 1e-12)
        #expect(abs(o.bearing(to: PlanePoint(x: -1, y: 0)) + 90) < 1e-12)
        let p = PlanePoint.polar(from: PlanePoint(x: 1, y: 1), distance: 2, bearing: 90)
        #expect(abs(p.x - 3) < 1e-12 && abs(p.y - 1) < 1e-12)
    }

    @Test func aPlanRejectsDuplicatesAndOverlaps() throws {
        let room = HouseRoom(name: "kitchen", polygon: square)
        #expect(throws: HousePlanError.self) { try HousePlan(hosts: [HouseHost(name: "a", position: .zero), HouseHost(name: "a", position: .zero)], rooms: []) }
        #expect(throws: HousePlanError.self) { try HousePlan(hosts: [], rooms: [room, room]) }
        let overlapping = HouseRoom(name: "hall", polygon: RoomPolygon([.init(x: 3, y: 0), .init(x: 6, y: 0), .init(x: 6, y: 3), .init(x: 3, y: 3)]))
        do {
            _ = try HousePlan(hosts: [], rooms: [room, overlapping])
            Issue.record("overlapping rooms were accepted")
        } catch {
            #expect(error.description.contains("overlap"))
        }
        let neighbour = HouseRoom(name: "hall", polygon: RoomPolygon([.init(x: 4, y: 0), .init(x: 7, y: 0), .init(x: 7, y: 3), .init(x: 4, y: 3)]))
        let plan = try HousePlan(hosts: [], rooms: [room, neighbour])
        #expect(plan.room(containing: PlanePoint(x: 5, y: 1), floor: 0)?.name == "hall")
        #expect(plan.room(containing: PlanePoint(x: 5, y: 1), floor: 1) == nil)
    }
}
