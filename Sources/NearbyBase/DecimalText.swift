/// Decimal text for numbers without Foundation or libm (the pure modules link without libm).
public enum DecimalText {
    /// `value` rounded to the nearest integer (halves away from zero), or `nil` if it is not
    /// finite or too large for an exact integer (|value| ≥ 2^53).
    @inlinable
    public static func roundedInteger(_ value: Double) -> Int64? {
        guard value.isFinite, abs(value) < 9_007_199_254_740_992 else { return nil }
        let truncated = Int64(value)
        let fraction = value - Double(truncated)
        if fraction >= 0.5 { return truncated + 1 }
        if fraction <= -0.5 { return truncated - 1 }
        return truncated
    }

    /// `value` with at most `decimals` decimals (0 ... 15) and no trailing zeros: `1.5`, `2`.
    /// Non-finite values as Swift prints them (`nan`, `inf`).
    public static func trimmed(_ value: Double, decimals: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<min(max(decimals, 0), 15) { scale *= 10 }
        guard let scaled = roundedInteger(value * Double(scale)) else { return "\(value)" }
        if scaled % scale == 0 { return "\(scaled / scale)" }
        var text = "\(Double(scaled) / Double(scale))"
        if text.contains("e") { return text }
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// `value` with exactly `decimals` digits after the point (0 ... 12), rounded half away from
    /// zero; `nan`, `inf`, `-inf` for non-finite values; never `-0.000`.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        let decimals = min(max(decimals, 0), 12)
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        guard let units = roundedInteger(abs(value) * Double(scale)), units < 9_000_000_000_000_000 else { return "\(value)" }
        var text = units != 0 && value < 0 ? "-" : ""
        text += String(units / scale)
        if decimals > 0 {
            let fraction = String(units % scale)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return text
    }
}
