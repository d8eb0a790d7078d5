#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C math functions the scene needs, in one place: the only file of the scene that imports
/// the platform's C library (no Foundation). Angles in radians unless the name says degrees.
enum SceneMath {
    static func sin(_ x: Double) -> Double { cSin(x) }
    static func cos(_ x: Double) -> Double { cCos(x) }
    static func atan2(_ y: Double, _ x: Double) -> Double { cAtan2(y, x) }
    static func log(_ x: Double) -> Double { cLog(x) }
    static func log10(_ x: Double) -> Double { cLog10(x) }
    static func exp(_ x: Double) -> Double { cExp(x) }

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
    static func sin(degrees: Double) -> Double { cSin(radians(degrees)) }
    static func cos(degrees: Double) -> Double { cCos(radians(degrees)) }

    /// An angle in degrees wrapped into -180 ..< 180.
    static func wrappedDegrees(_ degrees: Double) -> Double {
        let wrapped = degrees - 360 * (((degrees + 180) / 360).rounded(.down))
        return wrapped >= 180 ? wrapped - 360 : wrapped
    }

    /// `value` limited to `range`; NaN becomes 0 if the range holds 0, else its lower bound (so
    /// integer conversions of a clamped value never trap).
    static func clamp(_ value: Double, _ range: ClosedRange<Double>) -> Double {
        guard !value.isNaN else { return range.contains(0) ? 0 : range.lowerBound }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}

private func cSin(_ x: Double) -> Double { sin(x) }
private func cCos(_ x: Double) -> Double { cos(x) }
private func cAtan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
private func cLog(_ x: Double) -> Double { log(x) }
private func cLog10(_ x: Double) -> Double { log10(x) }
private func cExp(_ x: Double) -> Double { exp(x) }
