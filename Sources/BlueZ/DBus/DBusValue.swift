/// One D-Bus value with its type: what ``DBusConnection`` sends and receives (the D-Bus
/// specification's type system, "Type System"; sd-bus marshals it).
///
/// File descriptors (``unixFD(_:)``) received in a message are duplicated out of it: the
/// receiver owns the descriptor and must close it. Sent ones are duplicated by sd-bus: the
/// sender keeps its own.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case unixFD(Int32)
    /// `ay`: a byte array (read and written in one piece).
    case bytes([UInt8])
    /// `a` + `element`: an array of values of the signature `element` (not `y`: use ``bytes(_:)``).
    case array(element: String, [DBusValue])
    /// `a{` + `key` + `value` + `}`: a dictionary, entries in order.
    case dictionary(key: String, value: String, [DBusDictionaryEntry])
    /// `(` ... `)`: a structure.
    case structure([DBusValue])
    /// `v`: a variant.
    case variant(DBusValue)

    /// The value's type signature (`s`, `a{sv}`, `(oay)`, ...).
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let members): "(" + members.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// A variant holding `value` (property values, option dictionaries).
    public static func v(_ value: DBusValue) -> DBusValue { .variant(value) }

    /// `a{sv}` from a Swift dictionary, keys sorted (stable messages).
    public static func properties(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(key: "s", value: "v", entries.sorted { $0.key < $1.key }.map {
            DBusDictionaryEntry(.string($0.key), .variant($0.value))
        })
    }

    // MARK: Reading

    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The string of a `s`, `o` or `g` (through variants).
    public var string: String? {
        switch unwrapped {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    /// The boolean (through variants).
    public var bool: Bool? {
        if case .boolean(let value) = unwrapped { return value }
        return nil
    }

    /// Any integer type as `Int` (through variants).
    public var integer: Int? {
        switch unwrapped {
        case .byte(let v): Int(v)
        case .int16(let v): Int(v)
        case .uint16(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int64(let v): Int(v)
        case .uint64(let v): v <= UInt64(Int.max) ? Int(v) : nil
        default: nil
        }
    }

    /// The bytes of an `ay` (through variants).
    public var byteArray: [UInt8]? {
        switch unwrapped {
        case .bytes(let bytes): bytes
        case .array(_, let items):
            items.allSatisfy { if case .byte = $0 { true } else { false } }
                ? items.compactMap { if case .byte(let b) = $0 { b } else { nil } } : nil
        default: nil
        }
    }

    /// The items of an array (through variants); a byte array gives `.byte` items.
    public var items: [DBusValue]? {
        switch unwrapped {
        case .array(_, let items): items
        case .bytes(let bytes): bytes.map { .byte($0) }
        default: nil
        }
    }

    /// The strings of an `as` / `ao` (through variants).
    public var strings: [String]? { items?.compactMap(\.string) }

    /// The entries of a dictionary (through variants).
    public var entries: [DBusDictionaryEntry]? {
        if case .dictionary(_, _, let entries) = unwrapped { return entries }
        return nil
    }

    /// A dictionary with string keys (`a{sv}`, `a{sa{sv}}`, ...) as a Swift dictionary.
    public var stringKeyed: [String: DBusValue]? {
        guard let entries else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.string else { continue }
            result[key] = entry.value
        }
        return result
    }
}

/// One entry of a D-Bus dictionary.
public struct DBusDictionaryEntry: Sendable, Hashable {
    /// The key (a basic type).
    public var key: DBusValue
    /// The value.
    public var value: DBusValue

    /// Creates an entry.
    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}
