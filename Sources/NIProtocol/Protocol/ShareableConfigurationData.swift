/// Shareable configuration data: the session parameters iOS generates
/// (`didGenerateShareableConfigurationData`) and the app sends in message `0x0B` (the
/// reference's §3.3). Little-endian.
///
/// | Offset | Size | Field | Layout |
/// |---|---|---|---|
/// | 0 | 2 + 2 | spec major, minor | 1.0 |
/// | 4 | 1 | length of the rest: 23 (1.0), 25 (1.1), 30 (2.0) | 1.0 |
/// | 5 | 2 | regulatory country code, ASCII | 1.0 |
/// | 7 | 4 | session ID | 1.0 |
/// | 11 | 1 | preamble code index (9-12) | 1.0 |
/// | 12 | 1 | channel (5 or 9) | 1.0 |
/// | 13 | 2 | slots per ranging round | 1.0 |
/// | 15 | 2 | slot duration, RSTU (1 ms = 1200 RSTU) | 1.0 |
/// | 17 | 2 | ranging interval, ms | 1.0 |
/// | 19 | 1 | ranging round control (0x03 time-scheduled, 0x06 contention) | 1.0 |
/// | 20 | 6 | static STS IV | 1.0 |
/// | 26 | 2 | destination (phone) short MAC address | 1.0 |
/// | 28 | 2 | phone max clock drift, ppm (Qorvo/Forthink: Block_Timing_Stability) | 1.1 |
/// | 30 | 4 | reserved | 2.0 |
/// | 34 | 1 | hopping mode | 2.0 |
///
/// Total 28, 30 or 35 bytes. Builders and the parser enforce the same ranges: channel 5 or 9,
/// preamble code index 9-12, slots per round, slot duration and ranging interval at least 1.
public struct ShareableConfigurationData: Sendable, Hashable {
    /// The fields layout 2.0 adds.
    public struct HoppingFields: Sendable, Hashable {
        /// Reserved bytes 30-33 as a little-endian integer (kept, so nothing is lost).
        public var reserved: UInt32
        /// Hopping mode (0 = off).
        public var hoppingMode: UInt8

        /// Creates the 2.0 fields; every value is accepted.
        public init(hoppingMode: UInt8, reserved: UInt32 = 0) {
            self.reserved = reserved
            self.hoppingMode = hoppingMode
        }
    }

    static let structureName = "shareableConfigurationData"
    /// Bytes before the length-counted part (spec version and the length byte).
    public static let headerByteCount = 5
    /// UWB channels NI uses.
    public static let allowedChannels: [UInt8] = [5, 9]
    /// Preamble code indices NI uses (BPRF codes 9-12).
    public static let allowedPreambleCodeIndices: ClosedRange<UInt8> = 9...12

    /// Total length in bytes of each layout: 28 (1.0), 30 (1.1), 35 (2.0).
    public static func byteCount(of version: ConfigurationDataVersion) -> Int {
        switch version {
        case .v1_0: 28
        case .v1_1: 30
        case .v2_0: 35
        }
    }

    /// The allowed values of the length byte, for error messages: `23 (v1.0), 25 (v1.1), 30 (v2.0)`.
    static let allowedLengthsText = ConfigurationDataVersion.allCases
        .map { "\(byteCount(of: $0) - headerByteCount) (v\($0))" }.joined(separator: ", ")

    /// The possible encoded lengths (28, 30, 35), for dialect detection.
    static let possibleByteCounts = ConfigurationDataVersion.allCases.map { byteCount(of: $0) }

    /// Spec version field as sent (TV-2: 1.1). Kept as is; the layout comes from the length.
    public let specVersion: NIVersion
    /// Regulatory country code.
    public let countryCode: RegulatoryCountryCode
    /// FiRa session ID.
    public let sessionID: UInt32
    /// Preamble code index, 9-12.
    public let preambleCodeIndex: UInt8
    /// UWB channel, 5 or 9.
    public let channel: UInt8
    /// Slots per ranging round, at least 1.
    public let slotsPerRound: UInt16
    /// Slot duration in RSTU (1 ms = 1200 RSTU), at least 1.
    public let slotDurationRSTU: UInt16
    /// Ranging interval (block duration) in milliseconds, at least 1.
    public let rangingIntervalMS: UInt16
    /// FiRa ranging round control byte as sent (0x03 time-scheduled, 0x06 contention).
    public let rangingRoundControl: UInt8
    /// Static STS IV, 6 bytes in wire order (see specs/ni-protocol.md for the byte order UCI needs).
    public let staticSTSIV: [UInt8]
    /// The phone's (app side's) UWB short MAC address: the accessory's destination address.
    public let phoneAddress: UInt16
    /// The phone's max clock drift in ppm (layout 1.1 and later). AOSP calls these bytes clock
    /// drift, Qorvo and Forthink Block_Timing_Stability.
    public let phoneMaxClockDriftPPM: UInt16?
    /// Layout 2.0 fields.
    public let hopping: HoppingFields?

