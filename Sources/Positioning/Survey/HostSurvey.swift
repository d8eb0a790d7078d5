import RealModule

/// Host positions from host-to-host ranges (`nearby house survey`, specs/house.md "Survey"):
/// one host at a time plays the accessory and the others range it; given the positions of two
/// hosts, the others follow by least squares, the mirror image across the line through the two
/// is told apart by the kits' azimuths (or rough positions), and each kit's heading comes from
/// the azimuths it measured.
public struct HostSurvey: Sendable {
    /// One range between two hosts: the median of many samples.
    public struct Range: Sendable, Hashable {
        /// The host that measured.
        public var observer: String
        /// The host ranged (in the accessory role).
        public var target: String
        /// Metres (slant).
        public var distance: Double
        /// Samples behind it.
        public var samples: Int
        /// The median azimuth of `target` seen by `observer`'s kit, degrees, if it has one.
        public var azimuth: Double?

        /// A range.
        public init(observer: String, target: String, distance: Double, samples: Int = 1, azimuth: Double? = nil) {
            self.observer = observer
            self.target = target
            self.distance = distance
            self.samples = samples
            self.azimuth = azimuth
        }
    }

    /// The result.
    public struct Result: Sendable, Hashable {
        /// Every host's position, by name.
        public var positions: [String: PlanePoint]
        /// Kit headings from azimuths (degrees clockwise from north), where measured.
        public var headings: [String: Double]
        /// Range residuals (measured − solved), by "observer→target".
        public var residuals: [String: Double]
        /// RMS of the residuals, metres.
        public var rms: Double
        /// `true` when nothing told the mirror image apart (no azimuths, no rough positions).
        public var mirrorAmbiguous: Bool
    }

    /// The hosts, in order.
    public var hosts: [String]
    /// Antenna heights, metres (default ``HouseHost/defaultHeight``).
    public var heights: [String: Double] = [:]
    /// Fixed positions: two hosts (more are allowed).
    public var fixed: [String: PlanePoint]
    /// Rough positions of the others, to tell the mirror image apart (optional).
    public var guesses: [String: PlanePoint] = [:]

    /// A survey of `hosts` with `fixed` positions.
    public init(hosts: [String], fixed: [String: PlanePoint]) {
        self.hosts = hosts
        self.fixed = fixed
    }

