import NearbyBase

/// Reads little- and big-endian integers from the bytes of one NI protocol structure:
/// NearbyBase's `ByteReader` with ``NIProtocolError`` (truncated) instead of `nil`,
/// so a parser that forgot an up-front length check still never crashes on bad input.
struct NIByteReader {
    private var reader: NearbyBase.ByteReader
    private let structure: String

    init(_ bytes: [UInt8], structure: String) {
        self.reader = NearbyBase.ByteReader(bytes)
        self.structure = structure
    }

    /// Offset of the next byte to read.
    var offset: Int { reader.offset }
    /// Bytes not read yet.
    var remaining: Int { reader.remaining }

    private func truncated(_ count: Int, _ field: String) -> NIProtocolError {
        NIProtocolError(
            structure: structure, field: field,
            reason: .truncated(needed: offset + count, got: reader.count, isExact: false))
    }

    mutating func uint8(_ field: String) throws(NIProtocolError) -> UInt8 {
        guard let value = reader.u8() else { throw truncated(1, field) }
        return value
    }

    mutating func littleEndian<T: FixedWidthInteger & UnsignedInteger>(
        _ type: T.Type, _ field: String
    ) throws(NIProtocolError) -> T {
        guard let value = reader.littleEndian(T.self) else { throw truncated(T.bitWidth / 8, field) }
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
        guard let value = reader.bigEndian(T.self, byteCount: byteCount) else { throw truncated(byteCount, field) }
        return value
    }

    mutating func bytes(_ count: Int, _ field: String) throws(NIProtocolError) -> [UInt8] {
        guard let value = reader.bytes(count) else { throw truncated(count, field) }
        return value
    }
}