    /// Builds shareable configuration data.
    ///
    /// - Parameters:
    ///   - specVersion: the spec version field; `nil` writes the layout's version.
    ///   - countryCode: the regulatory country code.
    ///   - sessionID: the FiRa session ID.
    ///   - preambleCodeIndex: 9-12.
    ///   - channel: the UWB channel, 5 or 9.
    ///   - slotsPerRound: slots per ranging round, at least 1.
    ///   - slotDurationRSTU: slot duration in RSTU (1 ms = 1200 RSTU), at least 1.
    ///   - rangingIntervalMS: the ranging interval (block duration) in milliseconds, at least 1.
    ///   - rangingRoundControl: FiRa's ranging round control byte (0x03 time-scheduled).
    ///   - staticSTSIV: the static STS IV, 6 bytes in wire order.
    ///   - phoneAddress: the phone's UWB short MAC address (the accessory's destination).
    ///   - phoneMaxClockDriftPPM: present → layout 1.1 or 2.0.
    ///   - hopping: present → layout 2.0 (then `phoneMaxClockDriftPPM` is required).
    /// - Throws: ``NIProtocolError``: `outOfRange` for a channel other than 5 or 9, a preamble code
    ///   index outside 9-12, a zero slot count, slot duration or interval; `invalidLength` for an
    ///   STS IV that is not 6 bytes; `missingField` for `hopping` without a clock drift.
    public init(
        specVersion: NIVersion? = nil,
        countryCode: RegulatoryCountryCode,
        sessionID: UInt32,
        preambleCodeIndex: UInt8,
        channel: UInt8,
        slotsPerRound: UInt16,
        slotDurationRSTU: UInt16,
        rangingIntervalMS: UInt16,
        rangingRoundControl: UInt8 = 0x03,
        staticSTSIV: [UInt8],
        phoneAddress: UInt16,
        phoneMaxClockDriftPPM: UInt16? = nil,
        hopping: HoppingFields? = nil
    ) throws(NIProtocolError) {
        if hopping != nil && phoneMaxClockDriftPPM == nil {
            throw NIProtocolError(
                structure: Self.structureName, field: "phoneMaxClockDriftPPM",
                reason: .missingField(requiredBy: "hopping (layout 2.0 carries both)"))
        }
        guard staticSTSIV.count == 6 else {
            throw NIProtocolError(
                structure: Self.structureName, field: "staticSTSIV",
                reason: .invalidLength(value: staticSTSIV.count, allowed: "6 (bytes)"))
        }
        try Self.validate(
            preambleCodeIndex: preambleCodeIndex, channel: channel, slotsPerRound: slotsPerRound,
            slotDurationRSTU: slotDurationRSTU, rangingIntervalMS: rangingIntervalMS)
        let version: ConfigurationDataVersion = hopping != nil ? .v2_0 : (phoneMaxClockDriftPPM != nil ? .v1_1 : .v1_0)
        self.specVersion = specVersion ?? version.specVersion
        self.countryCode = countryCode
        self.sessionID = sessionID
        self.preambleCodeIndex = preambleCodeIndex
        self.channel = channel
        self.slotsPerRound = slotsPerRound
        self.slotDurationRSTU = slotDurationRSTU
        self.rangingIntervalMS = rangingIntervalMS
        self.rangingRoundControl = rangingRoundControl
        self.staticSTSIV = staticSTSIV
        self.phoneAddress = phoneAddress
        self.phoneMaxClockDriftPPM = phoneMaxClockDriftPPM
        self.hopping = hopping
    }