    /// Solves the positions.
    /// - Throws: ``HousePlanError`` when fewer than two hosts are fixed or a host has too few
    ///   ranges to be placed (each needs ranges to two placed hosts).
    public func solve(_ ranges: [Range]) throws(HousePlanError) -> Result {
        guard fixed.count >= 2 else { throw HousePlanError("the survey needs the positions of two hosts (it found \(fixed.count))") }
        var distances: [Pair: (sum: Double, weight: Double)] = [:]
        for range in ranges where range.distance.isFinite && range.distance > 0 && range.observer != range.target {
            let key = Pair(range.observer, range.target)
            let w = Double(max(range.samples, 1))
            distances[key, default: (0, 0)].sum += range.distance * w
            distances[key, default: (0, 0)].weight += w
        }
        func horizontal(_ a: String, _ b: String) -> Double? {
            guard let entry = distances[Pair(a, b)] else { return nil }
            let slant = entry.sum / entry.weight
            let dz = (heights[a] ?? HouseHost.defaultHeight) - (heights[b] ?? HouseHost.defaultHeight)
            return max(slant * slant - dz * dz, 0).squareRoot()
        }
        // Place hosts one by one: each needs ranges to two placed ones.
        var placed = fixed
        var remaining = hosts.filter { placed[$0] == nil }
        while !remaining.isEmpty {
            guard
                let (index, point) = remaining.enumerated().lazy.compactMap({ index, name -> (Int, PlanePoint)? in
                    var problem = Multilateration()
                    for (other, position) in placed {
                        if let d = horizontal(name, other) { problem.ranges.append(.init(from: position, dz: 0, range: d, sigma: 0.05)) }
                    }
                    guard problem.ranges.count >= 2 else { return nil }
                    let starts = [guesses[name]].compactMap { $0 }
                    return problem.solve(starts: starts).map { (index, $0.point) }
                }).first
            else {
                throw HousePlanError(
                    "cannot place \(remaining.joined(separator: ", ")): each host needs ranges to two hosts already placed (range it from more hosts)")
            }
            placed[remaining[index]] = point
            remaining.remove(at: index)
        }
        // Every free host at once.
        let free = hosts.filter { fixed[$0] == nil }
        placed = refine(placed, free: free, horizontal: horizontal)
        // The mirror image across the line through two fixed hosts fits the ranges as well.
        let anchors = fixed.keys.sorted().prefix(2).compactMap { fixed[$0] }
        let mirrored = placed.mapValues { point in fixed.values.contains(point) ? point : Self.mirror(point, anchors[0], anchors[1]) }
        let bearings = ranges.filter { $0.azimuth != nil }
        var ambiguous = false
        let original = Self.bearingMisfit(placed, bearings)
        let flipped = Self.bearingMisfit(mirrored, bearings)
        var chosen = placed
        if let original, let flipped {
            if flipped < original { chosen = mirrored }
        } else if !guesses.isEmpty {
            func misfit(_ positions: [String: PlanePoint]) -> Double {
                guesses.reduce(0) { total, guess in total + (positions[guess.key].map { $0.distance(to: guess.value) } ?? 0) }
            }
            if misfit(mirrored) < misfit(placed) { chosen = mirrored }
        } else if fixed.count == 2, free.count > 0 {
            ambiguous = true
        }
        var residuals: [String: Double] = [:]
        var squares = 0.0
        for range in ranges {
            guard let a = chosen[range.observer], let b = chosen[range.target], let d = horizontal(range.observer, range.target) else { continue }
            let residual = d - a.distance(to: b)
            residuals["\(range.observer)→\(range.target)"] = residual
            squares += residual * residual
        }
        var headings: [String: Double] = [:]
        for observer in Set(bearings.map(\.observer)) {
            let angles = bearings.filter { $0.observer == observer }.compactMap { range -> Double? in
                guard let a = chosen[range.observer], let b = chosen[range.target], let azimuth = range.azimuth else { return nil }
                return a.bearing(to: b) - azimuth
            }
            headings[observer] = PlaneAngles.circularMean(angles)
        }
        return Result(
            positions: chosen, headings: headings, residuals: residuals, rms: residuals.isEmpty ? 0 : (squares / Double(residuals.count)).squareRoot(),
            mirrorAmbiguous: ambiguous)
    }

    private struct Pair: Hashable {
        var a: String
        var b: String
        init(_ x: String, _ y: String) { (a, b) = x < y ? (x, y) : (y, x) }
    }

    /// Gauss-Newton on every free host together (ranges to fixed and to free hosts).
    private func refine(_ start: [String: PlanePoint], free: [String], horizontal: (String, String) -> Double?) -> [String: PlanePoint] {
        var positions = start
        for _ in 0..<50 {
            var moved = 0.0
            for name in free {
                var problem = Multilateration()
                for (other, position) in positions where other != name {
                    if let d = horizontal(name, other) { problem.ranges.append(.init(from: position, dz: 0, range: d, sigma: 0.05)) }
                }
                guard let current = positions[name], let solution = problem.refine(current) else { continue }
                moved = max(moved, solution.point.distance(to: current))
                positions[name] = solution.point
            }
            if moved < 1e-5 { break }
        }
        return positions
    }

    private static func mirror(_ p: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> PlanePoint {
        let d = b - a
        let length2 = d.dot(d)
        guard length2 > 0 else { return p }
        let t = (p - a).dot(d) / length2
        let foot = a + d * t
        return foot * 2 - p
    }

    /// How badly the azimuths disagree with positions (each observer's heading fitted):
    /// mean squared wrapped error, `nil` without an observer with two azimuths.
    private static func bearingMisfit(_ positions: [String: PlanePoint], _ ranges: [Range]) -> Double? {
        var total = 0.0
        var count = 0
        for observer in Set(ranges.map(\.observer)) {
            let angles = ranges.filter { $0.observer == observer }.compactMap { range -> Double? in
                guard let a = positions[range.observer], let b = positions[range.target], let azimuth = range.azimuth else { return nil }
                return a.bearing(to: b) - azimuth
            }
            guard angles.count >= 2, let heading = PlaneAngles.circularMean(angles) else { continue }
            for angle in angles {
                let e = PlaneAngles.wrap(angle - heading)
                total += e * e
                count += 1
            }
        }
        return count > 0 ? total / Double(count) : nil
    }
}
