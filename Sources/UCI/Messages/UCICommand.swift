import NearbyBase

/// A UCI command (MT 1), host to UWBS.
///
/// `session` is the session ID in UCI 1.1 and the session handle SESSION_INIT_RSP returned in
/// UCI 2.0 (only SESSION_INIT itself takes the ID). Commands the codec does not type are kept
/// with their raw payload: ``vendor(_:payload:)`` for the vendor groups (0x9-0xC, 0xE-0xF),
/// ``unknown(_:payload:)`` for the others.
public enum UCICommand: Sendable, Hashable {
    /// CORE_DEVICE_RESET_CMD (0/00); the reset configuration is 0 (UWBS reset).
    case deviceReset(resetConfig: UInt8 = 0)
    /// CORE_GET_DEVICE_INFO_CMD (0/02).
    case getDeviceInfo
    /// CORE_GET_CAPS_INFO_CMD (0/03).
    case getCapabilities
    /// CORE_SET_CONFIG_CMD (0/04).
    case setDeviceConfig([UCIDeviceConfig])
    /// CORE_GET_CONFIG_CMD (0/05).
    case getDeviceConfig([UCIDeviceConfigID])
    /// CORE_QUERY_UWBS_TIMESTAMP_CMD (0/08, UCI 2.0).
    case queryUWBSTimestamp
    /// SESSION_INIT_CMD (1/00): creates a session with a host-chosen ID.
    case sessionInit(sessionID: UInt32, type: UCISessionType)
    /// SESSION_DEINIT_CMD (1/01).
    case sessionDeinit(session: UInt32)
    /// SESSION_SET_APP_CONFIG_CMD (1/03). The UWBS applies parameters in order (pica: put
    /// MAC_ADDRESS_MODE before DEVICE_MAC_ADDRESS and NUMBER_OF_CONTROLEES before DST_MAC_ADDRESS).
    case setAppConfig(session: UInt32, configs: [UCIAppConfig])
    /// SESSION_GET_APP_CONFIG_CMD (1/04); an empty list asks for every parameter.
    case getAppConfig(session: UInt32, ids: [UCIAppConfigID])
    /// SESSION_GET_COUNT_CMD (1/05).
    case getSessionCount
    /// SESSION_GET_STATE_CMD (1/06).
    case getSessionState(session: UInt32)
    /// SESSION_UPDATE_CONTROLLER_MULTICAST_LIST_CMD (1/07). Each controlee's key must be as long
    /// as the action requires (``UCIMulticastAction/subSessionKeyLength``).
    case updateMulticastList(session: UInt32, action: UCIMulticastAction, controlees: [UCIControlee])
    /// SESSION_START_CMD (2/00, 1.x RANGE_START).
    case sessionStart(session: UInt32)
    /// SESSION_STOP_CMD (2/01, 1.x RANGE_STOP).
    case sessionStop(session: UInt32)
    /// SESSION_GET_RANGING_COUNT_CMD (2/03).
    case getRangingCount(session: UInt32)
    /// ANDROID_SET_COUNTRY_CODE_CMD (0xC/01): two ASCII letters, for example `"US"`.
    case setCountryCode(String)
    /// A command of a vendor-specific group, with its raw payload.
    case vendor(UCIOpcode, payload: [UInt8])
    /// A command the codec does not know, with its raw payload.
    case unknown(UCIOpcode, payload: [UInt8])

    /// The command's GID/OID; its response carries the same.
    public var opcode: UCIOpcode {
        switch self {
        case .deviceReset: .coreDeviceReset
        case .getDeviceInfo: .coreGetDeviceInfo
        case .getCapabilities: .coreGetCapsInfo
        case .setDeviceConfig: .coreSetConfig
        case .getDeviceConfig: .coreGetConfig
        case .queryUWBSTimestamp: .coreQueryUWBSTimestamp
        case .sessionInit: .sessionInit
        case .sessionDeinit: .sessionDeinit
        case .setAppConfig: .sessionSetAppConfig
        case .getAppConfig: .sessionGetAppConfig
        case .getSessionCount: .sessionGetCount
        case .getSessionState: .sessionGetState
        case .updateMulticastList: .sessionUpdateMulticastList
        case .sessionStart: .sessionStart
        case .sessionStop: .sessionStop
        case .getRangingCount: .sessionGetRangingCount
        case .setCountryCode: .androidSetCountryCode
        case .vendor(let opcode, _), .unknown(let opcode, _): opcode
        }
    }

