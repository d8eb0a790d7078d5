import NearbyBase

// Little-endian reading and writing for UCI (multi-byte fields are little-endian): typed-error
// adapters over NearbyBase's byte reader, and in-place loads for the decode hot path.

/// Reads little-endian fields from a payload, front to back, with errors that name the message
/// and the field: NearbyBase's ``NearbyBase/ByteReader`` with ``UCIError`` instead of `nil`.
struct UCIFieldReader {
    private var reader: NearbyBase.ByteReader
    /// The message being decoded, for errors.
    let context: String

    init(_ bytes: ArraySlice<UInt8>, context: String) {
        self.reader = NearbyBase.ByteReader(bytes)
        self.context = context
    }

    init(_ bytes: [UInt8], context: String) {
        self.init(bytes[...], context: context)
    }

    /// Bytes not read yet.
    var remaining: Int { reader.remaining }
    /// Bytes read so far.
    var offset: Int { reader.offset }
    var isAtEnd: Bool { reader.isAtEnd }

    private func truncated(_ count: Int, _ field: String) -> UCIError {
        UCIError(
            .truncated, context: context, field: field,
            detail: "needs \(count) byte\(count == 1 ? "" : "s") at offset \(offset), but only \(remaining) "
                + "\(remaining == 1 ? "is" : "are") left (the payload has \(reader.count) bytes)")
    }

    mutating func u8(_ field: String) throws(UCIError) -> UInt8 {
        guard let value = reader.u8() else { throw truncated(1, field) }
        return value
    }

    mutating func u16(_ field: String) throws(UCIError) -> UInt16 {
        guard let value = reader.u16() else { throw truncated(2, field) }
        return value
    }

    mutating func u32(_ field: String) throws(UCIError) -> UInt32 {
        guard let value = reader.u32() else { throw truncated(4, field) }
        return value
    }

    mutating func u64(_ field: String) throws(UCIError) -> UInt64 {
        guard let value = reader.u64() else { throw truncated(8, field) }
        return value
    }

    mutating func bytes(_ count: Int, _ field: String) throws(UCIError) -> [UInt8] {
        guard let value = reader.bytes(count) else { throw truncated(count, field) }
        return value
    }

    mutating func slice(_ count: Int, _ field: String) throws(UCIError) -> ArraySlice<UInt8> {
        guard let value = reader.slice(count) else { throw truncated(count, field) }
        return value
    }

    mutating func skip(_ count: Int, _ field: String) throws(UCIError) {
        guard reader.skip(count) else { throw truncated(count, field) }
    }

    /// The bytes not read yet (possibly none).
    mutating func rest() -> [UInt8] { reader.rest() }

    /// Throws if bytes are left over after the last field.
    func expectEnd() throws(UCIError) {
        guard isAtEnd else {
            throw UCIError(
                .trailingBytes, context: context,
                detail: "\(remaining) unexpected byte\(remaining == 1 ? "" : "s") after the last field "
                    + "(expected \(offset) bytes, got \(reader.count))")
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

    mutating func u16(_ value: UInt16) { bytes.appendLittleEndian(value) }

    mutating func u32(_ value: UInt32) { bytes.appendLittleEndian(value) }

    mutating func u64(_ value: UInt64) { bytes.appendLittleEndian(value) }

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
    var bytes: [UInt8] = []
    bytes.appendLittleEndian(value, byteCount: width)
    return bytes
}

/// The unsigned little-endian integer in `bytes` (at most 8 bytes).
func littleEndianValue(_ bytes: some Collection<UInt8>) -> UInt64 {
    var value: UInt64 = 0
    for (i, byte) in bytes.enumerated() { value |= UInt64(byte) << UInt64(8 * i) }
    return value
}
