import NearbyBase

/// A UCI response (MT 2), UWBS to host: the answer to the one outstanding command, with the same
/// GID/OID (``opcode``).
///
/// Every response starts with a status (``status``). When a command that normally returns more
/// fails, a UWBS may send only the status byte: that decodes as ``statusOnly(_:_:)`` (never for
/// a status of OK). Responses the codec does not type are kept raw: ``vendor(_:payload:)`` for
/// vendor groups, ``unknown(_:payload:)`` otherwise.
public enum UCIResponse: Sendable, Hashable {
    /// CORE_DEVICE_RESET_RSP.
    case deviceReset(UCIStatus)
    /// CORE_GET_DEVICE_INFO_RSP.
    case getDeviceInfo(UCIStatus, UCIDeviceInfo)
    /// CORE_GET_CAPS_INFO_RSP: the capability TLVs as reported; interpret them with
    /// ``UCICapabilities``.
    case getCapabilities(UCIStatus, [UCICapability])
    /// CORE_SET_CONFIG_RSP: the parameters the UWBS refused.
    case setDeviceConfig(UCIStatus, [UCIDeviceConfigStatus])
    /// CORE_GET_CONFIG_RSP.
    case getDeviceConfig(UCIStatus, [UCIDeviceConfig])
    /// CORE_QUERY_UWBS_TIMESTAMP_RSP (UCI 2.0): the UWBS clock in microseconds.
    case queryUWBSTimestamp(UCIStatus, microseconds: UInt64)
    /// SESSION_INIT_RSP: UCI 1.1 sends only the status (`sessionHandle` is `nil`; the session
    /// ID is the token); UCI 2.0 adds the session handle to use in every later command. The form
    /// is chosen by payload length (1 or 5 bytes), as AOSP does; pica sends the 1.1 form even
    /// though it reports UCI 2.0.
    case sessionInit(UCIStatus, sessionHandle: UInt32?)
    /// SESSION_DEINIT_RSP.
    case sessionDeinit(UCIStatus)
    /// SESSION_SET_APP_CONFIG_RSP: the parameters the UWBS refused.
    case setAppConfig(UCIStatus, [UCIAppConfigStatus])
    /// SESSION_GET_APP_CONFIG_RSP.
    case getAppConfig(UCIStatus, [UCIAppConfig])
    /// SESSION_GET_COUNT_RSP: the number of sessions.
    case getSessionCount(UCIStatus, count: UInt8)
    /// SESSION_GET_STATE_RSP.
    case getSessionState(UCIStatus, UCISessionState)
    /// SESSION_UPDATE_CONTROLLER_MULTICAST_LIST_RSP: UCI 1.1 sends only the status
    /// (`controlees` is `nil`); UCI 2.0 adds per-controlee results. Chosen by payload length.
    case updateMulticastList(UCIStatus, controlees: [UCIControleeStatus]?)
    /// SESSION_START_RSP.
    case sessionStart(UCIStatus)
    /// SESSION_STOP_RSP.
    case sessionStop(UCIStatus)
    /// SESSION_GET_RANGING_COUNT_RSP: ranging rounds since SESSION_START.
    case getRangingCount(UCIStatus, count: UInt32)
    /// ANDROID_SET_COUNTRY_CODE_RSP.
    case setCountryCode(UCIStatus)
    /// A failure response carrying only its (non-OK) status, for a command whose success
    /// response has more fields.
    case statusOnly(UCIOpcode, UCIStatus)
    /// A response of a vendor-specific group, with its raw payload.
    case vendor(UCIOpcode, payload: [UInt8])
    /// A response the codec does not know, with its raw payload.
    case unknown(UCIOpcode, payload: [UInt8])