    /// The command's name: `"SESSION_INIT_CMD"`.
    public var name: String { opcode.messageName(for: .command) }

    /// The session this command addresses, if any (not for SESSION_INIT, whose ID is not yet a
    /// handle in UCI 2.0).
    public var session: UInt32? {
        switch self {
        case .sessionDeinit(let s), .setAppConfig(let s, _), .getAppConfig(let s, _), .getSessionState(let s),
            .updateMulticastList(let s, _, _), .sessionStart(let s), .sessionStop(let s), .getRangingCount(let s):
            s
        default: nil
        }
    }

    /// The payload bytes.
    /// - Throws: ``UCIError/Code/invalidLength`` if a list has more than 255 entries, a TLV value
    ///   more than 255 bytes, a sub-session key the wrong length for the action, or a country
    ///   code is not two ASCII characters.
    public func encodePayload() throws(UCIError) -> [UInt8] {
        var w = ByteWriter(context: name)
        switch self {
        case .deviceReset(let config): w.u8(config)
        case .getDeviceInfo, .getCapabilities, .queryUWBSTimestamp, .getSessionCount: break
        case .setDeviceConfig(let configs): try UCIDeviceConfig.encodeList(configs, into: &w)
        case .getDeviceConfig(let ids):
            try w.count(ids.count, "number of parameters")
            for id in ids { w.u8(id.rawValue) }
        case .sessionInit(let id, let type):
            w.u32(id)
            w.u8(type.rawValue)
        case .sessionDeinit(let s), .getSessionState(let s), .sessionStart(let s), .sessionStop(let s), .getRangingCount(let s):
            w.u32(s)
        case .setAppConfig(let s, let configs):
            w.u32(s)
            try UCIAppConfig.encodeList(configs, into: &w)
        case .getAppConfig(let s, let ids):
            w.u32(s)
            try w.count(ids.count, "number of parameters")
            for id in ids { w.u8(id.rawValue) }
        case .updateMulticastList(let s, let action, let controlees):
            w.u32(s)
            w.u8(action.rawValue)
            try w.count(controlees.count, "number of controlees")
            for (index, controlee) in controlees.enumerated() {
                guard controlee.subSessionKey.count == action.subSessionKeyLength else {
                    throw UCIError(
                        .invalidLength, context: name, field: "controlee \(index + 1): sub-session key",
                        detail: "\(controlee.subSessionKey.count) bytes, but action \(action) needs "
                            + "\(action.subSessionKeyLength)")
                }
                w.u16(controlee.shortAddress)
                w.u32(controlee.subSessionID)
                w.append(controlee.subSessionKey)
            }
        case .setCountryCode(let code):
            let bytes = Array(code.utf8)
            guard bytes.count == 2, bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw UCIError(
                    .invalidLength, context: name, field: "country code",
                    detail: "\"\(code)\" is not two ASCII characters (ISO 3166 alpha-2, for example \"US\")")
            }
            w.append(bytes)
        case .vendor(_, let payload), .unknown(_, let payload): w.append(payload)
        }
        return w.bytes
    }

    /// The command as a raw message, ready for ``UCISegmenter``.
    /// - Throws: the errors of ``encodePayload()``.
    public func rawMessage() throws(UCIError) -> UCIRawMessage {
        UCIRawMessage(messageType: .command, opcode: opcode, payload: try encodePayload())
    }

    /// The command's wire packets, segmented to `segmenter`'s control payload size.
    /// - Throws: the errors of ``encodePayload()``.
    public func packets(_ segmenter: UCISegmenter = UCISegmenter()) throws(UCIError) -> [UCIPacket] {
        segmenter.packets(for: try rawMessage())
    }

    /// Decodes a command from its GID/OID and payload.
    /// - Throws: ``UCIError`` naming the command and field if the payload is truncated, too long,
    ///   or holds an invalid value.
    public init(opcode: UCIOpcode, payload: ArraySlice<UInt8>) throws(UCIError) {
        var r = UCIFieldReader(payload, context: opcode.messageName(for: .command))
        switch opcode {
        case .coreDeviceReset: self = .deviceReset(resetConfig: try r.u8("reset configuration"))
        case .coreGetDeviceInfo: self = .getDeviceInfo
        case .coreGetCapsInfo: self = .getCapabilities
        case .coreSetConfig:
            self = .setDeviceConfig(try UCIDeviceConfig.decodeList(&r, count: Int(try r.u8("number of parameters"))))
        case .coreGetConfig:
            let count = Int(try r.u8("number of parameters"))
            self = .getDeviceConfig(try r.bytes(count, "parameter identifiers").map(UCIDeviceConfigID.init(rawValue:)))
        case .coreQueryUWBSTimestamp: self = .queryUWBSTimestamp
        case .sessionInit:
            self = .sessionInit(sessionID: try r.u32("session ID"), type: UCISessionType(rawValue: try r.u8("session type")))
        case .sessionDeinit: self = .sessionDeinit(session: try r.u32("session"))
        case .sessionSetAppConfig:
            let session = try r.u32("session")
            let count = Int(try r.u8("number of parameters"))
            self = .setAppConfig(session: session, configs: try UCIAppConfig.decodeList(&r, count: count))
        case .sessionGetAppConfig:
            let session = try r.u32("session")
            let count = Int(try r.u8("number of parameters"))
            self = .getAppConfig(session: session, ids: try r.bytes(count, "parameter identifiers").map(UCIAppConfigID.init(rawValue:)))
        case .sessionGetCount: self = .getSessionCount
        case .sessionGetState: self = .getSessionState(session: try r.u32("session"))
        case .sessionUpdateMulticastList:
            let session = try r.u32("session")
            let action = UCIMulticastAction(rawValue: try r.u8("action"))
            let count = Int(try r.u8("number of controlees"))
            var controlees: [UCIControlee] = []
            for index in 0..<count {
                let address = try r.u16("controlee \(index + 1): short address")
                let subSession = try r.u32("controlee \(index + 1): sub-session ID")
                let key = try r.bytes(action.subSessionKeyLength, "controlee \(index + 1): sub-session key")
                controlees.append(UCIControlee(shortAddress: address, subSessionID: subSession, subSessionKey: key))
            }
            self = .updateMulticastList(session: session, action: action, controlees: controlees)
        case .sessionStart: self = .sessionStart(session: try r.u32("session"))
        case .sessionStop: self = .sessionStop(session: try r.u32("session"))
        case .sessionGetRangingCount: self = .getRangingCount(session: try r.u32("session"))
        case .androidSetCountryCode:
            let bytes = try r.bytes(2, "country code")
            guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw UCIError(
                    .invalidValue, context: r.context, field: "country code",
                    detail: "bytes \(Hex.bytes(bytes)) are not two ASCII characters")
            }
            self = .setCountryCode(String(decoding: bytes, as: UTF8.self))
        default:
            self = opcode.gid.isVendorSpecific ? .vendor(opcode, payload: r.rest()) : .unknown(opcode, payload: r.rest())
        }
        try r.expectEnd()
    }

    /// Decodes a command from its GID/OID and payload; see
    /// ``init(opcode:payload:)-(_,ArraySlice<UInt8>)``.
    public init(opcode: UCIOpcode, payload: [UInt8]) throws(UCIError) {
        try self.init(opcode: opcode, payload: payload[...])
    }
}
