import RealModule

/// Angle helpers (degrees). Internal: the public API speaks degrees throughout.
enum Angles {
    /// Wraps an angle in degrees into -180 ..< 180.
    @inline(__always)
    static func wrap(_ degrees: Double) -> Double {
        degrees - 360 * ((degrees + 180) / 360).rounded(.down)
    }

    /// Degrees to radians.
    @inline(__always)
    static func radians(_ degrees: Double) -> Double { degrees * (Double.pi / 180) }

    /// Sine and cosine of an angle in degrees.
    @inline(__always)
    static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        let r = radians(degrees)
        return (Double.sin(r), Double.cos(r))
    }
}
