import RealModule

/// A 2-D constant-velocity Kalman filter (state x, y, vx, vy) with a gated, Huber-weighted
/// scalar update: the tracker under ``AccessoryFusion``.
struct PlaneKalman: Sendable {
    /// x, y (m), vx, vy (m/s).
    private(set) var state: SIMD4<Double>
    /// Row-major 4×4 covariance.
    private(set) var covariance: [Double]
    /// Time of the state, seconds.
    private(set) var time: Double

    /// What an update did.
    enum Outcome: Sendable, Equatable {
        /// Used; `normalized` innovation (σ units).
        case accepted(normalized: Double)
        /// Rejected by the gate.
        case rejected(normalized: Double)
    }

    /// Starts at `position` with its 2×2 covariance (`xx`, `xy`, `yy`) and still, with
    /// `velocityVariance` (m²/s²) on each velocity.
    init(position: PlanePoint, xx: Double, xy: Double, yy: Double, velocityVariance: Double, time: Double) {
        state = SIMD4(position.x, position.y, 0, 0)
        covariance = [
            xx, xy, 0, 0,
            xy, yy, 0, 0,
            0, 0, velocityVariance, 0,
            0, 0, 0, velocityVariance,
        ]
        self.time = time
    }

    /// The position.
    var position: PlanePoint { PlanePoint(x: state[0], y: state[1]) }
    /// The velocity, m/s.
    var velocity: PlanePoint { PlanePoint(x: state[2], y: state[3]) }
    /// Speed, m/s.
    var speed: Double { velocity.length }

    /// The largest variance of the position along any direction, m².
    var worstPositionVariance: Double {
        let a = covariance[0]
        let b = covariance[1]
        let c = covariance[5]
        return (a + c) / 2 + (((a - c) / 2) * ((a - c) / 2) + b * b).squareRoot()
    }

    /// Moves the state to `newTime` (nothing if it is not later): white acceleration noise of
    /// spectral density `acceleration²` (m²/s³), the velocity relaxing towards 0 with time
    /// constant `decay` seconds (a walker who stops; `nil`: constant velocity).
    mutating func predict(to newTime: Double, acceleration: Double, decay: Double?) {
        let dt = newTime - time
        guard dt > 0 else { return }
        time = newTime
        let a = decay.map { Double.exp(-dt / $0) } ?? 1
        // Position gain of the velocity over dt: dt without decay, τ(1 - a) with it.
        let g = decay.map { $0 * (1 - a) } ?? dt
        var f = [Double](repeating: 0, count: 16)
        f[0] = 1
        f[2] = g
        f[5] = 1
        f[7] = g
        f[10] = a
        f[15] = a
        state = SIMD4(state[0] + g * state[2], state[1] + g * state[3], a * state[2], a * state[3])
        // P = F P Fᵀ + Q
        var fp = [Double](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                var sum = 0.0
                for k in 0..<4 { sum += f[i * 4 + k] * covariance[k * 4 + j] }
                fp[i * 4 + j] = sum
            }
        }
        var p = [Double](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                var sum = 0.0
                for k in 0..<4 { sum += fp[i * 4 + k] * f[j * 4 + k] }
                p[i * 4 + j] = sum
            }
        }
        let q = acceleration * acceleration
        let pp = q * dt * dt * dt / 3
        let pv = q * dt * dt / 2
        let vv = q * dt
        p[0] += pp
        p[5] += pp
        p[2] += pv
        p[8] += pv
        p[7] += pv
        p[13] += pv
        p[10] += vv
        p[15] += vv
        covariance = p
    }

    /// One scalar measurement `z` of `h(state)` = `predicted` with gradient `jacobian` and
    /// variance `variance`: rejected beyond `gate` σ, weighted down (Huber) beyond `huber` σ.
    /// `innovation` overrides `z - predicted` (angles wrap).
    mutating func update(
        predicted: Double, jacobian h: SIMD4<Double>, measurement z: Double, variance r: Double, gate: Double, huber: Double,
        innovation: Double? = nil
    ) -> Outcome {
        var ph = SIMD4<Double>(repeating: 0)
        for i in 0..<4 {
            var sum = 0.0
            for j in 0..<4 { sum += covariance[i * 4 + j] * h[j] }
            ph[i] = sum
        }
        let hph = (h * ph).sum()
        let nu = innovation ?? (z - predicted)
        var s = hph + r
        let normalized = nu / s.squareRoot()
        guard abs(normalized) <= gate else { return .rejected(normalized: normalized) }
        if abs(normalized) > huber {
            s = hph + r * abs(normalized) / huber
        }
        let k = ph / s
        state += k * nu
        var p = covariance
        for i in 0..<4 {
            for j in 0..<4 { p[i * 4 + j] -= k[i] * ph[j] }
        }
        // Symmetric and positive on the diagonal.
        for i in 0..<4 {
            p[i * 4 + i] = max(p[i * 4 + i], 1e-9)
            for j in (i + 1)..<4 {
                let mean = (p[i * 4 + j] + p[j * 4 + i]) / 2
                p[i * 4 + j] = mean
                p[j * 4 + i] = mean
            }
        }
        covariance = p
        return .accepted(normalized: normalized)
    }

    /// Widens the position uncertainty (a restart that keeps the estimate).
    mutating func inflatePosition(by variance: Double) {
        covariance[0] += variance
        covariance[5] += variance
    }
}
