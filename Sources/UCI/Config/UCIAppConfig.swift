import NearbyBase

/// One app-configuration parameter of a session, with a typed value: a TLV of
/// SESSION_SET_APP_CONFIG_CMD and SESSION_GET_APP_CONFIG_RSP.
///
/// Every parameter of the reference table has a case; any other identifier (including
/// vendor-specific ones) travels as ``other(id:value:)`` with its raw bytes, so nothing is lost.
/// ``other(id:value:)`` may also carry a typed identifier to send a value in a non-standard form;
/// decoding always produces the typed case for a typed identifier.
///
/// Lengths are checked when decoding: a TLV whose length does not match its parameter throws
/// ``UCIError/Code/invalidLength`` naming the parameter, the length and the expected one.
/// Lengths that depend on other parameters:
/// - ``uwbInitiationTime(_:)``: 4 bytes in UCI 1.1, 8 in 2.0 (the form is kept, see
///   ``UCIInitiationTime``).
/// - ``deviceMACAddress(_:)``: 2 or 8 bytes by MAC_ADDRESS_MODE (decoded by length).
/// - ``destinationMACAddresses(_:)``: N × 2 or N × 8 bytes. When the length fits both (16, 32,
///   ...), the size comes from MAC_ADDRESS_MODE earlier in the same list, else from
///   NUMBER_OF_CONTROLEES, else from DEVICE_MAC_ADDRESS, else short (MAC_ADDRESS_MODE's default).
public enum UCIAppConfig: Sendable, Hashable, CustomStringConvertible {
    /// DEVICE_TYPE (0x00, 1 byte).
    case deviceType(UCIDeviceType)
    /// RANGING_ROUND_USAGE (0x01, 1 byte).
    case rangingRoundUsage(UCIRangingRoundUsage)
    /// STS_CONFIG (0x02, 1 byte).
    case stsConfig(UCISTSConfig)
    /// MULTI_NODE_MODE (0x03, 1 byte).
    case multiNodeMode(UCIMultiNodeMode)
    /// CHANNEL_NUMBER (0x04, 1 byte): 5, 6, 8, 9 (default), 10, 12, 13 or 14.
    case channelNumber(UInt8)
    /// NUMBER_OF_CONTROLEES (0x05, 1 byte): 1...8.
    case numberOfControlees(UInt8)
    /// DEVICE_MAC_ADDRESS (0x06, 2 or 8 bytes).
    case deviceMACAddress(UCIMACAddress)
    /// DST_MAC_ADDRESS (0x07, N × 2 or N × 8 bytes): the peers' addresses. All addresses must
    /// have the same size.
    case destinationMACAddresses([UCIMACAddress])
    /// SLOT_DURATION (0x08, 2 bytes) in RSTU (1 ms = 1200 RSTU; default 2400).
    case slotDuration(rstu: UInt16)
    /// RANGING_DURATION (0x09, 4 bytes): the ranging interval in milliseconds (default 200).
    case rangingDuration(milliseconds: UInt32)
    /// MAC_FCS_TYPE (0x0B, 1 byte).
    case macFCSType(UCIMACFCSType)
    /// RANGING_ROUND_CONTROL (0x0C, 1 byte).
    case rangingRoundControl(UCIRangingRoundControl)
    /// AOA_RESULT_REQ (0x0D, 1 byte).
    case aoaResultRequest(UCIAoAResultRequest)
    /// SESSION_INFO_NTF_CONFIG (0x0E, 1 byte).
    case sessionInfoNotificationConfig(UCISessionInfoNotificationConfig)
    /// NEAR_PROXIMITY_CONFIG (0x0F, 2 bytes) in centimetres (default 0).
    case nearProximity(centimeters: UInt16)
    /// FAR_PROXIMITY_CONFIG (0x10, 2 bytes) in centimetres (default 20000).
    case farProximity(centimeters: UInt16)
    /// DEVICE_ROLE (0x11, 1 byte).
    case deviceRole(UCIDeviceRole)
    /// RFRAME_CONFIG (0x12, 1 byte).
    case rframeConfig(UCIRFrameConfig)
    /// RSSI_REPORTING (0x13, 1 byte): 0 off, 1 minimum, 2 average. (Qorvo's UCI 1.1 firmware
    /// uses 0x13 for RX_MODE and reports RSSI through 0x36.)
    case rssiReporting(UInt8)
    /// PREAMBLE_CODE_INDEX (0x14, 1 byte): 9-12 BPRF (default 10), 25-32 HPRF.
    case preambleCodeIndex(UInt8)
    /// SFD_ID (0x15, 1 byte): 0-4 (default 2).
    case sfdID(UInt8)
    /// PREAMBLE_DURATION (0x17, 1 byte).
    case preambleDuration(UCIPreambleDuration)
    /// SLOTS_PER_RR (0x1B, 1 byte): slots per ranging round (default 25).
    case slotsPerRangingRound(UInt8)
    /// AOA_BOUND_CONFIG (0x1D, 8 bytes).
    case aoaBounds(UCIAoABounds)
    /// SCHEDULE_MODE (0x22, 1 byte).
    case scheduleMode(UCIScheduleMode)
    /// SESSION_PRIORITY (0x25, 1 byte): 1...100 (default 50).
    case sessionPriority(UInt8)
    /// MAC_ADDRESS_MODE (0x26, 1 byte).
    case macAddressMode(UCIMACAddressMode)
    /// VENDOR_ID (0x27, 2 bytes): with STATIC_STS_IV, the static STS seed.
    case vendorID(UInt16)
    /// STATIC_STS_IV (0x28, 6 bytes).
    case staticSTSIV([UInt8])
    /// MAX_RR_RETRY (0x2A, 2 bytes): failed rounds before the session stops (0 = never).
    case maxRangingRoundRetries(UInt16)
    /// UWB_INITIATION_TIME (0x2B, 4 bytes in UCI 1.1, 8 in 2.0).
    case uwbInitiationTime(UCIInitiationTime)
    /// HOPPING_MODE (0x2C, 1 byte): 0 off, otherwise the hopping scheme.
    case hoppingMode(UInt8)
    /// RESULT_REPORT_CONFIG (0x2E, 1 byte).
    case resultReportConfig(UCIResultReportConfig)
    /// MAX_NUMBER_OF_MEASUREMENTS (0x32, 2 bytes): rounds before the session stops (0 = never).
    case maxNumberOfMeasurements(UInt16)
    /// STS_LENGTH (0x35, 1 byte).
    case stsLength(UCISTSLength)
    /// Any other parameter, with its raw value bytes.
    case other(id: UCIAppConfigID, value: [UInt8])

