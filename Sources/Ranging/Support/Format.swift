import NearbyBase

/// Number formatting without Foundation (tables, JSON, SVG).
enum Format {
    /// `x` with exactly `decimals` digits after the point (see ``DecimalText/fixed(_:_:)``).
    static func fixed(_ x: Double, _ decimals: Int) -> String { DecimalText.fixed(x, decimals) }

    /// A JSON number (see ``JSONText/number(_:decimals:)``).
    static func json(_ x: Double?, decimals: Int = 6) -> String { JSONText.number(x, decimals: decimals) }

    /// A JSON string literal (see ``JSONText/string(_:)``).
    static func jsonString(_ s: String) -> String { JSONText.string(s) }

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
