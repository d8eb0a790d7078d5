/// One NI accessory protocol message: a 1-byte ``NIMessageID`` followed by its payload, carried
/// whole in one ATT write or notification (no length field, no fragmentation).
///
/// Both directions are covered: the app (`nearby` on the host) sends ``initialize``,
/// ``androidInitialize``, ``configureAndStart(_:)``, ``androidConfigureAndStart(_:)`` and ``stop``
/// and decodes the accessory's messages; a (virtual) accessory does the opposite. Any message ID
/// this codec does not know is kept in ``unknown(id:payload:)``, never rejected.
///
/// ```swift
/// let message = try NIMessage(decoding: notificationValue, dialect: .apple)
/// if case .accessoryConfigurationData(let acd) = message { ... }
/// let reply = NIMessage.configureAndStart(shareable).encoded()
/// ```
public enum NIMessage: Sendable, Hashable {
    /// `0x01`, Apple dialect: the accessory's configuration data.
    case accessoryConfigurationData(AccessoryConfigurationData)
    /// `0x01`, Android dialect: the accessory's 18-byte UwbDeviceConfigData.
    case androidAccessoryConfigurationData(UWBDeviceConfigData)
    /// `0x02`: the accessory started ranging.
    case accessoryUWBDidStart
    /// `0x03`: the accessory stopped ranging.
    case accessoryUWBDidStop
    /// `0x0A`: the app asks for the accessory configuration (Apple dialect).
    case initialize
    /// `0xA5`: the app asks for the accessory configuration (Android dialect).
    case androidInitialize
    /// `0x0B`, Apple dialect: the shareable configuration data; the accessory starts ranging.
    case configureAndStart(ShareableConfigurationData)
    /// `0x0B`, Android dialect: the phone's 14-byte UwbPhoneConfigData; the accessory starts ranging.
    case androidConfigureAndStart(UWBPhoneConfigData)
    /// `0x0C`: the app asks the accessory to stop ranging.
    case stop
    /// `0x20` from the app: Qorvo getDeviceStruct, asking for the device parameters. Qorvo's
    /// firmware ignores the payload (kept as is; apps send none). A 33-byte payload decodes as
    /// ``deviceStruct(_:)``.
    case getDeviceStruct(payload: [UInt8])
    /// `0x20` from the accessory: Qorvo's answer to getDeviceStruct, its device parameters.
    case deviceStruct(QorvoDeviceParameters)
    /// `0x21`: Qorvo setDeviceStruct, the device parameters the app sets.
    case setDeviceStruct(QorvoDeviceParameters)
    /// `0x22`: Qorvo setDeviceStructAck, the accessory's status for a setDeviceStruct.
    case setDeviceStructAck(QorvoDeviceParametersStatus)
    /// `0x2F`: Qorvo iOSNotify.
    case iOSNotify(AccessoryNotification)
    /// Any other message ID, with its payload, kept as received. Decoding never produces it for
    /// a known ID; built with a known ID it still encodes exactly `[id] + payload`.
    case unknown(id: UInt8, payload: [UInt8])

    /// Which side of the exchange sends a message.
    public enum Sender: Sendable, Hashable {
        /// The UWB accessory (BLE peripheral).
        case accessory
        /// The app: an iPhone or Android app, or `nearby` on the Linux host (BLE central).
        case app
    }

    /// The message ID.
    public var id: NIMessageID {
        switch self {
        case .accessoryConfigurationData, .androidAccessoryConfigurationData: .accessoryConfigurationData
        case .accessoryUWBDidStart: .accessoryUWBDidStart
        case .accessoryUWBDidStop: .accessoryUWBDidStop
        case .initialize: .initialize
        case .androidInitialize: .androidInitialize
        case .configureAndStart, .androidConfigureAndStart: .configureAndStart
        case .stop: .stop
        case .getDeviceStruct, .deviceStruct: .getDeviceStruct
        case .setDeviceStruct: .setDeviceStruct
        case .setDeviceStructAck: .setDeviceStructAck
        case .iOSNotify: .iOSNotify
        case .unknown(let id, _): NIMessageID(rawValue: id)
        }
    }

    /// The dialect a message belongs to, `nil` for messages both dialects share.
    public var dialect: NIDialect? {
        switch self {
        case .accessoryConfigurationData, .initialize, .configureAndStart: .apple
        case .androidAccessoryConfigurationData, .androidInitialize, .androidConfigureAndStart: .android
        default: nil
        }
    }