    /// The parameter's identifier.
    public var id: UCIAppConfigID {
        switch self {
        case .deviceType: .deviceType
        case .rangingRoundUsage: .rangingRoundUsage
        case .stsConfig: .stsConfig
        case .multiNodeMode: .multiNodeMode
        case .channelNumber: .channelNumber
        case .numberOfControlees: .numberOfControlees
        case .deviceMACAddress: .deviceMACAddress
        case .destinationMACAddresses: .destinationMACAddresses
        case .slotDuration: .slotDuration
        case .rangingDuration: .rangingDuration
        case .macFCSType: .macFCSType
        case .rangingRoundControl: .rangingRoundControl
        case .aoaResultRequest: .aoaResultRequest
        case .sessionInfoNotificationConfig: .sessionInfoNotificationConfig
        case .nearProximity: .nearProximity
        case .farProximity: .farProximity
        case .deviceRole: .deviceRole
        case .rframeConfig: .rframeConfig
        case .rssiReporting: .rssiReporting
        case .preambleCodeIndex: .preambleCodeIndex
        case .sfdID: .sfdID
        case .preambleDuration: .preambleDuration
        case .slotsPerRangingRound: .slotsPerRangingRound
        case .aoaBounds: .aoaBounds
        case .scheduleMode: .scheduleMode
        case .sessionPriority: .sessionPriority
        case .macAddressMode: .macAddressMode
        case .vendorID: .vendorID
        case .staticSTSIV: .staticSTSIV
        case .maxRangingRoundRetries: .maxRangingRoundRetries
        case .uwbInitiationTime: .uwbInitiationTime
        case .hoppingMode: .hoppingMode
        case .resultReportConfig: .resultReportConfig
        case .maxNumberOfMeasurements: .maxNumberOfMeasurements
        case .stsLength: .stsLength
        case .other(let id, _): id
        }
    }

