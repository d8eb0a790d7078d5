/// A UCI notification (MT 3), UWBS to host, unsolicited.
///
/// Route session notifications by ``session`` (the session ID in UCI 1.1, the handle in 2.0).
/// Notifications the codec does not type are kept raw: ``vendor(_:payload:)`` for vendor groups,
/// ``unknown(_:payload:)`` otherwise; a client logs them rather than dropping them.
public enum UCINotification: Sendable, Hashable {
    /// CORE_DEVICE_STATUS_NTF (0/01): the UWBS changed state (ERROR: reset it).
    case deviceStatus(UCIDeviceState)
    /// CORE_GENERIC_ERROR_NTF (0/07); status COMMAND_RETRY (0x0A) asks the host to resend the
    /// last command.
    case genericError(UCIStatus)
    /// SESSION_STATUS_NTF (1/02).
    case sessionStatus(session: UInt32, state: UCISessionState, reason: UCIReasonCode)
    /// SESSION_UPDATE_CONTROLLER_MULTICAST_LIST_NTF (1/07).
    case multicastListUpdate(UCIMulticastListUpdate)
    /// SESSION_INFO_NTF (2/00, 1.x RANGE_DATA_NTF): range data.
    case sessionInfo(UCISessionInfo)
    /// SESSION_DATA_CREDIT_NTF (2/04, UCI 2.0).
    case dataCredit(session: UInt32, availability: UCICreditAvailability)
    /// SESSION_DATA_TRANSFER_STATUS_NTF (2/05, UCI 2.0).
    case dataTransferStatus(UCIDataTransferStatus)
    /// A notification of a vendor-specific group, with its raw payload.
    case vendor(UCIOpcode, payload: [UInt8])
    /// A notification the codec does not know, with its raw payload.
    case unknown(UCIOpcode, payload: [UInt8])

    /// The notification's GID/OID.
    public var opcode: UCIOpcode {
        switch self {
        case .deviceStatus: .coreDeviceStatus
        case .genericError: .coreGenericError
        case .sessionStatus: .sessionStatus
        case .multicastListUpdate: .sessionUpdateMulticastList
        case .sessionInfo: .sessionInfo
        case .dataCredit: .sessionDataCredit
        case .dataTransferStatus: .sessionDataTransferStatus
        case .vendor(let opcode, _), .unknown(let opcode, _): opcode
        }
    }

    /// The notification's name: `"SESSION_STATUS_NTF"`.
    public var name: String { opcode.messageName(for: .notification) }

    /// The session the notification is about, if it is a session notification.
    public var session: UInt32? {
        switch self {
        case .sessionStatus(let s, _, _), .dataCredit(let s, _): s
        case .multicastListUpdate(let update): update.session
        case .sessionInfo(let info): info.session
        case .dataTransferStatus(let status): status.session
        default: nil
        }
    }

    /// The payload bytes.
    /// - Throws: ``UCIError/Code/invalidLength`` if a list has more than 255 entries, a UCI 1.1
    ///   multicast entry lacks its sub-session ID, or SESSION_INFO_NTF addresses do not match
    ///   its address indicator.
    public func encodePayload() throws(UCIError) -> [UInt8] {
        // SESSION_INFO_NTF (a ranging round) is its own payload: no second buffer to copy it into.
        if case .sessionInfo(let info) = self { return try info.encodePayload() }
        var w = ByteWriter(context: name)
        switch self {
        case .deviceStatus(let state): w.u8(state.rawValue)
        case .genericError(let status): w.u8(status.rawValue)
        case .sessionStatus(let s, let state, let reason):
            w.u32(s)
            w.u8(state.rawValue)
            w.u8(reason.rawValue)
        case .multicastListUpdate(let update):
            w.u32(update.session)
            if let remaining = update.remainingListSize { w.u8(remaining) }
            try w.count(update.controlees.count, "number of controlees")
            for (index, controlee) in update.controlees.enumerated() {
                w.u16(controlee.shortAddress)
                if update.remainingListSize != nil {
                    guard let subSession = controlee.subSessionID else {
                        throw UCIError(
                            .invalidLength, context: name, field: "controlee \(index + 1): sub-session ID",
                            detail: "the UCI 1.1 form (with a remaining list size) needs every controlee's sub-session ID")
                    }
                    w.u32(subSession)
                }
                w.u8(controlee.status.rawValue)
            }
        case .sessionInfo(let info): w.append(try info.encodePayload())
        case .dataCredit(let s, let availability):
            w.u32(s)
            w.u8(availability.rawValue)
        case .dataTransferStatus(let status):
            w.u32(status.session)
            if status.hasOneByteSequenceNumber {
                w.u8(UInt8(truncatingIfNeeded: status.sequenceNumber))
            } else {
                w.u16(status.sequenceNumber)
            }
            w.u8(status.status.rawValue)
            w.u8(status.transmitCount)
        case .vendor(_, let payload), .unknown(_, let payload): w.append(payload)
        }
        return w.bytes
    }

    /// The notification as a raw message, ready for ``UCISegmenter``.
    /// - Throws: the errors of ``encodePayload()``.
    public func rawMessage() throws(UCIError) -> UCIRawMessage {
        UCIRawMessage(messageType: .notification, opcode: opcode, payload: try encodePayload())
    }

    /// The notification's wire packets, segmented to `segmenter`'s control payload size.
    /// - Throws: the errors of ``encodePayload()``.
    public func packets(_ segmenter: UCISegmenter = UCISegmenter()) throws(UCIError) -> [UCIPacket] {
        segmenter.packets(for: try rawMessage())
    }