    /// Who sends this message, `nil` for unknown IDs.
    public var sender: Sender? {
        switch self {
        case .accessoryConfigurationData, .androidAccessoryConfigurationData, .accessoryUWBDidStart,
            .accessoryUWBDidStop, .iOSNotify, .deviceStruct, .setDeviceStructAck:
            .accessory
        case .initialize, .androidInitialize, .configureAndStart, .androidConfigureAndStart, .stop, .getDeviceStruct,
            .setDeviceStruct:
            .app
        case .unknown:
            nil
        }
    }

    /// The payload bytes (everything after the ID byte).
    public var payload: [UInt8] {
        switch self {
        case .accessoryConfigurationData(let data): data.encoded()
        case .androidAccessoryConfigurationData(let data): data.encoded()
        case .accessoryUWBDidStart, .accessoryUWBDidStop, .initialize, .androidInitialize, .stop: []
        case .configureAndStart(let data): data.encoded()
        case .androidConfigureAndStart(let data): data.encoded()
        case .getDeviceStruct(let payload), .unknown(_, let payload): payload
        case .deviceStruct(let parameters), .setDeviceStruct(let parameters): parameters.encoded()
        case .setDeviceStructAck(let status): [status.rawValue]
        case .iOSNotify(let notification): notification.encoded()
        }
    }

    /// The whole message: ID byte then payload, ready for one ATT write or notification.
    public func encoded() -> [UInt8] {
        [id.rawValue] + payload
    }

    /// Decodes one message (ID byte and payload).
    ///
    /// Messages `0x01` and `0x0B` have a different payload in each dialect. The side that sent the
    /// initialize message knows the dialect and should pass it; with `dialect: nil` the payload
    /// length decides, since the two dialects' lengths never coincide:
    ///
    /// - `0x01`: byte 15 (Apple's uwbConfigDataLength, 19-64; Android's role bitmask, 1-3) decides:
    ///   an announced UWB config length → Apple ``AccessoryConfigurationData`` (an 18-byte one is
    ///   an Apple ACD cut short); otherwise 18 bytes → Android ``UWBDeviceConfigData``;
    ///   anything else → Apple (and its error). Android data with trailing bytes needs the
    ///   declared dialect.
    /// - `0x0B`: 14 bytes → Android ``UWBPhoneConfigData``; anything else → Apple
    ///   ``ShareableConfigurationData``.
    ///
    /// With an explicit dialect, a payload that is a well-formed length of the *other* dialect is
    /// reported as `dialectMismatch`; any other length is parsed in the given dialect (and so is
    /// reported as truncated or too long).
    ///
    /// - Throws: ``NIProtocolError`` with ``NIProtocolError/messageID`` set: `emptyMessage` for
    ///   zero bytes; `trailingBytes` for a payload on a message that has none (0x02, 0x03, 0x0A,
    ///   0x0C, 0xA5); `dialectMismatch`; every error of the payload parsers (a `0x21` that is not
    ///   exactly 33 payload bytes, a `0x22` that is not exactly 1). Unknown IDs never throw.
    ///
    /// `0x20` is Qorvo's getDeviceStruct both ways: a 33-byte payload is the accessory's answer
    /// (``deviceStruct(_:)``), any other the app's request (``getDeviceStruct(payload:)``).
    public init(decoding bytes: some Collection<UInt8>, dialect: NIDialect? = nil) throws(NIProtocolError) {
        let bytes = Array(bytes)
        guard let first = bytes.first else {
            throw NIProtocolError(structure: "message", reason: .emptyMessage)
        }
        let id = NIMessageID(rawValue: first)
        let payload = Array(bytes.dropFirst())
        do {
            self = try Self.decode(id: id, payload: payload, dialect: dialect)
        } catch {
            var error = error
            error.messageID = id
            throw error
        }
    }

