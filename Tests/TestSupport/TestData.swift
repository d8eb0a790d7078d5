/// The bytes of hex text as the test vectors write it: `"01 00 | 3f f5"`, `"20:02:00:00"`;
/// anything that is not a hex digit separates nothing. Traps on an odd number of digits (a
/// broken vector is a bug in the test).
public func hexBytes(_ hex: String) -> [UInt8] {
    let digits = hex.filter(\.isHexDigit)
    precondition(digits.count % 2 == 0, "odd number of hex digits in \(hex)")
    var result: [UInt8] = []
    result.reserveCapacity(digits.count / 2)
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        result.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return result
}

/// A small deterministic random generator (SplitMix64), so fuzz and property runs reproduce.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting at `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
