import NearbyBase

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
        bytes.appendLittleEndian(value)
    }

    mutating func bigEndian<T: FixedWidthInteger & UnsignedInteger>(_ value: T) {
        bytes.appendBigEndian(value)
    }

    mutating func bigEndian<T: FixedWidthInteger & UnsignedInteger>(_ value: T, byteCount: Int) {
        bytes.appendBigEndian(value, byteCount: byteCount)
    }

    mutating func append(_ other: [UInt8]) {
        bytes.append(contentsOf: other)
    }
}
