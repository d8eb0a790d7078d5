/// A 48-bit Bluetooth device address (BD_ADDR).
///
/// Written most significant byte first, as people and tools write it: `"F0:F1:F2:F3:F4:F5"`.
/// On the wire (HCI, advertising PDUs) it travels little-endian: ``littleEndianBytes`` starts
/// with `0xF5`. Whether it is public or random is carried separately by
/// ``BluetoothAddressType``, as on the wire.
public struct BluetoothAddress: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The 48-bit address as an integer (`0xF0F1F2F3F4F5` for `"F0:F1:F2:F3:F4:F5"`).
    public let value: UInt64

    /// Creates an address from its 48-bit value.
    /// - Returns: `nil` if `value` has bits above the 48th.
    public init?(value: UInt64) {
        guard value >> 48 == 0 else { return nil }
        self.value = value
    }

    /// Creates an address from six bytes, most significant first.
    /// - Returns: `nil` if `bytes` does not hold exactly six bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.value = bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Creates an address from the six little-endian bytes found on the wire.
    /// - Returns: `nil` if `littleEndian` does not hold exactly six bytes.
    public init?(littleEndian: some Collection<UInt8>) {
        guard littleEndian.count == 6 else { return nil }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in littleEndian {
            value |= UInt64(byte) << shift
            shift += 8
        }
        self.value = value
    }

    /// Parses `"F0:F1:F2:F3:F4:F5"` (also with `-` separators, or 12 hex digits with none;
    /// case-insensitive).
    /// - Returns: `nil` if `text` is not such an address.
    public init?(_ text: String) {
        let separators: Set<Character> = [":", "-"]
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { separators.contains($0) })
        let groups: [Substring]
        if parts.count == 6 {
            groups = parts
        } else if parts.count == 1, text.count == 12 {
            var chunks: [Substring] = []
            var index = text.startIndex
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2)
                chunks.append(text[index..<next])
                index = next
            }
            groups = chunks
        } else {
            return nil
        }
        var value: UInt64 = 0
        for group in groups {
            guard group.count == 2, group.allSatisfy(\.isHexDigit), let byte = UInt8(group, radix: 16) else { return nil }
            value = value << 8 | UInt64(byte)
        }
        self.value = value
    }

    /// The six bytes, most significant first (`bytes[0]` is `0xF0` for `"F0:F1:F2:F3:F4:F5"`).
    public var bytes: [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: value >> (8 * (5 - UInt64($0)))) }
    }

    /// The six bytes in wire order (least significant first).
    public var littleEndianBytes: [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// `"F0:F1:F2:F3:F4:F5"`: upper-case hex, most significant byte first.
    public var description: String {
        bytes.map { hex($0) }.joined(separator: ":")
    }

    /// The kind of a *random* address, from its two most significant bits (Core Vol 6 Part B
    /// 1.3.2). Meaningless for a public address.
    public var randomAddressKind: RandomAddressKind {
        switch value >> 46 {
        case 0b11: return .staticAddress
        case 0b01: return .resolvablePrivate
        case 0b00: return .nonResolvablePrivate
        default: return .reserved
        }
    }

    /// What a random address is, from its two most significant bits.
    public enum RandomAddressKind: Sendable, Hashable {
        /// `11`: a static random address (stays the same until power cycle or forever).
        case staticAddress
        /// `01`: a resolvable private address (changes; resolvable with the peer's IRK).
        case resolvablePrivate
        /// `00`: a non-resolvable private address.
        case nonResolvablePrivate
        /// `10`: reserved for future use.
        case reserved
    }

    /// A fresh random static address: two most significant bits `11`, the other 46 bits random
    /// and neither all zeros nor all ones (Core Vol 6 Part B 1.3.2.1).
    public static func randomStatic<G: RandomNumberGenerator>(using generator: inout G) -> BluetoothAddress {
        while true {
            var bytes = (0..<6).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes[0] |= 0b1100_0000
            let rest = [bytes[0] & 0b0011_1111] + bytes[1...]
            if rest.allSatisfy({ $0 == 0 }) { continue }
            if bytes[0] & 0b0011_1111 == 0b0011_1111 && bytes[1...].allSatisfy({ $0 == 0xFF }) { continue }
            return BluetoothAddress(bytes: bytes)!
        }
    }

    /// A fresh random static address from the system random number generator.
    public static func randomStatic() -> BluetoothAddress {
        var generator = SystemRandomNumberGenerator()
        return randomStatic(using: &generator)
    }

    /// `00:00:00:00:00:00`.
    public static let zero = BluetoothAddress(value: 0)!

    /// Orders addresses by their bytes, most significant first.
    public static func < (lhs: BluetoothAddress, rhs: BluetoothAddress) -> Bool {
        lhs.value < rhs.value
    }

    /// Encodes as the string form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes the string form.
    /// - Throws: `DecodingError.dataCorrupted` naming the bad text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let address = BluetoothAddress(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a Bluetooth address (expected AA:BB:CC:DD:EE:FF)")
        }
        self = address
    }
}

/// Whether an LE address is public or random, as HCI encodes it (Core Vol 4 Part E 7.7.65.2).
///
/// Values other than the named ones are kept (``rawValue``), never rejected.
public struct BluetoothAddressType: RawRepresentable, Sendable, Hashable, CustomStringConvertible, Codable {
    /// The HCI code.
    public let rawValue: UInt8

    /// Creates a type from its HCI code.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0: a public device address (IEEE-assigned).
    public static let `public` = BluetoothAddressType(rawValue: 0)
    /// 1: a random device address (static or private).
    public static let random = BluetoothAddressType(rawValue: 1)
    /// 2: a public identity address, resolved by the controller from a resolvable private address.
    public static let publicIdentity = BluetoothAddressType(rawValue: 2)
    /// 3: a random static identity address, resolved by the controller.
    public static let randomIdentity = BluetoothAddressType(rawValue: 3)
    /// 0xFF: anonymous advertisement (no address).
    public static let anonymous = BluetoothAddressType(rawValue: 0xFF)

    /// `true` for the random kinds (random, random identity).
    public var isRandom: Bool { rawValue == 1 || rawValue == 3 }

    /// The type to use when connecting to this address: identity types map to their base type.
    public var connectable: BluetoothAddressType {
        switch rawValue {
        case 2: return .public
        case 3: return .random
        default: return self
        }
    }

    /// `"public"`, `"random"`, `"public identity"`, `"random identity"`, `"anonymous"` or
    /// `"type 0xNN"`.
    public var description: String {
        switch rawValue {
        case 0: return "public"
        case 1: return "random"
        case 2: return "public identity"
        case 3: return "random identity"
        case 0xFF: return "anonymous"
        default: return "type 0x\(hex(rawValue))"
        }
    }

    /// Parses `public` / `random` (also `0` / `1`, case-insensitive).
    public init?(_ text: String) {
        switch text.lowercased() {
        case "public", "0": self = .public
        case "random", "1": self = .random
        case "public identity", "public-identity", "2": self = .publicIdentity
        case "random identity", "random-identity", "3": self = .randomIdentity
        default: return nil
        }
    }

    /// Encodes as the string form (`"public"`, `"random"`, ...).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes the string form.
    /// - Throws: `DecodingError.dataCorrupted` naming the bad text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let type = BluetoothAddressType(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not an address type (expected public or random)")
        }
        self = type
    }
}
