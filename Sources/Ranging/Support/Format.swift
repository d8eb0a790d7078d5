/// Number formatting without Foundation (tables, JSON, SVG).
enum Format {
    private static let powersOfTen: [Double] = (0...12).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// `x` with exactly `decimals` digits after the point (0 ... 12), rounded half away from zero;
    /// `nan`, `inf`, `-inf` for non-finite values; never `-0.000`.
    static func fixed(_ x: Double, _ decimals: Int) -> String {
        guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
        let decimals = min(max(decimals, 0), 12)
        let scale = powersOfTen[decimals]
        let scaled = (abs(x) * scale).rounded()
        guard scaled < 9.0e15 else { return "\(x)" }
        let units = Int64(scaled)
        let divisor = Int64(scale)
        var text = units != 0 && x < 0 ? "-" : ""
        text += String(units / divisor)
        if decimals > 0 {
            let fraction = String(units % divisor)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return text
    }

    /// A JSON number rounded to `decimals` digits without trailing zeros (`0.0747`, `2`), or
    /// `null` for `nil` and non-finite values.
    static func json(_ x: Double?, decimals: Int = 6) -> String {
        guard let x, x.isFinite else { return "null" }
        var text = fixed(x, decimals)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// A JSON string literal with the required escapes.
    static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Text escaped for XML content and attribute values.
    static func xml(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }

    /// `text` padded with spaces on the left (right-aligned) to `width` characters.
    static func left(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// `text` padded with spaces on the right (left-aligned) to `width` characters.
    static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