    /// The payload length of the fixed-length notifications: CORE_DEVICE_STATUS_NTF 1,
    /// CORE_GENERIC_ERROR_NTF 1, SESSION_STATUS_NTF 6, DATA_CREDIT_NTF 5; `nil` for the others.
    /// Bytes beyond it are ignored when decoding (a firmware that appends vendor bytes still
    /// reports its state), so a reader can log them.
    public static func fixedPayloadLength(of opcode: UCIOpcode) -> Int? {
        switch opcode {
        case .coreDeviceStatus, .coreGenericError: 1
        case .sessionStatus: 6
        case .sessionDataCredit: 5
        default: nil
        }
    }

    /// Decodes a notification from its GID/OID and payload.
    /// - Parameters:
    ///   - opcode: the group and opcode identifiers (GID/OID).
    ///   - payload: the reassembled payload bytes.
    ///   - version: the UWBS's UCI version; used only for the multicast-list
    ///     notification when its bytes fit both the 1.1 and the 2.0 layout.
    /// - Throws: ``UCIError`` naming the notification and field if the payload is truncated, too
    ///   long (except the fixed-length ones of ``fixedPayloadLength(of:)``, whose extra bytes are
    ///   ignored), or holds an invalid value.
    public init(opcode: UCIOpcode, payload: ArraySlice<UInt8>, version: UCIVersion = .v2_0) throws(UCIError) {
        var r = UCIFieldReader(payload, context: opcode.messageName(for: .notification))
        switch opcode {
        case .coreDeviceStatus: self = .deviceStatus(UCIDeviceState(rawValue: try r.u8("device state")))
        case .coreGenericError: self = .genericError(UCIStatus(rawValue: try r.u8("status")))
        case .sessionStatus:
            self = .sessionStatus(
                session: try r.u32("session"), state: UCISessionState(rawValue: try r.u8("session state")),
                reason: UCIReasonCode(rawValue: try r.u8("reason code")))
        case .sessionUpdateMulticastList:
            self = .multicastListUpdate(try Self.decodeMulticast(payload, version: version))
            return
        case .sessionInfo:
            self = .sessionInfo(try UCISessionInfo(payload: payload))
            return
        case .sessionDataCredit:
            self = .dataCredit(session: try r.u32("session"), availability: UCICreditAvailability(rawValue: try r.u8("credit availability")))
        case .sessionDataTransferStatus:
            let session = try r.u32("session")
            let oneByte = r.remaining == 3
            let sequence = oneByte ? UInt16(try r.u8("sequence number")) : try r.u16("sequence number")
            self = .dataTransferStatus(
                UCIDataTransferStatus(
                    session: session, sequenceNumber: sequence, status: UCIDataTransferStatusCode(rawValue: try r.u8("status")),
                    transmitCount: try r.u8("transmit count"), hasOneByteSequenceNumber: oneByte))
        default:
            self = opcode.gid.isVendorSpecific ? .vendor(opcode, payload: r.rest()) : .unknown(opcode, payload: r.rest())
        }
        if Self.fixedPayloadLength(of: opcode) != nil { return }
        try r.expectEnd()
    }

    /// Decodes a notification from its GID/OID and payload; see
    /// ``init(opcode:payload:version:)-(_,ArraySlice<UInt8>,_)``.
    public init(opcode: UCIOpcode, payload: [UInt8], version: UCIVersion = .v2_0) throws(UCIError) {
        try self.init(opcode: opcode, payload: payload[...], version: version)
    }

    /// Picks the multicast notification layout: the version's if the length fits it, else the
    /// other one if that fits (pica sends the 1.1 form while reporting 2.0).
    private static func decodeMulticast(_ payload: ArraySlice<UInt8>, version: UCIVersion) throws(UCIError) -> UCIMulticastListUpdate {
        let context = UCIOpcode.sessionUpdateMulticastList.messageName(for: .notification)
        let s = payload.startIndex
        let fits1 = payload.count >= 6 && payload.count == 6 + 7 * Int(payload[s + 5])
        let fits2 = payload.count >= 5 && payload.count == 5 + 3 * Int(payload[s + 4])
        let useVersion1: Bool
        switch (fits1, fits2) {
        case (true, true): useVersion1 = !version.usesVersion2Layout
        case (true, false): useVersion1 = true
        case (false, true): useVersion1 = false
        case (false, false):
            throw UCIError(
                .invalidLength, context: context,
                detail: "payload of \(payload.count) bytes fits neither the UCI 1.1 layout (session, remaining, n, "
                    + "n × {address, sub-session, status}) nor the 2.0 layout (session, n, n × {address, status})")
        }
        var r = UCIFieldReader(payload, context: context)
        let session = try r.u32("session")
        let remaining = useVersion1 ? try r.u8("remaining list size") : nil
        let count = Int(try r.u8("number of controlees"))
        var controlees: [UCIControleeStatus] = []
        for index in 0..<count {
            let address = try r.u16("controlee \(index + 1): short address")
            let subSession = useVersion1 ? try r.u32("controlee \(index + 1): sub-session ID") : nil
            let status = UCIMulticastUpdateStatus(rawValue: try r.u8("controlee \(index + 1): status"))
            controlees.append(UCIControleeStatus(shortAddress: address, subSessionID: subSession, status: status))
        }
        try r.expectEnd()
        return UCIMulticastListUpdate(session: session, remainingListSize: remaining, controlees: controlees)
    }
}
