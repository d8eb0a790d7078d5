import NearbyBase

/// The identifier of a device-configuration parameter (CORE_SET_CONFIG / CORE_GET_CONFIG).
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIDeviceConfigID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates an identifier from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// DEVICE_STATE (0x00): the UWBS state (read-only).
    public static let deviceState = UCIDeviceConfigID(rawValue: 0x00)
    /// LOW_POWER_MODE (0x01): whether the UWBS may sleep between rounds.
    public static let lowPowerMode = UCIDeviceConfigID(rawValue: 0x01)

    /// `"DEVICE_STATE"`, `"LOW_POWER_MODE"`, or `nil`.
    public var name: String? {
        switch rawValue {
        case 0x00: "DEVICE_STATE"
        case 0x01: "LOW_POWER_MODE"
        default: nil
        }
    }

    /// `"LOW_POWER_MODE (0x01)"`.
    public var description: String {
        codeDescription(name ?? (rawValue >= 0xA0 ? "vendor-specific" : "reserved"), rawValue)
    }
}

/// One device-configuration parameter: a TLV of CORE_SET_CONFIG_CMD and CORE_GET_CONFIG_RSP.
///
/// Unknown and vendor-specific identifiers are kept raw in ``other(id:value:)``.
public enum UCIDeviceConfig: Sendable, Hashable, CustomStringConvertible {
    /// DEVICE_STATE (0x00, 1 byte, read-only).
    case deviceState(UCIDeviceState)
    /// LOW_POWER_MODE (0x01, 1 byte): `true` (1) lets the UWBS sleep between rounds.
    case lowPowerMode(Bool)
    /// Any other parameter, with its raw value bytes.
    case other(id: UCIDeviceConfigID, value: [UInt8])

    /// The parameter's identifier.
    public var id: UCIDeviceConfigID {
        switch self {
        case .deviceState: .deviceState
        case .lowPowerMode: .lowPowerMode
        case .other(let id, _): id
        }
    }

    /// The value bytes of the TLV.
    public var encodedValue: [UInt8] {
        switch self {
        case .deviceState(let state): [state.rawValue]
        case .lowPowerMode(let on): [on ? 1 : 0]
        case .other(_, let value): value
        }
    }

    /// Decodes a parameter from its identifier and value bytes.
    /// - Throws: ``UCIError/Code/invalidLength`` if a typed parameter is not 1 byte,
    ///   ``UCIError/Code/invalidValue`` if LOW_POWER_MODE is neither 0 nor 1.
    public init(id: UCIDeviceConfigID, value: ArraySlice<UInt8>) throws(UCIError) {
        guard id == .deviceState || id == .lowPowerMode else {
            self = .other(id: id, value: Array(value))
            return
        }
        guard value.count == 1, let byte = value.first else {
            throw UCIError(
                .invalidLength, context: "device configuration", field: id.description,
                detail: "length \(value.count), expected 1")
        }
        if id == .deviceState {
            self = .deviceState(UCIDeviceState(rawValue: byte))
            return
        }
        guard byte <= 1 else {
            throw UCIError(
                .invalidValue, context: "device configuration", field: id.description,
                detail: "value \(Hex.prefixed(byte)), expected 0 (off) or 1 (on)")
        }
        self = .lowPowerMode(byte == 1)
    }

    /// `"LOW_POWER_MODE (0x01) = on"`.
    public var description: String {
        switch self {
        case .deviceState(let state): "\(id) = \(state)"
        case .lowPowerMode(let on): "\(id) = \(on ? "on" : "off")"
        case .other(_, let value): "\(id) = \(value.isEmpty ? "(empty)" : Hex.bytes(value))"
        }
    }
}

extension UCIDeviceConfig {
    static func encodeList(_ configs: [UCIDeviceConfig], into writer: inout ByteWriter) throws(UCIError) {
        try writer.count(configs.count, "number of parameters")
        for config in configs {
            try writer.tlv(config.id.rawValue, config.encodedValue, config.id.description)
        }
    }

    static func decodeList(_ reader: inout UCIFieldReader, count: Int) throws(UCIError) -> [UCIDeviceConfig] {
        var configs: [UCIDeviceConfig] = []
        for index in 0..<count {
            let tlv = try reader.tlv(
                index, of: count, entry: "parameter", typeField: "identifier", name: { UCIDeviceConfigID(rawValue: $0).description })
            configs.append(try UCIDeviceConfig(id: UCIDeviceConfigID(rawValue: tlv.type), value: tlv.value))
        }
        return configs
    }
}
