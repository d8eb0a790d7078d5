/// Reads little- and big-endian integers from the bytes of one NI protocol structure.
///
/// Every read checks the remaining length and throws ``NIProtocolError`` (truncated) instead of
/// trapping, so a parser that forgot an up-front length check still never crashes on bad input.
struct NIByteReader {
    private let bytes: [UInt8]
    private let structure: String
    /// Offset of the next byte to read.
    private(set) var offset = 0

    init(_ bytes: [UInt8], structure: String) {
        self.bytes = bytes
        self.structure = structure
    }

    /// Bytes not read yet.
    var remaining: Int { bytes.count - offset }

    private mutating func take(_ count: Int, field: String) throws(NIProtocolError) -> ArraySlice<UInt8> {
        guard remaining >= count else {
            throw NIProtocolError(
                structure: structure, field: field,
                reason: .truncated(needed: offset + count, got: bytes.count, isExact: false))
        }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func uint8(_ field: String) throws(NIProtocolError) -> UInt8 {
        try take(1, field: field).first ?? 0
    }

    mutating func littleEndian<T: FixedWidthInteger & UnsignedInteger>(
        _ type: T.Type, _ field: String
    ) throws(NIProtocolError) -> T {
        let slice = try take(T.bitWidth / 8, field: field)
        var value: T = 0
        for (index, byte) in slice.enumerated() {
            value |= T(byte) << (8 * index)
        }
        return value
    }

    mutating func bigEndian<T: FixedWidthInteger & UnsignedInteger>(
        _ type: T.Type, _ field: String
    ) throws(NIProtocolError) -> T {
        try bigEndian(byteCount: T.bitWidth / 8, field)
    }

    /// A big-endian unsigned integer of `byteCount` bytes (for 24-bit fields).
    mutating func bigEndian<T: FixedWidthInteger & UnsignedInteger>(
        byteCount: Int, _ field: String
    ) throws(NIProtocolError) -> T {
        var value: T = 0
        for byte in try take(byteCount, field: field) {
            value = value << 8 | T(byte)
        }
        return value
    }

    mutating func bytes(_ count: Int, _ field: String) throws(NIProtocolError) -> [UInt8] {
        Array(try take(count, field: field))
    }
}
