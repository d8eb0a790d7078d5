/// `0x2F`-style hexadecimal text for messages (no Foundation).
func niHex<T: FixedWidthInteger & UnsignedInteger>(_ value: T, digits: Int = 2) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
}
