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