    /// The value bytes of the TLV (without type and length).
    /// - Throws: ``UCIError/Code/invalidLength`` if a STATIC_STS_IV is not 6 bytes or the
    ///   destination addresses mix short and extended ones.
    public func encodedValue() throws(UCIError) -> [UInt8] {
        switch self {
        case .deviceType(let v): [v.rawValue]
        case .rangingRoundUsage(let v): [v.rawValue]
        case .stsConfig(let v): [v.rawValue]
        case .multiNodeMode(let v): [v.rawValue]
        case .channelNumber(let v): [v]
        case .numberOfControlees(let v): [v]
        case .deviceMACAddress(let address): address.bytes
        case .destinationMACAddresses(let addresses):
            try Self.encodeAddresses(addresses)
        case .slotDuration(let v): littleEndianBytes(UInt64(v), width: 2)
        case .rangingDuration(let v): littleEndianBytes(UInt64(v), width: 4)
        case .macFCSType(let v): [v.rawValue]
        case .rangingRoundControl(let v): [v.rawValue]
        case .aoaResultRequest(let v): [v.rawValue]
        case .sessionInfoNotificationConfig(let v): [v.rawValue]
        case .nearProximity(let v): littleEndianBytes(UInt64(v), width: 2)
        case .farProximity(let v): littleEndianBytes(UInt64(v), width: 2)
        case .deviceRole(let v): [v.rawValue]
        case .rframeConfig(let v): [v.rawValue]
        case .rssiReporting(let v): [v]
        case .preambleCodeIndex(let v): [v]
        case .sfdID(let v): [v]
        case .preambleDuration(let v): [v.rawValue]
        case .slotsPerRangingRound(let v): [v]
        case .aoaBounds(let b):
            [b.minimumAzimuth, b.maximumAzimuth, b.minimumElevation, b.maximumElevation]
                .flatMap { littleEndianBytes(UInt64($0.bits), width: 2) }
        case .scheduleMode(let v): [v.rawValue]
        case .sessionPriority(let v): [v]
        case .macAddressMode(let v): [v.rawValue]
        case .vendorID(let v): littleEndianBytes(UInt64(v), width: 2)
        case .staticSTSIV(let iv): try Self.checkedSTSIV(iv)
        case .maxRangingRoundRetries(let v): littleEndianBytes(UInt64(v), width: 2)
        case .uwbInitiationTime(.relative(let ms)): littleEndianBytes(UInt64(ms), width: 4)
        case .uwbInitiationTime(.absolute(let us)): littleEndianBytes(us, width: 8)
        case .hoppingMode(let v): [v]
        case .resultReportConfig(let v): [v.rawValue]
        case .maxNumberOfMeasurements(let v): littleEndianBytes(UInt64(v), width: 2)
        case .stsLength(let v): [v.rawValue]
        case .other(_, let value): value
        }
    }

    private static func encodeAddresses(_ addresses: [UCIMACAddress]) throws(UCIError) -> [UInt8] {
        guard let first = addresses.first else { return [] }
        guard addresses.allSatisfy({ $0.length == first.length }) else {
            throw UCIError(
                .invalidLength, context: "app configuration", field: UCIAppConfigID.destinationMACAddresses.description,
                detail: "the list mixes short and extended addresses (\(addresses)); use one size, the one MAC_ADDRESS_MODE selects")
        }
        return addresses.flatMap(\.bytes)
    }

