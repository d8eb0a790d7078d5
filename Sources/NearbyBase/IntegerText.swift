/// Integers as people type them on command lines and in settings.
public enum IntegerText {
    /// `42` (decimal) or `0x2A` / `0X2a` (hex), with spaces or tabs around it allowed; `nil` for
    /// anything else or a value that does not fit `T`.
    public static func parse<T: FixedWidthInteger>(_ text: String, as type: T.Type = T.self) -> T? {
        var digits = Substring(text)
        while let first = digits.first, first == " " || first == "\t" { digits = digits.dropFirst() }
        while let last = digits.last, last == " " || last == "\t" { digits = digits.dropLast() }
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { return T(digits.dropFirst(2), radix: 16) }
        return T(digits)
    }
}