    /// Parses exactly one shareable configuration data structure (the payload of message `0x0B`
    /// in the Apple dialect, without the ID byte).
    ///
    /// - Throws: ``NIProtocolError``: `truncated` when the bytes end before the length byte or
    ///   before the announced length; `invalidLength` when the length byte is not 23, 25 or 30;
    ///   `trailingBytes` when bytes follow; `outOfRange` as for the builder.
    public init(bytes: some Collection<UInt8>) throws(NIProtocolError) {
        let bytes = Array(bytes)
        let header = Self.headerByteCount
        guard bytes.count >= header else {
            throw NIProtocolError(
                structure: Self.structureName,
                reason: .truncated(needed: header, got: bytes.count, isExact: false))
        }
        let length = Int(bytes[header - 1])
        guard
            let version = ConfigurationDataVersion.allCases.first(where: { Self.byteCount(of: $0) == header + length })
        else {
            throw NIProtocolError(
                structure: Self.structureName, field: "shareableDataLength",
                reason: .invalidLength(value: length, allowed: Self.allowedLengthsText))
        }
        let total = Self.byteCount(of: version)
        guard bytes.count >= total else {
            throw NIProtocolError(
                structure: Self.structureName, reason: .truncated(needed: total, got: bytes.count, isExact: true))
        }
        guard bytes.count == total else {
            throw NIProtocolError(
                structure: Self.structureName, reason: .trailingBytes(expected: total, got: bytes.count))
        }
        var reader = NIByteReader(bytes, structure: Self.structureName)
        let major = try reader.littleEndian(UInt16.self, "specVersionMajor")
        let minor = try reader.littleEndian(UInt16.self, "specVersionMinor")
        specVersion = NIVersion(major: major, minor: minor)
        _ = try reader.uint8("shareableDataLength")
        countryCode = RegulatoryCountryCode(
            first: try reader.uint8("countryCode"), second: try reader.uint8("countryCode"))
        sessionID = try reader.littleEndian(UInt32.self, "sessionID")
        preambleCodeIndex = try reader.uint8("preambleCodeIndex")
        channel = try reader.uint8("channel")
        slotsPerRound = try reader.littleEndian(UInt16.self, "slotsPerRound")
        slotDurationRSTU = try reader.littleEndian(UInt16.self, "slotDurationRSTU")
        rangingIntervalMS = try reader.littleEndian(UInt16.self, "rangingIntervalMS")
        rangingRoundControl = try reader.uint8("rangingRoundControl")
        staticSTSIV = try reader.bytes(6, "staticSTSIV")
        phoneAddress = try reader.littleEndian(UInt16.self, "phoneAddress")
        phoneMaxClockDriftPPM = version >= .v1_1 ? try reader.littleEndian(UInt16.self, "phoneMaxClockDriftPPM") : nil
        if version >= .v2_0 {
            let reserved = try reader.littleEndian(UInt32.self, "reserved")
            hopping = HoppingFields(hoppingMode: try reader.uint8("hoppingMode"), reserved: reserved)
        } else {
            hopping = nil
        }
        try Self.validate(
            preambleCodeIndex: preambleCodeIndex, channel: channel, slotsPerRound: slotsPerRound,
            slotDurationRSTU: slotDurationRSTU, rangingIntervalMS: rangingIntervalMS)
    }

    private static func validate(
        preambleCodeIndex: UInt8, channel: UInt8, slotsPerRound: UInt16, slotDurationRSTU: UInt16,
        rangingIntervalMS: UInt16
    ) throws(NIProtocolError) {
        func outOfRange(_ field: String, _ value: some BinaryInteger, _ allowed: String) -> NIProtocolError {
            NIProtocolError(
                structure: structureName, field: field, reason: .outOfRange(value: Int(value), allowed: allowed))
        }
        guard allowedChannels.contains(channel) else {
            throw outOfRange("channel", channel, "5 or 9")
        }
        guard allowedPreambleCodeIndices.contains(preambleCodeIndex) else {
            throw outOfRange("preambleCodeIndex", preambleCodeIndex, "9...12")
        }
        guard slotsPerRound >= 1 else {
            throw outOfRange("slotsPerRound", slotsPerRound, "1...65535")
        }
        guard slotDurationRSTU >= 1 else {
            throw outOfRange("slotDurationRSTU", slotDurationRSTU, "1...65535 RSTU (1 ms = 1200 RSTU)")
        }
        guard rangingIntervalMS >= 1 else {
            throw outOfRange("rangingIntervalMS", rangingIntervalMS, "1...65535 ms")
        }
    }

    /// The layout: 2.0 with hopping fields, 1.1 with a clock drift, else 1.0.
    public var version: ConfigurationDataVersion {
        hopping != nil ? .v2_0 : (phoneMaxClockDriftPPM != nil ? .v1_1 : .v1_0)
    }

    /// Encoded length in bytes: 28, 30 or 35.
    public var byteCount: Int { Self.byteCount(of: version) }

    /// Slot duration in milliseconds (RSTU / 1200).
    public var slotDurationMilliseconds: Double { Double(slotDurationRSTU) / 1200 }

    /// The encoded bytes (without the `0x0B` message ID).
    public func encoded() -> [UInt8] {
        var writer = NIByteWriter(capacity: byteCount)
        writer.littleEndian(specVersion.major)
        writer.littleEndian(specVersion.minor)
        writer.uint8(UInt8(byteCount - Self.headerByteCount))
        writer.uint8(countryCode.first)
        writer.uint8(countryCode.second)
        writer.littleEndian(sessionID)
        writer.uint8(preambleCodeIndex)
        writer.uint8(channel)
        writer.littleEndian(slotsPerRound)
        writer.littleEndian(slotDurationRSTU)
        writer.littleEndian(rangingIntervalMS)
        writer.uint8(rangingRoundControl)
        writer.append(staticSTSIV)
        writer.littleEndian(phoneAddress)
        if let phoneMaxClockDriftPPM {
            writer.littleEndian(phoneMaxClockDriftPPM)
        }
        if let hopping {
            writer.littleEndian(hopping.reserved)
            writer.uint8(hopping.hoppingMode)
        }
        return writer.bytes
    }
}
