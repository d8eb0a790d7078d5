import NearbyBase

/// Hex text <-> bytes for descriptors and the store file (NearbyBase's `Hex` in the
/// store's spelling: lower case, no separators).
public enum HexBytes {
    /// Lower-case hex without separators: `[0x4C, 0x00]` -> `"4c00"`.
    public static func encode(_ bytes: [UInt8]) -> String { Hex.bytes(bytes, separator: "") }

    /// Parses `"4c00"`, `"4C 00"`, `"4c:00"` or `"0x4c00"` (case-insensitive).
    /// - Returns: `nil` unless the text is a non-empty, even number of hex digits.
    public static func decode(_ text: String) -> [UInt8]? {
        guard let bytes = try? Hex.parse(text), !bytes.isEmpty else { return nil }
        return bytes
    }
}
