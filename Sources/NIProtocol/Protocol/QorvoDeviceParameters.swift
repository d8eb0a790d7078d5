import NearbyBase
public import UCI

/// Qorvo's device-parameters structure: the payload of `0x20` getDeviceStruct as the accessory
/// answers it and of `0x21` setDeviceStruct as the app sends it (Qorvo QANI firmware
/// `ble_niq.c`, 2024-25: `struct ble_device_params`, packed, little-endian). 33 bytes:
///
/// | Offset | Size | Field |
/// |---|---|---|
/// | 0 | 1 | version (1) |
/// | 1 | 1 | role (FiRa device role: 0 responder, 1 initiator) |
/// | 2 | 1 | enc_payload |
/// | 3 | 1 | ranging_round_usage (2: DS-TWR deferred) |
/// | 4 | 1 | rframe_config (3: SP3) |
/// | 5 | 1 | channel_number |
/// | 6 | 1 | preamble_code |
/// | 7 | 1 | mac_address_mode |
/// | 8 | 1 | number_of_controlee |
/// | 9 | 2 | src_addr |
/// | 11 | 2 | dst_addr |
/// | 13 | 2 | slot_duration_rstu |
/// | 15 | 2 | block_timing_stability |
/// | 17 | 4 | session_id |
/// | 21 | 4 | block_duration_ms |
/// | 25 | 4 | round_duration_rstu |
/// | 29 | 4 | max_rr_retry |
///
/// The firmware answers `0x20` with `[0x20] + these 33 bytes` (whatever the request's payload);
/// it accepts `0x21` only when the whole message is exactly 34 bytes and the version is 1, and
/// answers `0x22` with one status byte (``QorvoDeviceParametersStatus``). The version byte is
/// kept as received, so a structure of another version decodes (and re-encodes) unchanged.
public struct QorvoDeviceParameters: Sendable, Hashable, CustomStringConvertible {
    static let structureName = "deviceParameters"
    /// Encoded length: 33 bytes.
    public static let byteCount = 33
    /// The version Qorvo's firmware writes and accepts (`BLE_DEVICE_PARAMS_VERSION`).
    public static let currentVersion: UInt8 = 1

    /// The structure's version (1 in Qorvo's firmware).
    public var version: UInt8
    /// FiRa device role: 0 responder, 1 initiator.
    public var role: UInt8
    /// Qorvo's `enc_payload` flag.
    public var encryptedPayload: UInt8
    /// FiRa ranging round usage (2: DS-TWR deferred).
    public var rangingRoundUsage: UInt8
    /// FiRa RFRAME config (3: SP3).
    public var rframeConfig: UInt8
    /// UWB channel.
    public var channel: UInt8
    /// Preamble code index.
    public var preambleCode: UInt8
    /// FiRa MAC address mode (0: short addresses).
    public var macAddressMode: UInt8
    /// Number of controlees.
    public var numberOfControlees: UInt8
    /// The accessory's own short address (little-endian on the wire, as UCI numbers it).
    public var sourceAddress: UInt16
    /// The peer's short address.
    public var destinationAddress: UInt16
    /// Slot duration, RSTU (1 ms = 1200 RSTU).
    public var slotDurationRSTU: UInt16
    /// Block timing stability (the phone's clock drift in NI sessions).
    public var blockTimingStability: UInt16
    /// FiRa session ID.
    public var sessionID: UInt32
    /// Block duration (the ranging interval), ms.
    public var blockDurationMS: UInt32
    /// Round duration, RSTU.
    public var roundDurationRSTU: UInt32
    /// MAX_RR_RETRY.
    public var maxRangingRoundRetries: UInt32

    /// Creates the structure field by field; every default is Qorvo's firmware default
    /// (`fira_config` in `ble_niq.c`): initiator, encrypted payload on, DS-TWR deferred, SP3,
    /// channel 9, preamble 11, short addresses, one controlee, source 0x0000, destination
    /// 0x0001, 2400 RSTU slots, session 1111, 100 ms blocks, 18400 RSTU rounds, 1 retry.
    public init(
        version: UInt8 = Self.currentVersion, role: UInt8 = 1, encryptedPayload: UInt8 = 1, rangingRoundUsage: UInt8 = 2,
        rframeConfig: UInt8 = 3, channel: UInt8 = 9, preambleCode: UInt8 = 11, macAddressMode: UInt8 = 0,
        numberOfControlees: UInt8 = 1, sourceAddress: UInt16 = 0x0000, destinationAddress: UInt16 = 0x0001,
        slotDurationRSTU: UInt16 = 2400, blockTimingStability: UInt16 = 0, sessionID: UInt32 = 1111,
        blockDurationMS: UInt32 = 100, roundDurationRSTU: UInt32 = 18400, maxRangingRoundRetries: UInt32 = 1
    ) {
        self.version = version
        self.role = role
        self.encryptedPayload = encryptedPayload
        self.rangingRoundUsage = rangingRoundUsage
        self.rframeConfig = rframeConfig
        self.channel = channel
        self.preambleCode = preambleCode
        self.macAddressMode = macAddressMode
        self.numberOfControlees = numberOfControlees
        self.sourceAddress = sourceAddress
        self.destinationAddress = destinationAddress
        self.slotDurationRSTU = slotDurationRSTU
        self.blockTimingStability = blockTimingStability
        self.sessionID = sessionID
        self.blockDurationMS = blockDurationMS
        self.roundDurationRSTU = roundDurationRSTU
        self.maxRangingRoundRetries = maxRangingRoundRetries
    }

