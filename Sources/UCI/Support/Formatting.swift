// Text formatting shared by descriptions, errors and field dumps.

/// `"INVALID_PARAM (0x04)"`, or `"unknown (0x2F)"` when the value has no name.
func codeDescription(_ name: String?, _ raw: UInt8) -> String {
    "\(name ?? "unknown") (\(hex(raw)))"
}

/// `0x0A`-style hex of a byte.
func hex(_ value: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)])
}

/// `0x0102`-style hex of an integer with `digits` hex digits.
func hex(_ value: UInt64, digits: Int) -> String {
    let table = Array("0123456789ABCDEF")
    var text = ""
    for i in stride(from: digits - 1, through: 0, by: -1) {
        text.append(table[Int((value >> UInt64(4 * i)) & 0xF)])
    }
    return "0x" + text
}

/// `01 02 0A` hex of bytes.
func hexBytes(_ bytes: some Sequence<UInt8>) -> String {
    let table = Array("0123456789abcdef")
    var text = ""
    for byte in bytes {
        if !text.isEmpty { text.append(" ") }
        text.append(table[Int(byte >> 4)])
        text.append(table[Int(byte & 0xF)])
    }
    return text
}

/// `value` rounded to the nearest integer (halves away from zero), or `nil` if it is not finite
/// or too large for an exact integer (|value| ≥ 2^53).
///
/// Written with integer conversion rather than `Double.rounded()`, which calls libm's `round`:
/// this pure module must link without libm (a program that imports only `UCI` does not link it
/// on Linux).
func roundedInteger(_ value: Double) -> Int64? {
    guard value.isFinite, abs(value) < 9_007_199_254_740_992 else { return nil }
    let truncated = Int64(value)
    let fraction = value - Double(truncated)
    if fraction >= 0.5 { return truncated + 1 }
    if fraction <= -0.5 { return truncated - 1 }
    return truncated
}

/// A decimal number with at most `decimals` decimals and no trailing zeros: `1.5`, `2`.
func formatDecimal(_ value: Double, decimals: Int) -> String {
    var scale: Int64 = 1
    for _ in 0..<min(max(decimals, 0), 15) { scale *= 10 }
    guard let scaled = roundedInteger(value * Double(scale)) else { return "\(value)" }
    if scaled % scale == 0 { return "\(scaled / scale)" }
    var text = "\(Double(scaled) / Double(scale))"
    if text.contains("e") { return text }
    while text.hasSuffix("0") { text.removeLast() }
    return text
}
