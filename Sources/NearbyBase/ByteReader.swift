/// Reads integers and byte runs from the front of a byte buffer without ever trapping: every
/// read checks the remaining length and returns `nil` (reading nothing) when too few bytes are
/// left. The codecs wrap it to turn `nil` into their own typed error naming the field
/// (`UCIError`, `NIProtocolError`, ...); it is the one place that assembles integers from bytes.
///
/// It reads an `ArraySlice` in place (no copy); indices are offsets from the slice's start.
public struct ByteReader: Sendable {
    /// The bytes being read.
    public let bytes: ArraySlice<UInt8>
    @usableFromInline var index: Int

    /// A reader at the start of `bytes`.
    @inlinable
    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    /// A reader of `bytes` from `offset`.
    @inlinable
    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes[...]
        self.index = min(max(0, offset), bytes.count)
    }

    /// Bytes read (or skipped) so far.
    @inlinable public var offset: Int { index - bytes.startIndex }
    /// Bytes not read yet.
    @inlinable public var remaining: Int { bytes.endIndex - index }
    /// `true` when every byte was read.
    @inlinable public var isAtEnd: Bool { index >= bytes.endIndex }
    /// The total length of the buffer.
    @inlinable public var count: Int { bytes.count }

    /// One byte.
    @inlinable
    public mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    /// One byte as a two's-complement signed value.
    @inlinable
    public mutating func i8() -> Int8? { u8().map { Int8(bitPattern: $0) } }

    /// A little-endian unsigned integer of `byteCount` bytes (default: the width of `T`).
    @inlinable
    public mutating func littleEndian<T: FixedWidthInteger & UnsignedInteger>(
        _ type: T.Type = T.self, byteCount: Int? = nil
    ) -> T? {
        let width = byteCount ?? T.bitWidth / 8
        guard width >= 0, width <= T.bitWidth / 8, remaining >= width else { return nil }
        var value: T = 0
        for i in 0..<width { value |= T(bytes[index + i]) << (8 * i) }
        index += width
        return value
    }

    /// A big-endian unsigned integer of `byteCount` bytes (default: the width of `T`).
    @inlinable
    public mutating func bigEndian<T: FixedWidthInteger & UnsignedInteger>(
        _ type: T.Type = T.self, byteCount: Int? = nil
    ) -> T? {
        let width = byteCount ?? T.bitWidth / 8
        guard width >= 0, width <= T.bitWidth / 8, remaining >= width else { return nil }
        var value: T = 0
        for i in 0..<width { value = value << 8 | T(bytes[index + i]) }
        index += width
        return value
    }

    /// Little-endian `UInt16`.
    @inlinable public mutating func u16() -> UInt16? { littleEndian(UInt16.self) }
    /// Little-endian 24-bit value.
    @inlinable public mutating func u24() -> UInt32? { littleEndian(UInt32.self, byteCount: 3) }
    /// Little-endian `UInt32`.
    @inlinable public mutating func u32() -> UInt32? { littleEndian(UInt32.self) }
    /// Little-endian `UInt64`.
    @inlinable public mutating func u64() -> UInt64? { littleEndian(UInt64.self) }

    /// The next `count` bytes, in place.
    @inlinable
    public mutating func slice(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, remaining >= count else { return nil }
        defer { index += count }
        return bytes[index..<(index + count)]
    }

    /// The next `count` bytes, copied.
    @inlinable
    public mutating func bytes(_ count: Int) -> [UInt8]? { slice(count).map(Array.init) }

    /// Skips `count` bytes. Returns `false` (and skips nothing) if fewer remain.
    @inlinable
    @discardableResult
    public mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, remaining >= count else { return false }
        index += count
        return true
    }

    /// The bytes not read yet (possibly none), copied; the reader is then at the end.
    @inlinable
    public mutating func rest() -> [UInt8] {
        defer { index = bytes.endIndex }
        return index < bytes.endIndex ? Array(bytes[index...]) : []
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` little-endian, `byteCount` bytes (default: its width).
    @inlinable
    public mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T, byteCount: Int? = nil) {
        for i in 0..<(byteCount ?? T.bitWidth / 8) { append(UInt8(truncatingIfNeeded: value >> (8 * i))) }
    }

    /// Appends `value` big-endian, `byteCount` bytes (default: its width).
    @inlinable
    public mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T, byteCount: Int? = nil) {
        for i in stride(from: (byteCount ?? T.bitWidth / 8) - 1, through: 0, by: -1) {
            append(UInt8(truncatingIfNeeded: value >> (8 * i)))
        }
    }
}
