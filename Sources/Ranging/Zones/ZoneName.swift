/// A zone's name stored inline — at most ``capacity`` (15) UTF-8 bytes, like Swift's small
/// strings — so that updates and events that name zones are plain data: the pipeline copies and
/// drops them without reference counting or allocation. ``ZoneMap`` refuses longer names.
public struct ZoneName: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The most UTF-8 bytes a zone name can have.
    public static let capacity = 15

    // 15 bytes of UTF-8 and the count in the last byte of `high`.
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: UInt64 = 0

    /// The empty name.
    @inlinable
    public init() {}

    /// The name `text`, cut at the last whole character within ``capacity`` bytes.
    public init(_ text: String) {
        var count = 0
        for character in text {
            let utf8 = character.utf8
            guard count + utf8.count <= Self.capacity else { break }
            for byte in utf8 {
                if count < 8 {
                    low |= UInt64(byte) << (8 * UInt64(count))
                } else {
                    high |= UInt64(byte) << (8 * UInt64(count - 8))
                }
                count += 1
            }
        }
        high |= UInt64(count) << 56
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// `true` if `text` fits without being cut.
    public static func fits(_ text: String) -> Bool { text.utf8.count <= capacity }

    /// Number of UTF-8 bytes.
    public var count: Int { Int(high >> 56) }

    /// Calls `body` with the name's UTF-8 bytes, read in place (no allocation: JSON lines).
    @inlinable
    public func withUTF8<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        var storage = (low.littleEndian, high.littleEndian)
        let count = self.count
        return try withUnsafeBytes(of: &storage) { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }

    /// The name as a string.
    public var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for index in 0..<count {
            bytes.append(UInt8(truncatingIfNeeded: index < 8 ? low >> (8 * UInt64(index)) : high >> (8 * UInt64(index - 8))))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
