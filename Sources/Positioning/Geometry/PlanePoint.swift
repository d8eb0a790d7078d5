import RealModule

/// A point (or vector) on a floor, metres: `x` east, `y` north (the simulator's world frame).
public struct PlanePoint: Sendable, Hashable, CustomStringConvertible {
    /// Metres east.
    public var x: Double
    /// Metres north.
    public var y: Double

    /// A point at (`x`, `y`) metres.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin.
    public static let zero = PlanePoint(x: 0, y: 0)

    /// Component-wise sum.
    public static func + (a: PlanePoint, b: PlanePoint) -> PlanePoint { PlanePoint(x: a.x + b.x, y: a.y + b.y) }
    /// Component-wise difference.
    public static func - (a: PlanePoint, b: PlanePoint) -> PlanePoint { PlanePoint(x: a.x - b.x, y: a.y - b.y) }
    /// Scaled.
    public static func * (a: PlanePoint, k: Double) -> PlanePoint { PlanePoint(x: a.x * k, y: a.y * k) }

    /// Length as a vector, metres.
    public var length: Double { (x * x + y * y).squareRoot() }

    /// Distance to `other`, metres.
    public func distance(to other: PlanePoint) -> Double { (other - self).length }

    /// Dot product.
    public func dot(_ other: PlanePoint) -> Double { x * other.x + y * other.y }

    /// Bearing of `other` seen from here: degrees clockwise from north (+y), -180 ..< 180
    /// (0 = north, 90 = east). 0 for the same point.
    public func bearing(to other: PlanePoint) -> Double {
        let d = other - self
        guard d.x != 0 || d.y != 0 else { return 0 }
        return PlaneAngles.wrap(PlaneAngles.degrees(Double.atan2(y: d.x, x: d.y)))
    }

    /// The point `distance` metres from `origin` at `bearing` degrees clockwise from north.
    public static func polar(from origin: PlanePoint, distance: Double, bearing: Double) -> PlanePoint {
        let (s, c) = PlaneAngles.sinCos(degrees: bearing)
        return PlanePoint(x: origin.x + distance * s, y: origin.y + distance * c)
    }

    /// `(1.20, -3.05)`.
    public var description: String { "(\(PlaneAngles.fixed(x, 2)), \(PlaneAngles.fixed(y, 2)))" }
}

/// Angle and number helpers (degrees).
enum PlaneAngles {
    /// Wraps degrees into -180 ..< 180.
    static func wrap(_ degrees: Double) -> Double {
        degrees - 360 * ((degrees + 180) / 360).rounded(.down)
    }

    /// Radians to degrees.
    static func degrees(_ radians: Double) -> Double { radians * (180 / Double.pi) }

    /// Degrees to radians.
    static func radians(_ degrees: Double) -> Double { degrees * (Double.pi / 180) }

    /// Sine and cosine of degrees.
    static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        let r = radians(degrees)
        return (Double.sin(r), Double.cos(r))
    }

    /// The circular mean of angles in degrees (`nil` for none or when they cancel out).
    static func circularMean(_ angles: [Double]) -> Double? {
        guard !angles.isEmpty else { return nil }
        var s = 0.0
        var c = 0.0
        for angle in angles {
            let (si, ci) = sinCos(degrees: angle)
            s += si
            c += ci
        }
        guard s * s + c * c > 1e-12 else { return nil }
        return wrap(degrees(Double.atan2(y: s, x: c)))
    }

    /// `value` with `decimals` decimals (`-0` shown as `0`).
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        var digits = String(Int64(scaled))
        if decimals > 0 {
            while digits.count <= decimals { digits = "0" + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        }
        return (value < 0 && scaled != 0 ? "-" : "") + digits
    }
}