    private static func decode(id: NIMessageID, payload: [UInt8], dialect: NIDialect?) throws(NIProtocolError)
        -> NIMessage
    {
        switch id {
        case .accessoryConfigurationData:
            let detected = detectedDialect(ofConfigurationPayload: payload)
            let automatic: NIDialect = detected ?? .apple
            switch try chooseDialect(
                declared: dialect, detected: detected, automatic: automatic, payload: payload, id: id)
            {
            case .apple: return .accessoryConfigurationData(try AccessoryConfigurationData(bytes: payload))
            case .android: return .androidAccessoryConfigurationData(try UWBDeviceConfigData(bytes: payload))
            }
        case .configureAndStart:
            let detected = detectedDialect(ofStartPayload: payload)
            let automatic: NIDialect = payload.count == UWBPhoneConfigData.byteCount ? .android : .apple
            switch try chooseDialect(
                declared: dialect, detected: detected, automatic: automatic, payload: payload, id: id)
            {
            case .apple: return .configureAndStart(try ShareableConfigurationData(bytes: payload))
            case .android: return .androidConfigureAndStart(try UWBPhoneConfigData(bytes: payload))
            }
        case .accessoryUWBDidStart, .accessoryUWBDidStop, .initialize, .androidInitialize, .stop:
            guard payload.isEmpty else {
                throw NIProtocolError(
                    structure: "\(id.name ?? "message") payload",
                    reason: .trailingBytes(expected: 0, got: payload.count))
            }
            switch id {
            case .accessoryUWBDidStart: return .accessoryUWBDidStart
            case .accessoryUWBDidStop: return .accessoryUWBDidStop
            case .initialize: return .initialize
            case .androidInitialize: return .androidInitialize
            default: return .stop
            }
        case .getDeviceStruct:
            if payload.count == QorvoDeviceParameters.byteCount {
                return .deviceStruct(try QorvoDeviceParameters(bytes: payload))
            }
            return .getDeviceStruct(payload: payload)
        case .setDeviceStruct:
            return .setDeviceStruct(try QorvoDeviceParameters(bytes: payload))
        case .setDeviceStructAck:
            guard payload.count == 1 else {
                throw NIProtocolError(
                    structure: "setDeviceStructAck payload",
                    reason: payload.isEmpty
                        ? .truncated(needed: 1, got: 0, isExact: true) : .trailingBytes(expected: 1, got: payload.count))
            }
            return .setDeviceStructAck(QorvoDeviceParametersStatus(rawValue: payload[0]))
        case .iOSNotify:
            return .iOSNotify(try AccessoryNotification(bytes: payload))
        default:
            return .unknown(id: id.rawValue, payload: payload)
        }
    }

    /// The declared dialect if any (rejecting a payload that is clearly the other dialect's),
    /// else the automatic choice.
    private static func chooseDialect(
        declared: NIDialect?, detected: NIDialect?, automatic: NIDialect, payload: [UInt8], id: NIMessageID
    ) throws(NIProtocolError) -> NIDialect {
        guard let declared else { return automatic }
        if let detected, detected != declared {
            throw NIProtocolError(
                structure: id.name ?? "message",
                reason: .dialectMismatch(expected: declared, found: detected, payloadLength: payload.count))
        }
        return declared
    }

    /// The dialect a `0x01` payload is well formed in, `nil` if neither. Byte 15 tells them
    /// apart: Apple's uwbConfigDataLength (19-64) or Android's role bitmask (1-3). An 18-byte
    /// payload announcing a UWB config length is an Apple ACD cut short, not Android data.
    private static func detectedDialect(ofConfigurationPayload payload: [UInt8]) -> NIDialect? {
        let header = AccessoryConfigurationData.headerByteCount
        guard payload.count >= header else { return nil }
        let announced = Int(payload[header - 1])
        if UWBConfigurationData.layout(forByteCount: announced) != nil {
            return payload.count >= header + announced || payload.count == UWBDeviceConfigData.byteCount ? .apple : nil
        }
        return payload.count == UWBDeviceConfigData.byteCount ? .android : nil
    }

    /// The dialect whose well-formed length a `0x0B` payload has, `nil` if neither (or both).
    private static func detectedDialect(ofStartPayload payload: [UInt8]) -> NIDialect? {
        let header = ShareableConfigurationData.headerByteCount
        let announcesShareableLength =
            payload.count >= header
            && ShareableConfigurationData.possibleByteCounts.contains(Int(payload[header - 1]) + header)
        if payload.count == UWBPhoneConfigData.byteCount {
            return announcesShareableLength ? nil : .android
        }
        if announcesShareableLength && payload.count == Int(payload[header - 1]) + header {
            return .apple
        }
        return nil
    }
}
