/// A Bluetooth UUID: a 16-bit or 32-bit alias of the Bluetooth base UUID, or a full 128-bit UUID.
///
/// Stored as 128 bits, so `BluetoothUUID(0x180D)` equals
/// `BluetoothUUID("0000180D-0000-1000-8000-00805F9B34FB")`. The canonical string form
/// (``description``) is the shortest one: `"180D"`, `"12345678"` for a 32-bit alias, or the
/// upper-case 36-character form `"6E400001-B5A3-F393-E0A9-E50E24DCCA9E"`.
public struct BluetoothUUID: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The most significant 64 bits.
    public let high: UInt64
    /// The least significant 64 bits.
    public let low: UInt64

    static let baseHigh: UInt64 = 0x0000_0000_0000_1000
    static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB

    /// Creates a UUID from its two 64-bit halves (most significant first).
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A 16-bit alias of the Bluetooth base UUID (`0x180D` -> `0000180D-0000-1000-8000-00805F9B34FB`).
    public init(_ alias: UInt16) {
        self.init(alias32: UInt32(alias))
    }

    /// A 32-bit alias of the Bluetooth base UUID.
    public init(alias32: UInt32) {
        self.high = UInt64(alias32) << 32 | Self.baseHigh
        self.low = Self.baseLow
    }

    /// Creates a UUID from 16 bytes, most significant first (the order of the string form).
    /// - Returns: `nil` unless `bytes` holds exactly 16 bytes.
    public init?(bigEndian bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(bytes[index])
            low = low << 8 | UInt64(bytes[8 + index])
        }
        self.init(high: high, low: low)
    }

    /// Creates a UUID from its little-endian wire form: 2 bytes (16-bit alias), 4 bytes
    /// (32-bit alias) or 16 bytes.
    /// - Returns: `nil` for any other length.
    public init?(littleEndian bytes: some Collection<UInt8>) {
        switch bytes.count {
        case 2, 4:
            var value: UInt32 = 0
            var shift: UInt32 = 0
            for byte in bytes {
                value |= UInt32(byte) << shift
                shift += 8
            }
            self.init(alias32: value)
        case 16:
            var high: UInt64 = 0
            var low: UInt64 = 0
            for (index, byte) in bytes.enumerated() {
                if index < 8 {
                    low |= UInt64(byte) << (8 * UInt64(index))
                } else {
                    high |= UInt64(byte) << (8 * UInt64(index - 8))
                }
            }
            self.init(high: high, low: low)
        default:
            return nil
        }
    }

    /// Parses `"180D"`, `"0x180D"`, `"0000180D"`, `"6E400001-B5A3-F393-E0A9-E50E24DCCA9E"` or the
    /// same 32 hex digits without dashes (case-insensitive).
    /// - Returns: `nil` if `text` is none of these.
    public init?(_ text: String) {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        switch digits.count {
        case 4:
            guard digits.allSatisfy(\.isHexDigit), let value = UInt16(digits, radix: 16) else { return nil }
            self.init(value)
        case 8:
            guard digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
            self.init(alias32: value)
        case 36:
            let groups = digits.split(separator: "-", omittingEmptySubsequences: false)
            guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
            self.init(hex32: groups.joined())
        case 32:
            self.init(hex32: String(digits))
        default:
            return nil
        }
    }

    private init?(hex32 text: String) {
        guard text.count == 32, text.allSatisfy(\.isHexDigit),
              let high = UInt64(text.prefix(16), radix: 16),
              let low = UInt64(text.suffix(16), radix: 16) else { return nil }
        self.init(high: high, low: low)
    }

    /// `true` if this UUID is an alias of the Bluetooth base UUID (16- or 32-bit form exists).
    public var isBaseAlias: Bool { low == Self.baseLow && high & 0xFFFF_FFFF == Self.baseHigh }

    /// The 16-bit alias, if this is one.
    public var alias16: UInt16? {
        guard isBaseAlias, high >> 32 <= 0xFFFF else { return nil }
        return UInt16(high >> 32)
    }

    /// The 32-bit alias, if this is a base alias (16-bit aliases are also 32-bit ones).
    public var alias32: UInt32? {
        guard isBaseAlias else { return nil }
        return UInt32(high >> 32)
    }

    /// The 16 bytes, most significant first.
    public var bigEndianBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((high >> UInt64(shift)) & 0xFF)) }
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((low >> UInt64(shift)) & 0xFF)) }
        return bytes
    }

    /// The compact wire form ATT uses: 2 bytes for a 16-bit alias, otherwise all 16 bytes
    /// (ATT has no 32-bit form), little-endian.
    public var attBytes: [UInt8] {
        if let alias16 { return [UInt8(alias16 & 0xFF), UInt8(alias16 >> 8)] }
        return bigEndianBytes.reversed()
    }

    /// The little-endian wire form of the given size: 2, 4 or 16 bytes.
    /// - Returns: `nil` if this UUID has no alias of that size (or `size` is not 2, 4 or 16).
    public func littleEndianBytes(size: Int) -> [UInt8]? {
        switch size {
        case 2:
            guard let alias16 else { return nil }
            return [UInt8(alias16 & 0xFF), UInt8(alias16 >> 8)]
        case 4:
            guard let alias32 else { return nil }
            return (0..<4).map { UInt8((alias32 >> UInt32(8 * $0)) & 0xFF) }
        case 16:
            return bigEndianBytes.reversed()
        default:
            return nil
        }
    }

    /// The upper-case 36-character form, even for aliases.
    public var uuidString: String {
        let digits = bigEndianBytes.map { hex($0) }.joined()
        let characters = Array(digits)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// The canonical (shortest) form: `"180D"`, `"12345678"` or the 36-character form.
    public var description: String {
        if let alias16 { return hex(alias16) }
        if let alias32 { return hex(UInt16(alias32 >> 16)) + hex(UInt16(alias32 & 0xFFFF)) }
        return uuidString
    }

    /// Orders UUIDs by their 128-bit value.
    public static func < (lhs: BluetoothUUID, rhs: BluetoothUUID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    /// Encodes the canonical string form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes any string form `init(_ text: String)` accepts.
    /// - Throws: `DecodingError.dataCorrupted` naming the bad text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let uuid = BluetoothUUID(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\"\(text)\" is not a Bluetooth UUID (expected 180D, 0000180D or 8-4-4-4-12 hex digits)")
        }
        self = uuid
    }
}

extension BluetoothUUID {
    /// 0x2800: primary service declaration.
    public static let primaryService = BluetoothUUID(0x2800)
    /// 0x2801: secondary service declaration.
    public static let secondaryService = BluetoothUUID(0x2801)
    /// 0x2803: characteristic declaration.
    public static let characteristicDeclaration = BluetoothUUID(0x2803)
    /// 0x2901: Characteristic User Description descriptor.
    public static let characteristicUserDescription = BluetoothUUID(0x2901)
    /// 0x2902: Client Characteristic Configuration descriptor (CCCD).
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
    /// 0x1800: Generic Access service.
    public static let genericAccess = BluetoothUUID(0x1800)
    /// 0x1801: Generic Attribute service.
    public static let genericAttribute = BluetoothUUID(0x1801)
}