    /// Parses the 33 bytes after the `0x20` / `0x21` message ID.
    /// - Throws: ``NIProtocolError``: `truncated` below 33 bytes, `trailingBytes` above (Qorvo's
    ///   firmware answers such a `0x21` with status 1, bad length).
    public init(bytes: some Collection<UInt8>) throws(NIProtocolError) {
        let bytes = Array(bytes)
        guard bytes.count >= Self.byteCount else {
            throw NIProtocolError(
                structure: Self.structureName, reason: .truncated(needed: Self.byteCount, got: bytes.count, isExact: true))
        }
        guard bytes.count == Self.byteCount else {
            throw NIProtocolError(structure: Self.structureName, reason: .trailingBytes(expected: Self.byteCount, got: bytes.count))
        }
        var reader = NIByteReader(bytes, structure: Self.structureName)
        version = try reader.uint8("version")
        role = try reader.uint8("role")
        encryptedPayload = try reader.uint8("enc_payload")
        rangingRoundUsage = try reader.uint8("ranging_round_usage")
        rframeConfig = try reader.uint8("rframe_config")
        channel = try reader.uint8("channel_number")
        preambleCode = try reader.uint8("preamble_code")
        macAddressMode = try reader.uint8("mac_address_mode")
        numberOfControlees = try reader.uint8("number_of_controlee")
        sourceAddress = try reader.littleEndian(UInt16.self, "src_addr")
        destinationAddress = try reader.littleEndian(UInt16.self, "dst_addr")
        slotDurationRSTU = try reader.littleEndian(UInt16.self, "slot_duration_rstu")
        blockTimingStability = try reader.littleEndian(UInt16.self, "block_timing_stability")
        sessionID = try reader.littleEndian(UInt32.self, "session_id")
        blockDurationMS = try reader.littleEndian(UInt32.self, "block_duration_ms")
        roundDurationRSTU = try reader.littleEndian(UInt32.self, "round_duration_rstu")
        maxRangingRoundRetries = try reader.littleEndian(UInt32.self, "max_rr_retry")
    }

    /// The 33 encoded bytes (without a message ID).
    public func encoded() -> [UInt8] {
        var writer = NIByteWriter(capacity: Self.byteCount)
        for byte in [version, role, encryptedPayload, rangingRoundUsage, rframeConfig, channel, preambleCode, macAddressMode,
                     numberOfControlees] {
            writer.uint8(byte)
        }
        writer.littleEndian(sourceAddress)
        writer.littleEndian(destinationAddress)
        writer.littleEndian(slotDurationRSTU)
        writer.littleEndian(blockTimingStability)
        writer.littleEndian(sessionID)
        writer.littleEndian(blockDurationMS)
        writer.littleEndian(roundDurationRSTU)
        writer.littleEndian(maxRangingRoundRetries)
        return writer.bytes
    }

    /// `v1 initiator session 1111 ch 9 preamble 11 src 0x0000 dst 0x0001 slot 2400 RSTU block 100 ms round 18400 RSTU`.
    public var description: String {
        "v\(version) \(role == 0 ? "responder" : role == 1 ? "initiator" : "role \(role)") session \(sessionID) ch \(channel) "
            + "preamble \(preambleCode) src \(Hex.prefixed(sourceAddress)) dst \(Hex.prefixed(destinationAddress)) "
            + "slot \(slotDurationRSTU) RSTU block \(blockDurationMS) ms round \(roundDurationRSTU) RSTU"
    }
}

/// The status byte of Qorvo's `0x22` setDeviceStructAck (`enum ble_device_params_status` in
/// `ble_niq.c`); any byte is kept.
public struct QorvoDeviceParametersStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The byte on the wire.
    public var rawValue: UInt8

    /// Wraps a byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0: applied.
    public static let ok = QorvoDeviceParametersStatus(rawValue: 0)
    /// 1: the `0x21` message was not exactly 34 bytes.
    public static let badLength = QorvoDeviceParametersStatus(rawValue: 1)
    /// 2: the structure's version is not 1.
    public static let badVersion = QorvoDeviceParametersStatus(rawValue: 2)

    /// `ok`, `bad length`, `bad version` or `status 0x07`.
    public var description: String {
        switch rawValue {
        case 0: "ok"
        case 1: "bad length"
        case 2: "bad version"
        default: "status \(Hex.prefixed(rawValue))"
        }
    }
}

extension QorvoDeviceParameters {
    /// Writes a session the kit runs into the structure, as Qorvo's firmware writes its NI
    /// session into the same `fira_config` that `0x20` reports: role, ranging round usage,
    /// RFRAME, channel, preamble, address mode, controlees, both addresses, slot duration,
    /// session ID, block (interval), round duration (slot × slots per round), MAX_RR_RETRY.
    /// The version, encrypted payload flag and block timing stability stay as they are.
    public mutating func update(from parameters: FiRaSessionParameters, sessionID: UInt32) {
        func short(_ address: UCIMACAddress?) -> UInt16? {
            if case .short(let value) = address { return value }
            return nil
        }
        role = parameters.deviceRole.rawValue
        rangingRoundUsage = parameters.rangingRoundUsage.rawValue
        rframeConfig = parameters.rframeConfig.rawValue
        channel = parameters.channel
        preambleCode = parameters.preambleCodeIndex
        macAddressMode = parameters.macAddressMode.rawValue
        numberOfControlees = UInt8(clamping: parameters.destinationMACAddresses.count)
        sourceAddress = short(parameters.deviceMACAddress) ?? sourceAddress
        destinationAddress = short(parameters.destinationMACAddresses.first) ?? destinationAddress
        slotDurationRSTU = parameters.slotDuration
        self.sessionID = sessionID
        blockDurationMS = parameters.rangingInterval
        roundDurationRSTU = UInt32(parameters.slotDuration) * UInt32(parameters.slotsPerRangingRound)
        maxRangingRoundRetries = UInt32(parameters.maxRangingRoundRetries)
    }
}
