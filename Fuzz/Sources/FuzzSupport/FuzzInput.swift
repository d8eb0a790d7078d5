/// Reads choices off the front of a fuzz input (how to cut the rest into chunks, which decoder
/// to use), so that libFuzzer explores them like the bytes themselves.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    /// A reader at the start of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Bytes not taken yet.
    public var remaining: Int { bytes.count - offset }

    /// The next byte, or 0 when none is left.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next bit set of a byte, as a flag.
    public mutating func flag() -> Bool { byte() & 1 == 1 }

    /// Up to `count` next bytes.
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(0, count))
        defer { offset = end }
        return Array(bytes[offset..<end])
    }

    /// Everything not taken yet.
    public mutating func rest() -> [UInt8] { take(remaining) }

    /// The rest cut into chunks whose sizes (1 to `1 + mask`) cycle through `sizes`: how a
    /// byte-stream transport may hand a stream over (one read holds part of a packet or several).
    public mutating func chunks(sizes: [UInt8], mask: UInt8 = 0x3F) -> [[UInt8]] {
        let data = rest()
        var result: [[UInt8]] = []
        var start = 0
        var index = 0
        while start < data.count {
            let size = sizes.isEmpty ? data.count : Int(sizes[index % sizes.count] & mask) + 1
            let end = min(data.count, start + size)
            result.append(Array(data[start..<end]))
            start = end
            index += 1
        }
        return result
    }
}

/// Invariant checks in fuzz targets.
public enum FuzzCheck {
    /// Traps with `message` (libFuzzer records the input as a crash) unless `condition` holds.
    public static func require(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        if !condition() { fatalError("invariant failed: \(message())", file: file, line: line) }
    }
}
