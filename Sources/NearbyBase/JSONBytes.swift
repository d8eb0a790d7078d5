/// JSON text appended to a byte buffer in place: the same numbers and strings as ``JSONText``,
/// byte for byte, for the hot lines (`--json` updates) that must not allocate per sample.
public enum JSONBytes {
    /// Appends `text`'s UTF-8 bytes as they are (keys, punctuation).
    @inlinable
    public static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Appends a number as ``JSONText/number(_:decimals:)`` writes it: rounded to `decimals`
    /// digits (0 ... 12) without trailing zeros, `null` for `nil` and non-finite values, never `-0`.
    public static func appendNumber(_ value: Double?, decimals: Int, to out: inout [UInt8]) {
        guard let value, value.isFinite else {
            append("null", to: &out)
            return
        }
        let decimals = min(max(decimals, 0), 12)
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        guard let units = DecimalText.roundedInteger(abs(value) * Double(scale)), units < 9_000_000_000_000_000 else {
            // Beyond exact integers: as JSONText writes it (never for the values a run prints).
            out.append(contentsOf: JSONText.number(value, decimals: decimals).utf8)
            return
        }
        if units != 0 && value < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(units / scale), to: &out)
        let fraction = units % scale
        guard fraction != 0 else { return }
        out.append(UInt8(ascii: "."))
        appendFraction(UInt64(fraction), digits: decimals, to: &out)
    }

    /// Appends a finite number as Swift's `description` writes it (`1.5`, `-3.0`, `0.0001`,
    /// `1e-05`): the shortest digits that read back as `value`.
    ///
    /// Values below 10⁶ with at most 7 decimals (every distance, angle and time a range
    /// notification carries: centimetres, Q9.7 degrees, milliseconds) are written from integers;
    /// any other value goes through `description` (which allocates nothing for short text).
    public static func appendShortest(_ value: Double, to out: inout [UInt8]) {
        let magnitude = value.magnitude
        if magnitude == 0 {
            append(value.sign == .minus ? "-0.0" : "0.0", to: &out)
            return
        }
        // Below 10⁶, 10⁻⁷ is far coarser than the spacing of doubles (≤ 1.2e-10), so at most one
        // decimal with 7 fraction digits reads back as `value`: the nearest, `units`. A shorter one
        // that reads back is that one with trailing zeros, so dropping them gives the shortest
        // digits, which is what `description` prints between 1e-4 and 2^53.
        if magnitude >= 0.0001, magnitude < 1_000_000 {
            let units = UInt64(magnitude * 10_000_000 + 0.5)
            if Double(units) / 10_000_000 == magnitude {
                if value.sign == .minus { out.append(UInt8(ascii: "-")) }
                appendDigits(units / 10_000_000, to: &out)
                out.append(UInt8(ascii: "."))
                let fraction = units % 10_000_000
                if fraction == 0 {
                    out.append(UInt8(ascii: "0"))
                } else {
                    appendFraction(fraction, digits: 7, to: &out)
                }
                return
            }
        }
        var text = value.description
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends an integer in decimal, or `null`.
    public static func appendInteger(_ value: Int64?, to out: inout [UInt8]) {
        guard let value else {
            append("null", to: &out)
            return
        }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, to: &out)
    }

    /// Appends `true`, `false` or `null`.
    public static func appendBool(_ value: Bool?, to out: inout [UInt8]) {
        switch value {
        case true?: append("true", to: &out)
        case false?: append("false", to: &out)
        case nil: append("null", to: &out)
        }
    }

    /// Appends a string literal as ``JSONText/string(_:)`` writes it (quote, backslash and
    /// control characters escaped), or `null`.
    public static func appendString(_ text: String?, to out: inout [UInt8]) {
        guard let text else {
            append("null", to: &out)
            return
        }
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 { appendEscaped(byte, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 bytes as the inside of a string literal (escaped).
    public static func appendEscaped(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        for byte in bytes { appendEscaped(byte, to: &out) }
    }

    @inline(__always)
    static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(byte)
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
        case UInt8(ascii: "\n"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
        case 0..<0x20:
            append("\\u00", to: &out)
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { digits in
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            }
        default:
            out.append(byte)
        }
    }

    /// Appends a non-zero fraction of `digits` decimal places (`fraction` / 10^digits) without
    /// its trailing zeros, zero-padded on the left: 500 with 4 digits writes `05`.
    @inline(__always)
    private static func appendFraction(_ fraction: UInt64, digits: Int, to out: inout [UInt8]) {
        var fraction = fraction
        var divisor: UInt64 = 1
        for _ in 1..<max(digits, 1) { divisor *= 10 }
        while fraction % 10 == 0 {
            fraction /= 10
            divisor /= 10
        }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    private static func appendDigits(_ value: UInt64, to out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
