import RealModule

/// A one-shot 2-D position from ranges and bearings (Gauss-Newton with Huber weights, from
/// several starts): how ``AccessoryFusion`` starts and restarts its tracker, and how
/// ``HostSurvey`` places a host.
struct Multilateration: Sendable {
    /// A range from a known point: `range` metres (slant), the target `dz` metres above or
    /// below the point, σ `sigma` metres.
    struct Range: Sendable {
        var from: PlanePoint
        var dz: Double
        var range: Double
        var sigma: Double
    }

    /// A bearing from a known point: degrees clockwise from north, σ `sigma` degrees.
    struct Bearing: Sendable {
        var from: PlanePoint
        var bearing: Double
        var sigma: Double
    }

    /// A solution.
    struct Solution: Sendable {
        /// The point.
        var point: PlanePoint
        /// Its covariance (xx, xy, yy), m².
        var xx: Double
        var xy: Double
        var yy: Double
        /// The robust cost at the point (sum of squared normalized residuals, Huber).
        var cost: Double
        /// Observations used.
        var count: Int
    }

    var ranges: [Range] = []
    var bearings: [Bearing] = []
    /// Normalized residual beyond which weights fall (Huber).
    var huber = 2.5

    /// The best solution from `starts` (and starts of its own: the ranges' weighted centre,
    /// around each range's origin, along each bearing), `nil` without enough observations
    /// (one range and nothing else). `penalty` adds to a candidate's cost (e.g. outside every
    /// room).
    func solve(starts: [PlanePoint] = [], penalty: (PlanePoint) -> Double = { _ in 0 }) -> Solution? {
        guard ranges.count + bearings.count >= 2 else { return nil }
        var candidates = starts
        var weightSum = 0.0
        var centre = PlanePoint.zero
        for range in ranges {
            let w = 1 / (range.sigma * range.sigma)
            centre = centre + range.from * w
            weightSum += w
        }
        if weightSum > 0 { candidates.append(centre * (1 / weightSum)) }
        for range in ranges {
            let horizontal = (max(range.range * range.range - range.dz * range.dz, 0)).squareRoot()
            for bearing in stride(from: -180.0, to: 180.0, by: 45) {
                candidates.append(PlanePoint.polar(from: range.from, distance: horizontal, bearing: bearing))
            }
        }
        for bearing in bearings {
            for range in ranges where range.from == bearing.from {
                let horizontal = (max(range.range * range.range - range.dz * range.dz, 0)).squareRoot()
                candidates.append(PlanePoint.polar(from: bearing.from, distance: horizontal, bearing: bearing.bearing))
            }
        }
        var best: Solution?
        for start in candidates {
            guard var solution = refine(start) else { continue }
            solution.cost += penalty(solution.point)
            if solution.cost < (best?.cost ?? .infinity) { best = solution }
        }
        return best
    }

    /// Gauss-Newton (Levenberg-damped) from `start`.
    func refine(_ start: PlanePoint) -> Solution? {
        var point = start
        var lambda = 1e-3
        var cost = self.cost(at: point)
        for _ in 0..<30 {
            var (a, b, c, gx, gy) = (0.0, 0.0, 0.0, 0.0, 0.0)
            accumulate(at: point) { jx, jy, residual, weight in
                a += weight * jx * jx
                b += weight * jx * jy
                c += weight * jy * jy
                gx += weight * jx * residual
                gy += weight * jy * residual
            }
            let da = a * (1 + lambda) + 1e-12
            let dc = c * (1 + lambda) + 1e-12
            let det = da * dc - b * b
            guard abs(det) > 1e-18 else { break }
            let step = PlanePoint(x: (dc * gx - b * gy) / det, y: (da * gy - b * gx) / det)
            let next = point + step
            let nextCost = self.cost(at: next)
            if nextCost < cost {
                point = next
                cost = nextCost
                lambda = max(lambda / 4, 1e-7)
                if step.length < 1e-5 { break }
            } else {
                lambda *= 8
                if lambda > 1e6 { break }
            }
        }
        var (a, b, c) = (0.0, 0.0, 0.0)
        accumulate(at: point) { jx, jy, _, weight in
            a += weight * jx * jx
            b += weight * jx * jy
            c += weight * jy * jy
        }
        let det = a * c - b * b
        guard det > 1e-12, point.x.isFinite, point.y.isFinite else { return nil }
        return Solution(point: point, xx: c / det, xy: -b / det, yy: a / det, cost: cost, count: ranges.count + bearings.count)
    }

    /// The Huber cost at `point`.
    func cost(at point: PlanePoint) -> Double {
        var total = 0.0
        for range in ranges {
            let e = (range.range - predictedRange(range, point)) / range.sigma
            total += huberCost(e)
        }
        for bearing in bearings {
            let e = PlaneAngles.wrap(bearing.bearing - bearing.from.bearing(to: point)) / bearing.sigma
            total += huberCost(e)
        }
        return total
    }

    private func huberCost(_ e: Double) -> Double {
        abs(e) <= huber ? e * e : 2 * huber * abs(e) - huber * huber
    }

    private func predictedRange(_ range: Range, _ point: PlanePoint) -> Double {
        let d = point - range.from
        return (d.x * d.x + d.y * d.y + range.dz * range.dz).squareRoot()
    }

    /// Calls `body` with each observation's gradient of the prediction (per σ), its
    /// normalized residual and its Huber weight.
    private func accumulate(at point: PlanePoint, _ body: (Double, Double, Double, Double) -> Void) {
        for range in ranges {
            let d = point - range.from
            let r = max((d.x * d.x + d.y * d.y + range.dz * range.dz).squareRoot(), 1e-6)
            let e = (range.range - r) / range.sigma
            let w = abs(e) <= huber ? 1 : huber / abs(e)
            body(d.x / r / range.sigma, d.y / r / range.sigma, e, w)
        }
        for bearing in bearings {
            let d = point - bearing.from
            let r2 = max(d.x * d.x + d.y * d.y, 1e-6)
            let sigma = PlaneAngles.radians(bearing.sigma)
            let e = PlaneAngles.radians(PlaneAngles.wrap(bearing.bearing - bearing.from.bearing(to: point))) / sigma
            let w = abs(e) <= huber ? 1 : huber / abs(e)
            // bearing = atan2(dx, dy): ∂/∂dx = dy / r², ∂/∂dy = -dx / r².
            body(d.y / r2 / sigma, -d.x / r2 / sigma, e, w)
        }
    }
}
