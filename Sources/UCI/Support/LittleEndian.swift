// Little-endian reading and writing: the only place in the module that turns integers into bytes
// and back. UCI multi-byte fields are little-endian.

/// Reads little-endian fields from a payload, front to back, with errors that name the message
/// and the field.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private(set) var index: Int
    /// The message being decoded, for errors.
    let context: String

    init(_ bytes: ArraySlice<UInt8>, context: String) {
        self.bytes = bytes
        self.index = bytes.startIndex
        self.context = context
    }

    init(_ bytes: [UInt8], context: String) {
        self.init(bytes[...], context: context)
    }

    /// Bytes not read yet.
    var remaining: Int { bytes.endIndex - index }
    /// Bytes read so far.
    var offset: Int { index - bytes.startIndex }
    var isAtEnd: Bool { index == bytes.endIndex }

    private func need(_ count: Int, _ field: String) throws(UCIError) {
        guard remaining >= count else {
            throw UCIError(
                .truncated, context: context, field: field,
                detail: "needs \(count) byte\(count == 1 ? "" : "s") at offset \(offset), but only \(remaining) "
                    + "\(remaining == 1 ? "is" : "are") left (the payload has \(bytes.count) bytes)")
        }
    }

    mutating func u8(_ field: String) throws(UCIError) -> UInt8 {
        try need(1, field)
        defer { index += 1 }
        return bytes[index]
    }

    mutating func u16(_ field: String) throws(UCIError) -> UInt16 {
        try need(2, field)
        defer { index += 2 }
        return loadLE16(bytes, index)
    }

    mutating func u32(_ field: String) throws(UCIError) -> UInt32 {
        try need(4, field)
        defer { index += 4 }
        return loadLE32(bytes, index)
    }

    mutating func u64(_ field: String) throws(UCIError) -> UInt64 {
        try need(8, field)
        defer { index += 8 }
        return loadLE64(bytes, index)
    }

    mutating func bytes(_ count: Int, _ field: String) throws(UCIError) -> [UInt8] {
        try need(count, field)
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }

    mutating func slice(_ count: Int, _ field: String) throws(UCIError) -> ArraySlice<UInt8> {
        try need(count, field)
        defer { index += count }
        return bytes[index..<(index + count)]
    }

    mutating func skip(_ count: Int, _ field: String) throws(UCIError) {
        try need(count, field)
        index += count
    }

    /// The bytes not read yet (possibly none).
    mutating func rest() -> [UInt8] {
        defer { index = bytes.endIndex }
        return Array(bytes[index...])
    }

    /// Throws if bytes are left over after the last field.
    func expectEnd() throws(UCIError) {
        guard isAtEnd else {
            throw UCIError(
                .trailingBytes, context: context,
                detail: "\(remaining) unexpected byte\(remaining == 1 ? "" : "s") after the last field "
                    + "(expected \(offset) bytes, got \(bytes.count))")
        }
    }
}

@inline(__always)
func loadLE16(_ bytes: ArraySlice<UInt8>, _ index: Int) -> UInt16 {
    UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
}

@inline(__always)
func loadLE32(_ bytes: ArraySlice<UInt8>, _ index: Int) -> UInt32 {
    UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
        | UInt32(bytes[index + 3]) << 24
}

@inline(__always)
func loadLE64(_ bytes: ArraySlice<UInt8>, _ index: Int) -> UInt64 {
    UInt64(loadLE32(bytes, index)) | UInt64(loadLE32(bytes, index + 4)) << 32
}

/// Appends little-endian fields to a payload.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []
    /// The message being encoded, for errors.
    let context: String

    init(context: String, capacity: Int = 16) {
        self.context = context
        bytes.reserveCapacity(capacity)
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func u64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func append(_ other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }

    /// Writes a one-byte count, or throws if `count` does not fit in one byte.
    mutating func count(_ count: Int, _ field: String) throws(UCIError) {
        guard (0...255).contains(count) else {
            throw UCIError(
                .invalidLength, context: context, field: field,
                detail: "\(count) items do not fit the one-byte count (at most 255)")
        }
        bytes.append(UInt8(count))
    }

    /// Writes a TLV (`type`, one-byte length, value), or throws if the value is longer than 255 bytes.
    mutating func tlv(_ type: UInt8, _ value: [UInt8], _ field: String) throws(UCIError) {
        guard value.count <= 255 else {
            throw UCIError(
                .invalidLength, context: context, field: field,
                detail: "a \(value.count)-byte value does not fit the one-byte TLV length (at most 255)")
        }
        bytes.append(type)
        bytes.append(UInt8(value.count))
        bytes.append(contentsOf: value)
    }
}

/// Little-endian bytes of an integer, `width` bytes long.
func littleEndianBytes(_ value: UInt64, width: Int) -> [UInt8] {
    (0..<width).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
}

/// The unsigned little-endian integer in `bytes` (at most 8 bytes).
func littleEndianValue(_ bytes: some Collection<UInt8>) -> UInt64 {
    var value: UInt64 = 0
    for (i, byte) in bytes.enumerated() { value |= UInt64(byte) << UInt64(8 * i) }
    return value
}
