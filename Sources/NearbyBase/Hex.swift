/// Hexadecimal text for bytes and integers: the one place in the package that writes and reads
/// hex (messages, logs, JSON, the store file, `nearby uci decode`).
public enum Hex {
    private static let upper: [Character] = Array("0123456789ABCDEF")
    private static let lower: [Character] = Array("0123456789abcdef")

    /// Two upper-case digits without a prefix: `0x0A` → `"0A"`.
    public static func byte(_ value: UInt8) -> String {
        String(upper[Int(value >> 4)]) + String(upper[Int(value & 0x0F)])
    }

    /// Upper-case digits of `value` without a prefix, zero-padded to at least `count`:
    /// `digits(0x2A, count: 4)` → `"002A"`, `digits(0x1234, count: 2)` → `"1234"`. Negative
    /// values are written as their two's-complement bit pattern (64 bits).
    public static func digits<T: BinaryInteger>(_ value: T, count: Int) -> String {
        let text = String(UInt64(truncatingIfNeeded: value), radix: 16, uppercase: true)
        return text.count >= count ? text : String(repeating: "0", count: count - text.count) + text
    }

    /// `0x`-prefixed upper-case digits: `prefixed(0x2A as UInt8)` → `"0x2A"`,
    /// `prefixed(0x2A as UInt32)` → `"0x0000002A"`. `digits` defaults to two per byte of `T`.
    public static func prefixed<T: FixedWidthInteger>(_ value: T, digits count: Int? = nil) -> String {
        "0x" + digits(value, count: count ?? T.bitWidth / 4)
    }

    /// The bytes as digit pairs joined by `separator`: `[0x01, 0xAB]` → `"01 ab"`.
    /// - Parameters:
    ///   - bytes: the bytes, in order.
    ///   - separator: between two digit pairs (default one space).
    ///   - uppercase: `A-F` instead of `a-f`.
    ///   - limit: at most this many bytes, then `…` (for logs of long packets).
    public static func bytes(
        _ bytes: some Sequence<UInt8>, separator: String = " ", uppercase: Bool = false, limit: Int? = nil
    ) -> String {
        let table = uppercase ? upper : lower
        var text = ""
        var count = 0
        for byte in bytes {
            if let limit, count == limit {
                text += separator + "…"
                break
            }
            if count > 0 { text += separator }
            text.append(table[Int(byte >> 4)])
            text.append(table[Int(byte & 0x0F)])
            count += 1
        }
        return text
    }

    /// A problem with hex text: where and what.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, with the 1-based position of the first bad character when there is one.
        public var description: String
    }

    /// The bytes of hex text: digit pairs, optionally separated by spaces, tabs, `:`, `,`, `|`,
    /// `-` or `_`, each group optionally prefixed `0x` (`62 00 00 38`, `62:00:00:38`,
    /// `0x62000038`, `4c00`).
    /// - Throws: ``ParseError`` naming the first character that is not a hex digit, or an odd
    ///   number of digits.
    public static func parse(_ text: String) throws(ParseError) -> [UInt8] {
        var nibbles: [UInt8] = []
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "0", index + 1 < characters.count, characters[index + 1] == "x" || characters[index + 1] == "X",
                index == 0 || isSeparator(characters[index - 1])
            {
                index += 2
                continue
            }
            if isSeparator(character) {
                index += 1
                continue
            }
            guard let value = character.hexDigitValue else {
                throw ParseError(
                    description: "\"\(character)\" at position \(index + 1) is not a hex digit (expected pairs like \"62 00 00 38\")")
            }
            nibbles.append(UInt8(value))
            index += 1
        }
        guard nibbles.count % 2 == 0 else {
            throw ParseError(
                description: "\(nibbles.count) hex digits: an odd count cannot form whole bytes (a digit is missing or extra)")
        }
        return stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }

    private static func isSeparator(_ character: Character) -> Bool {
        character.isWhitespace || ":,|-_".contains(character)
    }
}