    private static func checkedSTSIV(_ iv: [UInt8]) throws(UCIError) -> [UInt8] {
        try checkLength(iv.count, expected: 6, id: .staticSTSIV)
        return iv
    }

    private static func checkLength(_ length: Int, expected: Int, id: UCIAppConfigID, what: String? = nil) throws(UCIError) {
        guard length == expected else { throw lengthError(id, length, expected: "\(expected)" + (what.map { " (\($0))" } ?? "")) }
    }

    private static func lengthError(_ id: UCIAppConfigID, _ length: Int, expected: String) -> UCIError {
        UCIError(.invalidLength, context: "app configuration", field: id.description, detail: "length \(length), expected \(expected)")
    }

    /// Decodes a parameter from its identifier and value bytes.
    /// - Parameters:
    ///   - id: the parameter's identifier.
    ///   - value: its value bytes (the TLV's value, without type and length).
    ///   - destinationAddressLength: the size (2 or 8) of each DST_MAC_ADDRESS entry when
    ///     the value's length fits both; `nil` means short unless only extended fits.
    /// - Throws: ``UCIError/Code/invalidLength`` if the length does not match the parameter.
    public init(id: UCIAppConfigID, value: ArraySlice<UInt8>, destinationAddressLength: Int? = nil) throws(UCIError) {
        func expect(_ count: Int, _ what: String? = nil) throws(UCIError) {
            try Self.checkLength(value.count, expected: count, id: id, what: what)
        }
        func byte() throws(UCIError) -> UInt8 {
            try expect(1)
            return value[value.startIndex]
        }
        func u16(_ what: String? = nil) throws(UCIError) -> UInt16 {
            try expect(2, what)
            return loadLE16(value, value.startIndex)
        }
        switch id {
        case .deviceType: self = .deviceType(UCIDeviceType(rawValue: try byte()))
        case .rangingRoundUsage: self = .rangingRoundUsage(UCIRangingRoundUsage(rawValue: try byte()))
        case .stsConfig: self = .stsConfig(UCISTSConfig(rawValue: try byte()))
        case .multiNodeMode: self = .multiNodeMode(UCIMultiNodeMode(rawValue: try byte()))
        case .channelNumber: self = .channelNumber(try byte())
        case .numberOfControlees: self = .numberOfControlees(try byte())
        case .deviceMACAddress:
            guard value.count == 2 || value.count == 8 else {
                throw Self.lengthError(id, value.count, expected: "2 (MAC_ADDRESS_MODE 0) or 8 (modes 1 and 2)")
            }
            self = .deviceMACAddress(try UCIMACAddress(bytes: value))
        case .destinationMACAddresses:
            self = .destinationMACAddresses(
                try Self.decodeAddresses(value, preferredLength: destinationAddressLength))
        case .slotDuration: self = .slotDuration(rstu: try u16("2 bytes, RSTU"))
        case .rangingDuration:
            try expect(4, "4 bytes, milliseconds")
            self = .rangingDuration(milliseconds: loadLE32(value, value.startIndex))
        case .macFCSType: self = .macFCSType(UCIMACFCSType(rawValue: try byte()))
        case .rangingRoundControl: self = .rangingRoundControl(UCIRangingRoundControl(rawValue: try byte()))
        case .aoaResultRequest: self = .aoaResultRequest(UCIAoAResultRequest(rawValue: try byte()))
        case .sessionInfoNotificationConfig:
            self = .sessionInfoNotificationConfig(UCISessionInfoNotificationConfig(rawValue: try byte()))
        case .nearProximity: self = .nearProximity(centimeters: try u16("2 bytes, centimetres"))
        case .farProximity: self = .farProximity(centimeters: try u16("2 bytes, centimetres"))
        case .deviceRole: self = .deviceRole(UCIDeviceRole(rawValue: try byte()))
        case .rframeConfig: self = .rframeConfig(UCIRFrameConfig(rawValue: try byte()))
        case .rssiReporting: self = .rssiReporting(try byte())
        case .preambleCodeIndex: self = .preambleCodeIndex(try byte())
        case .sfdID: self = .sfdID(try byte())
        case .preambleDuration: self = .preambleDuration(UCIPreambleDuration(rawValue: try byte()))
        case .slotsPerRangingRound: self = .slotsPerRangingRound(try byte())
        case .aoaBounds:
            try expect(8, "four 2-byte Q9.7 angles")
            let s = value.startIndex
            self = .aoaBounds(
                UCIAoABounds(
                    minimumAzimuth: UCIAngle(bits: loadLE16(value, s)), maximumAzimuth: UCIAngle(bits: loadLE16(value, s + 2)),
                    minimumElevation: UCIAngle(bits: loadLE16(value, s + 4)), maximumElevation: UCIAngle(bits: loadLE16(value, s + 6))))
        case .scheduleMode: self = .scheduleMode(UCIScheduleMode(rawValue: try byte()))
        case .sessionPriority: self = .sessionPriority(try byte())
        case .macAddressMode: self = .macAddressMode(UCIMACAddressMode(rawValue: try byte()))
        case .vendorID: self = .vendorID(try u16())
        case .staticSTSIV:
            try expect(6)
            self = .staticSTSIV(Array(value))
        case .maxRangingRoundRetries: self = .maxRangingRoundRetries(try u16())
        case .uwbInitiationTime:
            switch value.count {
            case 4: self = .uwbInitiationTime(.relative(milliseconds: loadLE32(value, value.startIndex)))
            case 8: self = .uwbInitiationTime(.absolute(microseconds: loadLE64(value, value.startIndex)))
            default:
                throw Self.lengthError(id, value.count, expected: "4 (UCI 1.1, milliseconds) or 8 (UCI 2.0, microseconds)")
            }
        case .hoppingMode: self = .hoppingMode(try byte())
        case .resultReportConfig: self = .resultReportConfig(UCIResultReportConfig(rawValue: try byte()))
        case .maxNumberOfMeasurements: self = .maxNumberOfMeasurements(try u16())
        case .stsLength: self = .stsLength(UCISTSLength(rawValue: try byte()))
        default: self = .other(id: id, value: Array(value))
        }
    }

