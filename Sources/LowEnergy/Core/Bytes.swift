import NearbyBase

// Byte helpers shared by the codecs (HCI, L2CAP, ATT, SMP, advertising data): short spellings of
// NearbyBase's hex text, and the address read of its ByteReader.

/// Two upper-case hex digits.
@inline(__always)
func hex(_ byte: UInt8) -> String { Hex.byte(byte) }

/// Four upper-case hex digits.
func hex(_ value: UInt16) -> String { Hex.digits(value, count: 4) }

/// Lower-case hex with spaces, for log and error messages: `"01 03 0c 00"`.
func hexDump(_ bytes: some Sequence<UInt8>, limit: Int = 64) -> String { Hex.bytes(bytes, limit: limit) }

extension ByteReader {
    /// A 6-byte little-endian Bluetooth device address.
    mutating func address() -> BluetoothAddress? {
        littleEndian(UInt64.self, byteCount: 6).flatMap { BluetoothAddress(value: $0) }
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` little-endian (the byte order of every HCI, L2CAP, ATT and SMP field).
    @inline(__always) mutating func appendLE(_ value: some FixedWidthInteger) { appendLittleEndian(value) }
}
