import NearbyBase

/// A unit of a decoded quantity.
public enum UCIUnit: String, Sendable, Hashable {
    /// Metres.
    case meters = "m"
    /// Centimetres.
    case centimeters = "cm"
    /// Milliseconds.
    case milliseconds = "ms"
    /// Microseconds.
    case microseconds = "us"
    /// Degrees.
    case degrees = "deg"
    /// Decibel-milliwatts.
    case dBm = "dBm"
    /// Ranging scheduling time units (1 ms = 1200 RSTU).
    case rstu = "RSTU"

    /// The symbol in readable text: `"m"`, `"°"`, `"µs"`.
    public var symbol: String {
        switch self {
        case .degrees: "°"
        case .microseconds: "µs"
        default: rawValue
        }
    }
}

/// One named field of a decoded message, for readable dumps and JSON.
///
/// Every message has ``UCIMessage/fields``; ``UCIField/text(_:indent:)`` renders them for people
/// and ``UCIField/json(_:)`` as a JSON object.
public struct UCIField: Sendable, Hashable {
    /// The field's name in snake case: `"sequence_number"`.
    public var name: String
    /// The value.
    public var value: UCIFieldValue

    /// Creates a field.
    public init(_ name: String, _ value: UCIFieldValue) {
        self.name = name
        self.value = value
    }
}

/// The value of a ``UCIField``.
public indirect enum UCIFieldValue: Sendable, Hashable {
    /// A decimal integer.
    case integer(Int64)
    /// An integer shown in hex with `digits` digits (identifiers, session tokens, bit masks).
    case hex(UInt64, digits: Int)
    /// A number with a unit; `decimals` bounds the digits shown in text.
    case quantity(Double, UCIUnit, decimals: Int)
    /// Free text.
    case text(String)
    /// A named code (status, state, type): its name and raw value.
    case code(String, raw: UInt64)
    /// A yes/no value.
    case flag(Bool)
    /// Raw bytes.
    case bytes([UInt8])
    /// A list of values.
    case list([UCIFieldValue])
    /// A nested group of fields.
    case group([UCIField])

    /// An unsigned integer field value.
    static func int(_ value: some BinaryInteger) -> UCIFieldValue { .integer(Int64(value)) }
}

extension UCIField {
    /// Renders fields as indented `name: value` lines, one field per line; nested groups and
    /// lists of groups are indented by two more spaces.
    public static func text(_ fields: [UCIField], indent: Int = 0) -> String {
        var lines: [String] = []
        append(fields, indent: indent, to: &lines)
        return lines.joined(separator: "\n")
    }

    private static func append(_ fields: [UCIField], indent: Int, to lines: inout [String]) {
        let pad = String(repeating: " ", count: indent)
        for field in fields {
            let label = field.name.replacingUnderscores()
            switch field.value {
            case .group(let inner):
                lines.append("\(pad)\(label):")
                append(inner, indent: indent + 2, to: &lines)
            case .list(let items) where items.contains(where: \.isGroup):
                lines.append("\(pad)\(label): \(items.count) item\(items.count == 1 ? "" : "s")")
                for (index, item) in items.enumerated() {
                    if case .group(let inner) = item {
                        lines.append("\(pad)  [\(index + 1)]")
                        append(inner, indent: indent + 4, to: &lines)
                    } else {
                        lines.append("\(pad)  [\(index + 1)] \(item.text)")
                    }
                }
            default:
                lines.append("\(pad)\(label): \(field.value.text)")
            }
        }
    }

    /// Renders fields as one JSON object on one line. Quantities get their unit in the key
    /// (`"distance_m": 1.5`), codes are their name (`"status": "OK"`), bytes a hex string.
    public static func json(_ fields: [UCIField]) -> String {
        "{" + fields.map { "\(jsonString($0.jsonKey)):\($0.value.json)" }.joined(separator: ",") + "}"
    }

    var jsonKey: String {
        if case .quantity(_, let unit, _) = value { return "\(name)_\(unit.rawValue.lowercased())" }
        return name
    }
}

extension UCIFieldValue {
    var isGroup: Bool {
        if case .group = self { return true }
        return false
    }

    /// The value in readable text.
    public var text: String {
        switch self {
        case .integer(let v): "\(v)"
        case .hex(let v, let digits): Hex.prefixed(v, digits: digits)
        case .quantity(let v, let unit, let decimals):
            unit == .degrees ? "\(DecimalText.trimmed(v, decimals: decimals))°" : "\(DecimalText.trimmed(v, decimals: decimals)) \(unit.symbol)"
        case .text(let s): s
        case .code(let name, let raw): "\(name) (\(Hex.prefixed(raw, digits: raw > 0xFF ? 4 : 2)))"
        case .flag(let b): b ? "yes" : "no"
        case .bytes(let b): b.isEmpty ? "(none)" : Hex.bytes(b)
        case .list(let items): "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .group(let fields): "{" + fields.map { "\($0.name.replacingUnderscores()): \($0.value.text)" }.joined(separator: ", ") + "}"
        }
    }

    /// The value as JSON.
    public var json: String {
        switch self {
        case .integer(let v): "\(v)"
        case .hex(let v, _): "\(v)"
        case .quantity(let v, _, let decimals):
            if !v.isFinite {
                "null"
            } else if decimals == 0, let integer = DecimalText.roundedInteger(v), Double(integer) == v {
                "\(integer)"
            } else {
                "\(v)"
            }
        case .text(let s): jsonString(s)
        case .code(let name, _): jsonString(name)
        case .flag(let b): b ? "true" : "false"
        case .bytes(let b): jsonString(b.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
        }.joined())
        case .list(let items): "[" + items.map(\.json).joined(separator: ",") + "]"
        case .group(let fields): UCIField.json(fields)
        }
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? " " : $0 })
    }
}

/// A JSON string literal with the required escapes (``NearbyBase/JSONText/string(_:)``).
func jsonString(_ text: String) -> String { JSONText.string(text) }