    /// Decodes a parameter from its identifier and value bytes; see
    /// ``init(id:value:destinationAddressLength:)-(_,ArraySlice<UInt8>,_)``.
    public init(id: UCIAppConfigID, value: [UInt8], destinationAddressLength: Int? = nil) throws(UCIError) {
        try self.init(id: id, value: value[...], destinationAddressLength: destinationAddressLength)
    }

    private static func decodeAddresses(_ value: ArraySlice<UInt8>, preferredLength: Int?) throws(UCIError) -> [UCIMACAddress] {
        let fitsShort = value.count % 2 == 0, fitsExtended = value.count % 8 == 0
        let size: Int
        if let preferredLength, value.count % preferredLength == 0 {
            size = preferredLength
        } else if fitsShort && !fitsExtended || fitsShort && preferredLength == nil {
            size = 2
        } else if fitsExtended {
            size = 8
        } else {
            let expected = preferredLength.map { "a multiple of \($0) (the size MAC_ADDRESS_MODE selects)" } ?? "a multiple of 2 or 8"
            throw UCIError(
                .invalidLength, context: "app configuration", field: UCIAppConfigID.destinationMACAddresses.description,
                detail: "length \(value.count), expected \(expected) (N addresses of 2 or 8 bytes)")
        }
        return stride(from: value.startIndex, to: value.endIndex, by: size).map { start in
            size == 2 ? .short(loadLE16(value, start)) : .extended(loadLE64(value, start))
        }
    }

    /// `"RANGING_DURATION (0x09) = 200 ms"`.
    public var description: String { "\(id) = \(valueDescription)" }

