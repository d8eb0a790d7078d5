/// How the vendor ID (0x004C) and the 6-byte static STS IV of a shareable configuration become
/// the UCI parameters VENDOR_ID (0x27) and STATIC_STS_IV (0x28).
///
/// The two public mappings are reverses of each other (specs/reference/ni-accessory-protocol.md §5) and which
/// one a given UWBS expects must be tested per chip, so both are offered. Host and accessory
/// must use the same order for their STS to match.
public enum UWBKeyByteOrder: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// AOSP's `sessionKeyInfo = [4C 00] + IV`: VENDOR_ID sent `4C 00`, STATIC_STS_IV in wire
    /// order (TV-2: `39 7b 28 d4 b8 d7`). The default.
    case vendorFirst
    /// Qorvo's `vupper64 = [IV5 … IV0, 00, 4C]`: the same 8 bytes reversed: VENDOR_ID sent
    /// `00 4C`, STATIC_STS_IV reversed (TV-2: `d7 b8 d4 28 7b 39`).
    case reversed

    /// Apple's Bluetooth SIG company identifier, the vendor ID of every NI session.
    public static let appleVendorID: UInt16 = 0x004C

    /// The FiRa values for `vendorID` and `iv` (6 bytes, wire order): what to put in
    /// `FiRaSessionParameters.vendorID` (sent little-endian) and `.staticSTSIV`.
    public func uciValues(vendorID: UInt16 = Self.appleVendorID, iv: [UInt8]) -> (vendorID: UInt16, staticSTSIV: [UInt8]) {
        switch self {
        case .vendorFirst: (vendorID, iv)
        case .reversed: (vendorID.byteSwapped, iv.reversed())
        }
    }

    /// The 8 bytes UCI receives (VENDOR_ID then STATIC_STS_IV), for logs and tests: TV-3's
    /// `4c 00 39 7b 28 d4 b8 d7` (vendorFirst) or `00 4c d7 b8 d4 28 7b 39` (reversed).
    public func uciBytes(vendorID: UInt16 = Self.appleVendorID, iv: [UInt8]) -> [UInt8] {
        let values = uciValues(vendorID: vendorID, iv: iv)
        return [UInt8(values.vendorID & 0xFF), UInt8(values.vendorID >> 8)] + values.staticSTSIV
    }

    /// `vendor-first` or `reversed`.
    public var description: String {
        switch self {
        case .vendorFirst: "vendor-first"
        case .reversed: "reversed"
        }
    }

    /// Parses `vendor-first` / `reversed` (as the CLI and the configuration file spell them).
    public init?(name: String) {
        switch name.lowercased() {
        case "vendor-first", "vendorfirst", "aosp": self = .vendorFirst
        case "reversed", "qorvo": self = .reversed
        default: return nil
        }
    }
}
