/// Hex text given to `nearby uci decode`, turned into bytes.
///
/// Accepted: hex digit pairs, optionally separated by spaces, tabs, `:`, `,`, `|`, `-` or `_`,
/// with or without a `0x` prefix per group (`62 00 00 38`, `62:00:00:38`, `0x62000038`).
enum UCIHexInput {
    /// A problem with the hex text, with a message a user can act on.
    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    /// The bytes of `text`.
    /// - Throws: ``ParseError`` naming the first character that is not hex, or an odd digit count.
    static func bytes(_ text: String) throws(ParseError) -> [UInt8] {
        var digits: [UInt8] = []
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
                throw ParseError(description: "\"\(character)\" at position \(index + 1) is not a hex digit (expected pairs like \"62 00 00 38\")")
            }
            digits.append(UInt8(value))
            index += 1
        }
        guard digits.count % 2 == 0 else {
            throw ParseError(description: "\(digits.count) hex digits: an odd count cannot form whole bytes (a digit is missing or extra)")
        }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    private static func isSeparator(_ character: Character) -> Bool {
        character.isWhitespace || ":,|-_".contains(character)
    }
}
