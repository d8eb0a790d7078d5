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

/// Appends little- and big-endian integers to an NI protocol structure being built.
struct NIByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func uint8(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func littleEndian<T: FixedWidthInteger & UnsignedInteger>(_ value: T) {
        for index in 0..<(T.bitWidth / 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index)))
        }
    }

    mutating func bigEndian<T: FixedWidthInteger & UnsignedInteger>(_ value: T) {
        bigEndian(value, byteCount: T.bitWidth / 8)
    }

    mutating func bigEndian<T: FixedWidthInteger & UnsignedInteger>(_ value: T, byteCount: Int) {
        for index in stride(from: byteCount - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index)))
        }
    }

    mutating func append(_ other: [UInt8]) {
        bytes.append(contentsOf: other)
    }
}

/// `0x2F`-style hexadecimal text for messages (no Foundation).
func niHex<T: FixedWidthInteger & UnsignedInteger>(_ value: T, digits: Int = 2) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
}

/// Space-separated lowercase hex bytes, as the reference writes them (`01 00 01 00`).
func niHexBytes(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let text = String(byte, radix: 16)
        return text.count == 1 ? "0" + text : text
    }.joined(separator: " ")
}
