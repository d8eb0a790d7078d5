import NearbyBase

/// Reads the TLV lists of UCI payloads in place, front to back, with errors that name the
/// message, the entry and the part that is missing (type, length or value).
///
/// A list is a one-byte count, then that many TLVs `{type u8, length u8, value[length]}`:
///
/// ```swift
/// // CORE_SET_CONFIG_CMD: count, TLVs, nothing after.
/// var reader = UCITLVReader(payload, context: "CORE_SET_CONFIG_CMD")
/// for tlv in try reader.countedList() { print(tlv.type, tlv.value) }
/// ```
///
/// The codec decodes its own lists with the same reader (app and device configuration,
/// capabilities); the virtual UWBS and tools use it to judge each entry of a list by itself.
/// Nothing is copied: values are slices of the payload.
public struct UCITLVReader: Sendable {
    private var reader: UCIFieldReader

    /// A reader at the start of `bytes`.
    /// - Parameters:
    ///   - bytes: the TLV list.
    ///   - context: the message the bytes belong to, for errors
    ///     (`"SESSION_SET_APP_CONFIG_CMD"`).
    public init(_ bytes: ArraySlice<UInt8>, context: String) {
        reader = UCIFieldReader(bytes, context: context)
    }

    /// A reader at the start of `bytes`; see ``init(_:context:)-(ArraySlice<UInt8>,_)``.
    public init(_ bytes: [UInt8], context: String) {
        self.init(bytes[...], context: context)
    }

    init(_ reader: UCIFieldReader) {
        self.reader = reader
    }

    /// Bytes not read yet.
    public var remaining: Int { reader.remaining }
    /// `true` when every byte was read.
    public var isAtEnd: Bool { reader.isAtEnd }

    /// Reads the one-byte count that starts a list.
    /// - Throws: ``UCIError/Code/truncated`` if no byte is left.
    public mutating func count(_ field: String = "number of parameters") throws(UCIError) -> Int {
        Int(try reader.u8(field))
    }

    /// Reads one TLV, entry `index` (0-based) of `count`.
    /// - Parameters:
    ///   - index: the entry's position (0-based), for errors.
    ///   - count: how many entries the list has, for errors.
    ///   - entry: what an entry is called in errors (`"parameter"`, `"capability"`).
    ///   - typeField: what the type byte is called in errors (`"type"`, `"identifier"`).
    ///   - name: the entry's name once its type is known, for errors about its length and value
    ///     (`"RANGING_DURATION (0x09)"`); by default `"<entry> 0x09"`.
    /// - Throws: ``UCIError/Code/truncated`` naming the part that is missing.
    public mutating func next(
        _ index: Int, of count: Int, entry: String = "parameter", typeField: String = "type",
        name: ((UInt8) -> String)? = nil
    ) throws(UCIError) -> UCITLV {
        try reader.tlv(index, of: count, entry: entry, typeField: typeField, name: name)
    }

    /// Reads a whole list (the count, then that many TLVs) and checks that nothing follows it.
    /// - Throws: ``UCIError/Code/truncated`` if the list is cut short,
    ///   ``UCIError/Code/trailingBytes`` if bytes follow its last entry.
    public mutating func countedList(entry: String = "parameter", typeField: String = "type") throws(UCIError) -> [UCITLV] {
        let count = try self.count("number of \(entry)s")
        var list: [UCITLV] = []
        list.reserveCapacity(count)
        for index in 0..<count {
            list.append(try next(index, of: count, entry: entry, typeField: typeField))
        }
        try reader.expectEnd()
        return list
    }

    /// Throws if bytes are left over after the last TLV read.
    /// - Throws: ``UCIError/Code/trailingBytes``.
    public func expectEnd() throws(UCIError) {
        try reader.expectEnd()
    }
}

extension UCIFieldReader {
    /// Reads one TLV; the one place UCI TLVs are cut from bytes (``UCITLVReader`` and the
    /// codec's lists use it). Errors name `"<entry> <n> of <count>: <typeField>"` for a missing
    /// type, and `"<name>: length"` / `"<name>: value"` once the type is known.
    mutating func tlv(
        _ index: Int, of count: Int, entry: String, typeField: String, name: ((UInt8) -> String)? = nil
    ) throws(UCIError) -> UCITLV {
        let type = try u8("\(entry) \(index + 1) of \(count): \(typeField)")
        let label = name?(type) ?? "\(entry) \(Hex.prefixed(type))"
        let length = Int(try u8("\(label): length"))
        return UCITLV(type: type, value: try slice(length, "\(label): value"))
    }
}
