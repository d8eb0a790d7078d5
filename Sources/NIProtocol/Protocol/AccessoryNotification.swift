/// The payload of Qorvo's message `0x2F` (iOSNotify): a distance and a short text the accessory
/// wants the app to show (stock Qorvo firmware sends it below 40 cm and above 120 cm).
///
/// Wire form: `[length = text bytes + 2][distance cm, u8][text]`, so the length byte counts
/// itself, the distance byte and the text, and equals the payload length.
public struct AccessoryNotification: Sendable, Hashable, CustomStringConvertible {
    static let structureName = "iOSNotify"
    /// The longest text the one-byte length can announce (255 - 2).
    public static let maximumTextByteCount = 253

    /// The distance the accessory measured, in centimetres (one byte: 0-255 cm).
    public let distanceCentimetres: UInt8
    /// The text bytes as sent (ASCII in Qorvo firmware).
    public let textBytes: [UInt8]

    /// The text, decoded as UTF-8 (invalid bytes become U+FFFD).
    public var text: String { String(decoding: textBytes, as: UTF8.self) }

    /// Builds a notification.
    ///
    /// - Throws: ``NIProtocolError`` (`invalidLength`, field `text`) when the UTF-8 text is longer
    ///   than 253 bytes. Qorvo's receive buffer holds 64 bytes, so keep it under 62 for stock
    ///   firmware.
    public init(distanceCentimetres: UInt8, text: String) throws(NIProtocolError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumTextByteCount else {
            throw NIProtocolError(
                structure: Self.structureName, field: "text",
                reason: .invalidLength(value: bytes.count, allowed: "0...\(Self.maximumTextByteCount) (UTF-8 bytes)"))
        }
        self.distanceCentimetres = distanceCentimetres
        self.textBytes = bytes
    }

    /// Parses a `0x2F` payload (without the ID byte).
    ///
    /// - Throws: ``NIProtocolError``: `truncated` when fewer than 2 bytes or fewer than the length
    ///   byte announces; `outOfRange` when the length byte is below 2; `trailingBytes` when more
    ///   bytes follow than it announces.
    public init(bytes: some Collection<UInt8>) throws(NIProtocolError) {
        let bytes = Array(bytes)
        guard bytes.count >= 2 else {
            throw NIProtocolError(
                structure: Self.structureName, reason: .truncated(needed: 2, got: bytes.count, isExact: false))
        }
        let length = Int(bytes[0])
        guard length >= 2 else {
            throw NIProtocolError(
                structure: Self.structureName, field: "length",
                reason: .outOfRange(
                    value: length, allowed: "2...255 (it counts itself, the distance byte and the text)"))
        }
        guard bytes.count >= length else {
            throw NIProtocolError(
                structure: Self.structureName, reason: .truncated(needed: length, got: bytes.count, isExact: true))
        }
        guard bytes.count == length else {
            throw NIProtocolError(
                structure: Self.structureName, reason: .trailingBytes(expected: length, got: bytes.count))
        }
        distanceCentimetres = bytes[1]
        textBytes = Array(bytes[2...])
    }

    /// The encoded payload (without the `0x2F` message ID).
    public func encoded() -> [UInt8] {
        [UInt8(textBytes.count + 2), distanceCentimetres] + textBytes
    }

    /// `42 cm "Close"`.
    public var description: String { "\(distanceCentimetres) cm \"\(text)\"" }
}
