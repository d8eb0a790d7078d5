extension UCIMACAddress {
    /// Parses an address as people write it: a short address of 1-4 hex digits (`0x0002`,
    /// `0002`, `2`) or an extended one of exactly 16 hex digits; an optional `0x`, `:` between
    /// digits and surrounding spaces are allowed. `nil` for anything else.
    public init?(parsing text: String) {
        var digits = Substring(text)
        while let first = digits.first, first == " " || first == "\t" { digits = digits.dropFirst() }
        while let last = digits.last, last == " " || last == "\t" { digits = digits.dropLast() }
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        digits = digits.filter { $0 != ":" }[...]
        if (1...4).contains(digits.count), let value = UInt16(digits, radix: 16) {
            self = .short(value)
        } else if digits.count == 16, let value = UInt64(digits, radix: 16) {
            self = .extended(value)
        } else {
            return nil
        }
    }
}
