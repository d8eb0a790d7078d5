import Foundation

/// JSON text for records and reports (the accessory store's keys, sorted; dates ISO 8601;
/// slashes unescaped), as the accessory commands print them.
public enum AccessoryJSON {
    /// One compact JSON object per line (`{}` if `value` cannot be encoded).
    public static func line(_ value: some Encodable) -> String {
        encode(value, [.sortedKeys, .withoutEscapingSlashes]) ?? "{}"
    }

    /// Pretty JSON, for lists (`[]` if `value` cannot be encoded).
    public static func pretty(_ value: some Encodable) -> String {
        encode(value, [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]) ?? "[]"
    }

    private static func encode(_ value: some Encodable, _ formatting: JSONEncoder.OutputFormatting) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        encoder.dateEncodingStrategy = .iso8601
        return try? String(decoding: encoder.encode(value), as: UTF8.self)
    }
}
