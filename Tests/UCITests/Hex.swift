// Hex helpers for the test vectors.

/// The bytes of a hex string; spaces, `|` and `:` separate nothing. Fails the test on bad hex.
func bytes(_ hex: String) -> [UInt8] {
    let digits = hex.filter { $0.isHexDigit }
    precondition(digits.count % 2 == 0, "odd number of hex digits in \(hex)")
    var result: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        result.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return result
}

/// `"20 00 00 01"`.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
}
