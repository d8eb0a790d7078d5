/// JSON text without Foundation: the one writer of JSON numbers and strings in the package
/// (`--json` lines, bench reports, MQTT payloads, the web view), so every output formats numbers
/// the same way.
public enum JSONText {
    /// A JSON number rounded to `decimals` digits (0 ... 12) without trailing zeros (`0.0747`,
    /// `2`), or `null` for `nil` and non-finite values; never `-0`.
    public static func number(_ value: Double?, decimals: Int = 6) -> String {
        guard let value, value.isFinite else { return "null" }
        var text = DecimalText.fixed(value, decimals)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// A JSON string literal with the escapes RFC 8259 requires (quote, backslash, control
    /// characters); other characters, `/` and non-ASCII included, are written as they are.
    public static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + Hex.digits(UInt8(scalar.value), count: 2).lowercased()
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// One JSON object with its keys in the order added (`{"t_s":1.5,"event":"update",...}`).
///
/// ```swift
/// var object = JSONObject()
/// object["event"] = .string("update")
/// object["distance_m"] = .number(1.234, decimals: 3)
/// print(object.text)   // {"event":"update","distance_m":1.234}
/// ```
public struct JSONObject: Sendable, Hashable, CustomStringConvertible {
    /// A value: `nil` contents are written as `null`.
    public enum Value: Sendable, Hashable {
        /// A string.
        case string(String?)
        /// A number rounded to `decimals` digits (see ``JSONText/number(_:decimals:)``).
        case number(Double?, decimals: Int)
        /// An integer.
        case int(Int64?)
        /// `true` or `false`.
        case bool(Bool?)
        /// Already-encoded JSON (a nested object or array), written as it is.
        case raw(String)

        /// An integer of any width.
        public static func integer(_ value: (some BinaryInteger)?) -> Value { .int(value.map { Int64(truncatingIfNeeded: $0) }) }

        /// The JSON text of the value.
        public var text: String {
            switch self {
            case .string(let text): text.map(JSONText.string) ?? "null"
            case .number(let value, let decimals): JSONText.number(value, decimals: decimals)
            case .int(let value): value.map { "\($0)" } ?? "null"
            case .bool(let value): value.map { $0 ? "true" : "false" } ?? "null"
            case .raw(let text): text
            }
        }
    }

    private var fields: [(key: String, value: Value)] = []

    /// An empty object.
    public init() {}

    /// An object with `fields` in order.
    public init(_ fields: [(String, Value)]) {
        self.fields = fields.map { (key: $0.0, value: $0.1) }
    }

    /// Adds (or replaces) a key's value; reading gives the value, `nil` if absent.
    public subscript(key: String) -> Value? {
        get { fields.first { $0.key == key }?.value }
        set {
            if let index = fields.firstIndex(where: { $0.key == key }) {
                if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                fields.append((key: key, value: newValue))
            }
        }
    }

    /// Adds every field of `other` (replacing equal keys).
    public mutating func merge(_ other: [(String, Value)]) {
        for (key, value) in other { self[key] = value }
    }

    /// The keys in order.
    public var keys: [String] { fields.map(\.key) }

    /// The JSON text, on one line.
    public var text: String {
        "{" + fields.map { JSONText.string($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
    }

    public var description: String { text }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
