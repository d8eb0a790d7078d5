// Little-endian byte helpers shared by the codecs (HCI, L2CAP, ATT, advertising data).

/// Two upper-case hex digits.
@inline(__always)
func hex(_ byte: UInt8) -> String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}

/// Four upper-case hex digits.
func hex(_ value: UInt16) -> String {
    hex(UInt8(value >> 8)) + hex(UInt8(value & 0xFF))
}

/// Lower-case hex with spaces, for log and error messages: `"01 03 0c 00"`.
func hexDump(_ bytes: some Sequence<UInt8>, limit: Int = 64) -> String {
    var parts: [String] = []
    var count = 0
    for byte in bytes {
        if count == limit {
            parts.append("…")
            break
        }
        parts.append(hex(byte).lowercased())
        count += 1
    }
    return parts.joined(separator: " ")
}

/// Reads little-endian fields from a byte buffer without ever trapping: every read checks
/// the remaining length and returns `nil` when the buffer is too short.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = Array(bytes)
        self.offset = 0
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset >= bytes.count }

    mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func i8() -> Int8? {
        u8().map { Int8(bitPattern: $0) }
    }

    mutating func u16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func u24() -> UInt32? {
        guard remaining >= 3 else { return nil }
        defer { offset += 3 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
    }

    mutating func u32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        defer { offset += 4 }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * index) }
        return value
    }

    mutating func u64() -> UInt64? {
        guard remaining >= 8 else { return nil }
        defer { offset += 8 }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * index) }
        return value
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func address() -> BluetoothAddress? {
        guard remaining >= 6 else { return nil }
        defer { offset += 6 }
        var value: UInt64 = 0
        for index in 0..<6 { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return BluetoothAddress(value: value)
    }

    /// Skips `count` bytes. Returns `false` (and skips nothing) if fewer remain.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, remaining >= count else { return false }
        offset += count
        return true
    }

    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return offset < bytes.count ? Array(bytes[offset...]) : []
    }
}

extension Array where Element == UInt8 {
    mutating func appendLE(_ value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }

    mutating func appendLE(_ value: UInt32) {
        for index in 0..<4 { append(UInt8((value >> (8 * UInt32(index))) & 0xFF)) }
    }

    mutating func appendLE(_ value: UInt64) {
        for index in 0..<8 { append(UInt8((value >> (8 * UInt64(index))) & 0xFF)) }
    }
}