    /// The GID/OID, the same as the command's.
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
        case .statusOnly(let opcode, _), .vendor(let opcode, _), .unknown(let opcode, _): opcode
        }
    }

    /// The response's name: `"SESSION_INIT_RSP"`.
    public var name: String { opcode.messageName(for: .response) }

    /// The status: the first payload byte. `nil` only for a vendor or unknown response with an
    /// empty payload.
    public var status: UCIStatus? {
        switch self {
        case .deviceReset(let s), .getDeviceInfo(let s, _), .getCapabilities(let s, _), .setDeviceConfig(let s, _),
            .getDeviceConfig(let s, _), .queryUWBSTimestamp(let s, _), .sessionInit(let s, _), .sessionDeinit(let s),
            .setAppConfig(let s, _), .getAppConfig(let s, _), .getSessionCount(let s, _), .getSessionState(let s, _),
            .updateMulticastList(let s, _), .sessionStart(let s), .sessionStop(let s), .getRangingCount(let s, _),
            .setCountryCode(let s), .statusOnly(_, let s):
            s
        case .vendor(_, let payload), .unknown(_, let payload):
            payload.first.map(UCIStatus.init(rawValue:))
        }
    }

    /// The payload bytes.
    /// - Throws: ``UCIError/Code/invalidLength`` if a list has more than 255 entries or a TLV
    ///   value more than 255 bytes; ``UCIError/Code/invalidValue`` for a ``statusOnly(_:_:)``
    ///   with status OK.
    public func encodePayload() throws(UCIError) -> [UInt8] {
        var w = ByteWriter(context: name)
        switch self {
        case .deviceReset(let s), .sessionDeinit(let s), .sessionStart(let s), .sessionStop(let s), .setCountryCode(let s):
            w.u8(s.rawValue)
        case .getDeviceInfo(let s, let info):
            w.u8(s.rawValue)
            for version in [info.uciVersion, info.macVersion, info.phyVersion, info.testVersion] { w.u16(version.rawValue) }
            try w.count(info.vendorInfo.count, "vendor information length")
            w.append(info.vendorInfo)
        case .getCapabilities(let s, let capabilities):
            w.u8(s.rawValue)
            try w.count(capabilities.count, "number of capabilities")
            for capability in capabilities {
                try w.tlv(capability.id, capability.value, "capability \(Hex.prefixed(capability.id))")
            }
        case .setDeviceConfig(let s, let results):
            w.u8(s.rawValue)
            try w.count(results.count, "number of parameters")
            for result in results {
                w.u8(result.id.rawValue)
                w.u8(result.status.rawValue)
            }
        case .getDeviceConfig(let s, let configs):
            w.u8(s.rawValue)
            try UCIDeviceConfig.encodeList(configs, into: &w)
        case .queryUWBSTimestamp(let s, let time):
            w.u8(s.rawValue)
            w.u64(time)
        case .sessionInit(let s, let handle):
            w.u8(s.rawValue)
            if let handle { w.u32(handle) }
        case .setAppConfig(let s, let results):
            w.u8(s.rawValue)
            try w.count(results.count, "number of parameters")
            for result in results {
                w.u8(result.id.rawValue)
                w.u8(result.status.rawValue)
            }
        case .getAppConfig(let s, let configs):
            w.u8(s.rawValue)
            try UCIAppConfig.encodeList(configs, into: &w)
        case .getSessionCount(let s, let count):
            w.u8(s.rawValue)
            w.u8(count)
        case .getSessionState(let s, let state):
            w.u8(s.rawValue)
            w.u8(state.rawValue)
        case .updateMulticastList(let s, let controlees):
            w.u8(s.rawValue)
            if let controlees {
                try w.count(controlees.count, "number of controlees")
                for controlee in controlees {
                    w.u16(controlee.shortAddress)
                    w.u8(controlee.status.rawValue)
                }
            }
        case .getRangingCount(let s, let count):
            w.u8(s.rawValue)
            w.u32(count)
        case .statusOnly(_, let s):
            guard !s.isOK else {
                throw UCIError(
                    .invalidValue, context: name, field: "status",
                    detail: "a status-only response must report a failure, not OK; use the typed response")
            }
            w.u8(s.rawValue)
        case .vendor(_, let payload), .unknown(_, let payload):
            w.append(payload)
        }
        return w.bytes
    }

    /// The response as a raw message, ready for ``UCISegmenter``.
    /// - Throws: the errors of ``encodePayload()``.
    public func rawMessage() throws(UCIError) -> UCIRawMessage {
        UCIRawMessage(messageType: .response, opcode: opcode, payload: try encodePayload())
    }

    /// The response's wire packets, segmented to `segmenter`'s control payload size.
    /// - Throws: the errors of ``encodePayload()``.
    public func packets(_ segmenter: UCISegmenter = UCISegmenter()) throws(UCIError) -> [UCIPacket] {
        segmenter.packets(for: try rawMessage())
    }

    /// Decodes a response from its GID/OID and payload.
    /// - Throws: ``UCIError`` naming the response and field if the payload is truncated, too long,
    ///   or holds an invalid value.
    public init(opcode: UCIOpcode, payload: ArraySlice<UInt8>) throws(UCIError) {
        let context = opcode.messageName(for: .response)
        guard Self.isTyped(opcode) else {
            self = opcode.gid.isVendorSpecific ? .vendor(opcode, payload: Array(payload)) : .unknown(opcode, payload: Array(payload))
            return
        }
        var r = UCIFieldReader(payload, context: context)
        let status = UCIStatus(rawValue: try r.u8("status"))
        if r.isAtEnd, !status.isOK, Self.hasMoreThanStatus(opcode) {
            self = .statusOnly(opcode, status)
            return
        }
        switch opcode {
        case .coreDeviceReset: self = .deviceReset(status)
        case .coreGetDeviceInfo:
            let uci = UCIVersion(rawValue: try r.u16("UCI version"))
            let mac = UCIVersion(rawValue: try r.u16("MAC version"))
            let phy = UCIVersion(rawValue: try r.u16("PHY version"))
            let test = UCIVersion(rawValue: try r.u16("UCI test version"))
            let vendorLength = Int(try r.u8("vendor information length"))
            let vendor = try r.bytes(vendorLength, "vendor information")
            self = .getDeviceInfo(status, UCIDeviceInfo(uciVersion: uci, macVersion: mac, phyVersion: phy, testVersion: test, vendorInfo: vendor))
        case .coreGetCapsInfo:
            let count = Int(try r.u8("number of capabilities"))
            var capabilities: [UCICapability] = []
            for index in 0..<count {
                let tlv = try r.tlv(index, of: count, entry: "capability", typeField: "type")
                capabilities.append(UCICapability(id: tlv.type, value: Array(tlv.value)))
            }
            self = .getCapabilities(status, capabilities)
        case .coreSetConfig:
            let count = Int(try r.u8("number of parameters"))
            var results: [UCIDeviceConfigStatus] = []
            for index in 0..<count {
                let id = UCIDeviceConfigID(rawValue: try r.u8("parameter \(index + 1): identifier"))
                results.append(UCIDeviceConfigStatus(id: id, status: UCIStatus(rawValue: try r.u8("\(id): status"))))
            }
            self = .setDeviceConfig(status, results)
        case .coreGetConfig:
            self = .getDeviceConfig(status, try UCIDeviceConfig.decodeList(&r, count: Int(try r.u8("number of parameters"))))
        case .coreQueryUWBSTimestamp: self = .queryUWBSTimestamp(status, microseconds: try r.u64("timestamp"))
        case .sessionInit:
            switch r.remaining {
            case 0: self = .sessionInit(status, sessionHandle: nil)
            case 4: self = .sessionInit(status, sessionHandle: try r.u32("session handle"))
            default:
                throw UCIError(
                    .invalidLength, context: context,
                    detail: "payload of \(payload.count) bytes, expected 1 (UCI 1.1: status) or 5 (UCI 2.0: status, session handle)")
            }
        case .sessionDeinit: self = .sessionDeinit(status)
        case .sessionSetAppConfig:
            let count = Int(try r.u8("number of parameters"))
            var results: [UCIAppConfigStatus] = []
            for index in 0..<count {
                let id = UCIAppConfigID(rawValue: try r.u8("parameter \(index + 1): identifier"))
                results.append(UCIAppConfigStatus(id: id, status: UCIStatus(rawValue: try r.u8("\(id): status"))))
            }
            self = .setAppConfig(status, results)
        case .sessionGetAppConfig:
            self = .getAppConfig(status, try UCIAppConfig.decodeList(&r, count: Int(try r.u8("number of parameters"))))
        case .sessionGetCount: self = .getSessionCount(status, count: try r.u8("session count"))
        case .sessionGetState: self = .getSessionState(status, UCISessionState(rawValue: try r.u8("session state")))
        case .sessionUpdateMulticastList:
            if r.isAtEnd {
                self = .updateMulticastList(status, controlees: nil)
            } else {
                let count = Int(try r.u8("number of controlees"))
                var controlees: [UCIControleeStatus] = []
                for index in 0..<count {
                    let address = try r.u16("controlee \(index + 1): short address")
                    let result = UCIMulticastUpdateStatus(rawValue: try r.u8("controlee \(index + 1): status"))
                    controlees.append(UCIControleeStatus(shortAddress: address, status: result))
                }
                self = .updateMulticastList(status, controlees: controlees)
            }
        case .sessionStart: self = .sessionStart(status)
        case .sessionStop: self = .sessionStop(status)
        case .sessionGetRangingCount: self = .getRangingCount(status, count: try r.u32("ranging count"))
        case .androidSetCountryCode: self = .setCountryCode(status)
        default:
            // Every typed opcode has a case above; keep anything else raw rather than guess.
            self = .unknown(opcode, payload: Array(payload))
            return
        }
        try r.expectEnd()
    }

    /// Decodes a response from its GID/OID and payload; see
    /// ``init(opcode:payload:)-(_,ArraySlice<UInt8>)``.
    public init(opcode: UCIOpcode, payload: [UInt8]) throws(UCIError) {
        try self.init(opcode: opcode, payload: payload[...])
    }

    private static let typedOpcodes: Set<UCIOpcode> = [
        .coreDeviceReset, .coreGetDeviceInfo, .coreGetCapsInfo, .coreSetConfig, .coreGetConfig, .coreQueryUWBSTimestamp,
        .sessionInit, .sessionDeinit, .sessionSetAppConfig, .sessionGetAppConfig, .sessionGetCount, .sessionGetState,
        .sessionUpdateMulticastList, .sessionStart, .sessionStop, .sessionGetRangingCount, .androidSetCountryCode,
    ]

    private static func isTyped(_ opcode: UCIOpcode) -> Bool { typedOpcodes.contains(opcode) }

    /// Whether the success response of `opcode` has fields after the status (the 1.1 forms of
    /// SESSION_INIT and the multicast update have none, so they never decode as status-only).
    private static func hasMoreThanStatus(_ opcode: UCIOpcode) -> Bool {
        switch opcode {
        case .coreDeviceReset, .sessionInit, .sessionDeinit, .sessionUpdateMulticastList, .sessionStart, .sessionStop,
            .androidSetCountryCode:
            false
        default: true
        }
    }
}
