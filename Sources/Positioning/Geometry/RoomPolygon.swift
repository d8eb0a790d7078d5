/// A room's outline on its floor: a simple polygon (vertices in order, either direction; the
/// last vertex joins the first). Membership is even-odd with points on an edge inside.
public struct RoomPolygon: Sendable, Hashable {
    /// The vertices, metres.
    public let vertices: [PlanePoint]

    /// A polygon of `vertices` (check it with ``problem``).
    public init(_ vertices: [PlanePoint]) {
        self.vertices = vertices
    }

    /// What makes this polygon unusable, `nil` if it is fine: fewer than 3 vertices, a
    /// coordinate that is not finite, no area, or edges that cross.
    public var problem: String? {
        guard vertices.count >= 3 else { return "a room needs at least 3 corners, it has \(vertices.count)" }
        if let bad = vertices.firstIndex(where: { !$0.x.isFinite || !$0.y.isFinite }) {
            return "corner \(bad + 1) is not a finite number"
        }
        let n = vertices.count
        for i in 0..<n {
            for j in (i + 1)..<n where j != i + 1 && !(i == 0 && j == n - 1) {
                if Self.segmentsCross(vertices[i], vertices[(i + 1) % n], vertices[j], vertices[(j + 1) % n]) {
                    return "edges \(i + 1) and \(j + 1) cross (list the corners in order around the room)"
                }
            }
        }
        guard area > 1e-6 else { return "the corners enclose no area (they lie on one line)" }
        return nil
    }

    /// Area, m² (shoelace formula).
    public var area: Double {
        var twice = 0.0
        for (a, b) in edges { twice += a.x * b.y - b.x * a.y }
        return abs(twice) / 2
    }

    /// The centroid of the area.
    public var centroid: PlanePoint {
        var twice = 0.0
        var cx = 0.0
        var cy = 0.0
        for (a, b) in edges {
            let cross = a.x * b.y - b.x * a.y
            twice += cross
            cx += (a.x + b.x) * cross
            cy += (a.y + b.y) * cross
        }
        guard abs(twice) > 1e-12 else { return vertices.first ?? .zero }
        return PlanePoint(x: cx / (3 * twice), y: cy / (3 * twice))
    }

    /// The edges as (start, end) pairs.
    public var edges: [(PlanePoint, PlanePoint)] {
        vertices.indices.map { (vertices[$0], vertices[($0 + 1) % vertices.count]) }
    }

    /// `true` if `point` is inside (or on an edge).
    public func contains(_ point: PlanePoint) -> Bool {
        var inside = false
        for (a, b) in edges {
            if Self.distance(point, toSegment: a, b) < 1e-9 { return true }
            if (a.y > point.y) != (b.y > point.y) {
                let x = a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if point.x < x { inside.toggle() }
            }
        }
        return inside
    }

    /// Distance from `point` to the nearest edge, metres.
    public func distanceToBoundary(_ point: PlanePoint) -> Double {
        var best = Double.infinity
        for (a, b) in edges { best = min(best, Self.distance(point, toSegment: a, b)) }
        return best
    }

    /// The point of the room's outline nearest to `point`.
    public func nearestBoundaryPoint(_ point: PlanePoint) -> PlanePoint {
        var best = (point, Double.infinity)
        for (a, b) in edges {
            let ab = b - a
            let length2 = ab.dot(ab)
            let t = length2 > 0 ? min(1, max(0, (point - a).dot(ab) / length2)) : 0
            let q = a + ab * t
            let d = point.distance(to: q)
            if d < best.1 { best = (q, d) }
        }
        return best.0
    }

    /// Signed depth: metres inside the room (positive) or outside it (negative).
    public func depth(_ point: PlanePoint) -> Double {
        let d = distanceToBoundary(point)
        return contains(point) ? d : -d
    }

    /// A point `margin` metres or more inside the room, as central as possible: the centroid
    /// if it is deep enough, else the deepest vertex-ward point found on a grid.
    public func interiorPoint(margin: Double) -> PlanePoint? {
        let center = centroid
        if depth(center) >= margin { return center }
        let xs = vertices.map(\.x)
        let ys = vertices.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return nil }
        var best: (PlanePoint, Double)?
        for i in 0...20 {
            for j in 0...20 {
                let p = PlanePoint(x: minX + (maxX - minX) * Double(i) / 20, y: minY + (maxY - minY) * Double(j) / 20)
                let d = depth(p)
                if d > (best?.1 ?? -Double.infinity) { best = (p, d) }
            }
        }
        guard let best, best.1 >= margin else { return nil }
        return best.0
    }

    static func distance(_ p: PlanePoint, toSegment a: PlanePoint, _ b: PlanePoint) -> Double {
        let ab = b - a
        let length2 = ab.dot(ab)
        guard length2 > 0 else { return p.distance(to: a) }
        let t = min(1, max(0, (p - a).dot(ab) / length2))
        return p.distance(to: a + ab * t)
    }

    private static func segmentsCross(_ p1: PlanePoint, _ p2: PlanePoint, _ q1: PlanePoint, _ q2: PlanePoint) -> Bool {
        func orientation(_ a: PlanePoint, _ b: PlanePoint, _ c: PlanePoint) -> Double {
            (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        }
        let d1 = orientation(q1, q2, p1)
        let d2 = orientation(q1, q2, p2)
        let d3 = orientation(p1, p2, q1)
        let d4 = orientation(p1, p2, q2)
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }
}
