import NearbyBase

/// One TLV of a UCI parameter list: a type byte, a one-byte length and the value.
///
/// The lists of SESSION_SET_APP_CONFIG_CMD / SESSION_GET_APP_CONFIG_RSP (app-configuration
/// parameters), CORE_SET_CONFIG_CMD / CORE_GET_CONFIG_RSP (device configuration) and
/// CORE_GET_CAPS_INFO_RSP (capabilities) are TLVs; read them with ``UCITLVReader``.
public struct UCITLV: Sendable, Hashable, CustomStringConvertible {
    /// The type byte (the parameter's or capability's identifier).
    public var type: UInt8
    /// The value bytes (a slice of the payload it was read from, not a copy), 0-255 bytes.
    public var value: ArraySlice<UInt8>

    /// Creates a TLV.
    public init(type: UInt8, value: ArraySlice<UInt8>) {
        self.type = type
        self.value = value
    }

    /// Creates a TLV.
    public init(type: UInt8, value: [UInt8]) {
        self.init(type: type, value: value[...])
    }

    /// `"0x04 (1 byte): 09"`.
    public var description: String {
        "\(Hex.prefixed(type)) (\(value.count) byte\(value.count == 1 ? "" : "s"))" + (value.isEmpty ? "" : ": \(Hex.bytes(value))")
    }
}
