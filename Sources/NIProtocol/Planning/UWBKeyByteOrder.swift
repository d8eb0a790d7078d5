/// How the vendor ID (0x004C) and the 6-byte static STS IV of a shareable configuration become
/// the UCI parameters VENDOR_ID (0x27) and STATIC_STS_IV (0x28). Host and accessory must use the
/// same order for their STS to match. Evidence: specs/ni-protocol.md §5.
///
/// The default is what every public phone-side implementation sends: AOSP's ranging test app
/// (which plays an accessory to an iPhone) and androidx build `sessionKeyInfo = [4C 00] + IV`
/// and pass it to UCI as VENDOR_ID `4C 00` and STATIC_STS_IV in wire order. Qorvo's accessory
/// library (libniq) stores the IV reversed and its `fira_niq.c` reverses it back when it builds
/// `vupper64`, so the IV also ends up in wire order there; no public implementation reverses
/// the IV at UCI. The one plausible alternative is a UWBS that takes VENDOR_ID with its bytes
/// swapped (`00 4C`, the order of Qorvo's `vupper64` tail), with the IV still in wire order.
public enum UWBKeyByteOrder: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// AOSP's and androidx's `sessionKeyInfo = [4C 00] + IV`: VENDOR_ID sent `4C 00`,
    /// STATIC_STS_IV in wire order (TV-2: `39 7b 28 d4 b8 d7`). The default.
    case vendorFirst
    /// VENDOR_ID sent with its bytes swapped, `00 4C`; STATIC_STS_IV still in wire order. For a
    /// UWBS that copies VENDOR_ID into a Qorvo-style `vupper64` as is. (Replaces the former
    /// `reversed`, which also reversed the IV: no public implementation does.)
    case vendorSwapped

    /// Apple's Bluetooth SIG company identifier, the vendor ID of every NI session.
    public static let appleVendorID: UInt16 = 0x004C

    /// The FiRa values for `vendorID` and `iv` (6 bytes, wire order): what to put in
    /// `FiRaSessionParameters.vendorID` (sent little-endian) and `.staticSTSIV`.
    public func uciValues(vendorID: UInt16 = Self.appleVendorID, iv: [UInt8]) -> (vendorID: UInt16, staticSTSIV: [UInt8]) {
        switch self {
        case .vendorFirst: (vendorID, iv)
        case .vendorSwapped: (vendorID.byteSwapped, iv)
        }
    }

    /// The 8 bytes UCI receives (VENDOR_ID then STATIC_STS_IV), for logs and tests: TV-3's
    /// `4c 00 39 7b 28 d4 b8 d7` (vendorFirst) or `00 4c 39 7b 28 d4 b8 d7` (vendorSwapped).
    public func uciBytes(vendorID: UInt16 = Self.appleVendorID, iv: [UInt8]) -> [UInt8] {
        let values = uciValues(vendorID: vendorID, iv: iv)
        return [UInt8(values.vendorID & 0xFF), UInt8(values.vendorID >> 8)] + values.staticSTSIV
    }

    /// `vendor-first` or `vendor-swapped`.
    public var description: String {
        switch self {
        case .vendorFirst: "vendor-first"
        case .vendorSwapped: "vendor-swapped"
        }
    }

    /// The old spellings that still parse, with what they mean now: `reversed` and `qorvo`
    /// (which used to reverse the IV too) select ``vendorSwapped``; `aosp` selects
    /// ``vendorFirst``.
    public static let legacyNames = ["reversed": vendorSwapped, "qorvo": vendorSwapped, "aosp": vendorFirst]

    /// Parses `vendor-first` / `vendor-swapped` (as the CLI and the configuration file spell
    /// them), and the old spellings of ``legacyNames``.
    public init?(name: String) {
        switch name.lowercased() {
        case "vendor-first", "vendorfirst": self = .vendorFirst
        case "vendor-swapped", "vendorswapped": self = .vendorSwapped
        default:
            guard let legacy = Self.legacyNames[name.lowercased()] else { return nil }
            self = legacy
        }
    }
}
