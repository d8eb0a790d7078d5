/// Hex text <-> bytes for descriptors and the store file.
public enum HexBytes {
    /// Lower-case hex without separators: `[0x4C, 0x00]` -> `"4c00"`.
    public static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    /// Parses `"4c00"`, `"4C 00"`, `"4c:00"` or `"0x4c00"` (case-insensitive).
    /// - Returns: `nil` unless the text is a non-empty, even number of hex digits.
    public static func decode(_ text: String) -> [UInt8]? {
        var digits = text.filter { $0 != " " && $0 != ":" && $0 != "_" && $0 != "-" }
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits.removeFirst(2) }
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for character in digits {
            guard let value = character.hexDigitValue else { return nil }
            if let first = high {
                bytes.append(first << 4 | UInt8(value))
                high = nil
            } else {
                high = UInt8(value)
            }
        }
        return bytes
    }
}