    /// The value in words with its unit: `"200 ms"`, `"CONTROLLER (0x01)"`.
    public var valueDescription: String {
        switch self {
        case .deviceType(let v): v.description
        case .rangingRoundUsage(let v): v.description
        case .stsConfig(let v): v.description
        case .multiNodeMode(let v): v.description
        case .channelNumber(let v): "channel \(v)"
        case .numberOfControlees(let v): "\(v)"
        case .deviceMACAddress(let v): v.description
        case .destinationMACAddresses(let v): "[" + v.map(\.description).joined(separator: ", ") + "]"
        case .slotDuration(let v): "\(v) RSTU (\(DecimalText.trimmed(Double(v) / 1200, decimals: 3)) ms)"
        case .rangingDuration(let v): "\(v) ms"
        case .macFCSType(let v): v.description
        case .rangingRoundControl(let v): v.description
        case .aoaResultRequest(let v): v.description
        case .sessionInfoNotificationConfig(let v): v.description
        case .nearProximity(let v), .farProximity(let v): "\(v) cm"
        case .deviceRole(let v): v.description
        case .rframeConfig(let v): v.description
        case .rssiReporting(let v): "\(v)"
        case .preambleCodeIndex(let v): "\(v)"
        case .sfdID(let v): "\(v)"
        case .preambleDuration(let v): v.description
        case .slotsPerRangingRound(let v): "\(v) slots"
        case .aoaBounds(let v): v.description
        case .scheduleMode(let v): v.description
        case .sessionPriority(let v): "\(v)"
        case .macAddressMode(let v): v.description
        case .vendorID(let v): Hex.prefixed(v, digits: 4)
        case .staticSTSIV(let v): Hex.bytes(v)
        case .maxRangingRoundRetries(let v): "\(v)"
        case .uwbInitiationTime(let v): v.description
        case .hoppingMode(let v): "\(v)"
        case .resultReportConfig(let v): v.description
        case .maxNumberOfMeasurements(let v): "\(v)"
        case .stsLength(let v): v.description
        case .other(_, let value): value.isEmpty ? "(empty)" : Hex.bytes(value)
        }
    }
}

extension UCIAppConfig {
    /// Encodes parameters as a TLV list preceded by its one-byte count.
    static func encodeList(_ configs: [UCIAppConfig], into writer: inout ByteWriter) throws(UCIError) {
        try writer.count(configs.count, "number of parameters")
        for config in configs {
            try writer.tlv(config.id.rawValue, config.encodedValue(), config.id.description)
        }
    }

    /// Decodes `count` TLVs, resolving DST_MAC_ADDRESS sizes from the parameters before it.
    static func decodeList(_ reader: inout UCIFieldReader, count: Int) throws(UCIError) -> [UCIAppConfig] {
        var configs: [UCIAppConfig] = []
        configs.reserveCapacity(count)
        var modeLength: Int?, controlees: Int?, deviceAddressLength: Int?
        for index in 0..<count {
            let tlv = try reader.tlv(
                index, of: count, entry: "parameter", typeField: "identifier", name: { UCIAppConfigID(rawValue: $0).description })
            let id = UCIAppConfigID(rawValue: tlv.type)
            let value = tlv.value
            let length = value.count
            var hint = modeLength
            if hint == nil, let controlees, controlees > 0, length == controlees * 8 { hint = 8 }
            if hint == nil, let controlees, controlees > 0, length == controlees * 2 { hint = 2 }
            if hint == nil { hint = deviceAddressLength }
            let config = try UCIAppConfig(id: id, value: value, destinationAddressLength: hint)
            switch config {
            case .macAddressMode(let mode): modeLength = mode.addressLength
            case .numberOfControlees(let n): controlees = Int(n)
            case .deviceMACAddress(let address): deviceAddressLength = address.length
            default: break
            }
            configs.append(config)
        }
        return configs
    }
}
