import Testing
import UCI

/// Every message type in both directions: encoded bytes, decoded values, byte-exact round trip.
@Suite("UCI messages")
struct MessageTests {
    static let key16 = (0..<16).map { UInt8($0) }

    static let vectors: [(message: UCIMessage, wire: String)] = [
        // Commands
        (.command(.getDeviceInfo), "20 02 00 00"),
        (.command(.getCapabilities), "20 03 00 00"),
        (.command(.setDeviceConfig([.lowPowerMode(true)])), "20 04 00 04 01 01 01 01"),
        (.command(.getDeviceConfig([.deviceState, .lowPowerMode])), "20 05 00 03 02 00 01"),
        (.command(.queryUWBSTimestamp), "20 08 00 00"),
        (.command(.sessionDeinit(session: 0x0102_0304)), "21 01 00 04 04 03 02 01"),
        (.command(.getAppConfig(session: 1, ids: [.rangingDuration, .deviceMACAddress])), "21 04 00 07 01 00 00 00 02 09 06"),
        (.command(.getSessionCount), "21 05 00 00"),
        (.command(.getSessionState(session: 2)), "21 06 00 04 02 00 00 00"),
        (
            .command(.updateMulticastList(session: 1, action: .add, controlees: [UCIControlee(shortAddress: 0x0A0B, subSessionID: 0x1122_3344)])),
            "21 07 00 0c 01 00 00 00 00 01 0b 0a 44 33 22 11"
        ),
        (
            .command(
                .updateMulticastList(
                    session: 1, action: .addWithShortSubSessionKey,
                    controlees: [UCIControlee(shortAddress: 0x0A0B, subSessionID: 2, subSessionKey: key16)])),
            "21 07 00 1c 01 00 00 00 02 01 0b 0a 02 00 00 00 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f"
        ),
        (.command(.sessionStop(session: 1)), "22 01 00 04 01 00 00 00"),
        (.command(.getRangingCount(session: 1)), "22 03 00 04 01 00 00 00"),
        (.command(.setCountryCode("US")), "2c 01 00 02 55 53"),
        (.command(.vendor(UCIOpcode(gid: UCIGroupID(rawValue: 0xE), oid: 1), payload: [1, 2])), "2e 01 00 02 01 02"),
        (.command(.unknown(UCIOpcode(gid: .test, oid: 2), payload: [9])), "2d 02 00 01 09"),
        // Responses
        (.response(.deviceReset(.ok)), "40 00 00 01 00"),
        (
            .response(
                .getDeviceInfo(
                    .ok, UCIDeviceInfo(uciVersion: .v1_1, macVersion: .v1_1, phyVersion: .v1_1, testVersion: .v1_1, vendorInfo: [0xAA, 0xBB]))),
            "40 02 00 0c 00 01 10 01 10 01 10 01 10 02 aa bb"
        ),
        (
            .response(.getCapabilities(.ok, [UCICapability(id: 0x13, value: [0xFF, 0x00]), UCICapability(id: 0x0B, value: [0x09])])),
            "40 03 00 09 00 02 13 02 ff 00 0b 01 09"
        ),
        (.response(.setDeviceConfig(.invalidParameter, [UCIDeviceConfigStatus(id: .lowPowerMode, status: .invalidRange)])), "40 04 00 04 04 01 01 05"),
        (.response(.getDeviceConfig(.ok, [.deviceState(.ready)])), "40 05 00 05 00 01 00 01 01"),
        (.response(.queryUWBSTimestamp(.ok, microseconds: 0x0102_0304_0506_0708)), "40 08 00 09 00 08 07 06 05 04 03 02 01"),
        (.response(.sessionInit(.ok, sessionHandle: nil)), "41 00 00 01 00"),
        (.response(.sessionInit(.ok, sessionHandle: 0x0A0B_0C0D)), "41 00 00 05 00 0d 0c 0b 0a"),
        (.response(.sessionDeinit(.sessionNotExist)), "41 01 00 01 11"),
        (.response(.setAppConfig(.invalidParameter, [UCIAppConfigStatus(id: .rangingDuration, status: .invalidRange)])), "41 03 00 04 04 01 09 05"),
        (.response(.getAppConfig(.ok, [.channelNumber(9)])), "41 04 00 05 00 01 04 01 09"),
        (.response(.getSessionCount(.ok, count: 2)), "41 05 00 02 00 02"),
        (.response(.getSessionState(.ok, .active)), "41 06 00 02 00 02"),
        (.response(.updateMulticastList(.ok, controlees: nil)), "41 07 00 01 00"),
        (.response(.updateMulticastList(.failed, controlees: [UCIControleeStatus(shortAddress: 0x0A0B, status: .listFull)])), "41 07 00 05 02 01 0b 0a 01"),
        (.response(.sessionStart(.ok)), "42 00 00 01 00"),
        (.response(.sessionStop(.sessionNotExist)), "42 01 00 01 11"),
        (.response(.getRangingCount(.ok, count: 0x0102_0304)), "42 03 00 05 00 04 03 02 01"),
        (.response(.setCountryCode(.ok)), "4c 01 00 01 00"),
        (.response(.statusOnly(.coreGetDeviceInfo, .failed)), "40 02 00 01 02"),
        (.response(.vendor(UCIOpcode(gid: UCIGroupID(rawValue: 0xE), oid: 1), payload: [0])), "4e 01 00 01 00"),
        (.response(.unknown(UCIOpcode(gid: .core, oid: 0x06), payload: [0])), "40 06 00 01 00"),
        // Notifications
        (.notification(.deviceStatus(.ready)), "60 01 00 01 01"),
        (.notification(.genericError(.commandRetry)), "60 07 00 01 0a"),
        (.notification(.sessionStatus(session: 7, state: .deinitialized, reason: .maxRangingRoundRetryCountReached)), "61 02 00 06 07 00 00 00 01 01"),
        (
            .notification(.multicastListUpdate(UCIMulticastListUpdate(session: 1, controlees: [UCIControleeStatus(shortAddress: 0x0A0B, status: .ok)]))),
            "61 07 00 08 01 00 00 00 01 0b 0a 00"
        ),
        (
            .notification(
                .multicastListUpdate(
                    UCIMulticastListUpdate(
                        session: 1, remainingListSize: 7,
                        controlees: [UCIControleeStatus(shortAddress: 0x0A0B, subSessionID: 0x1122_3344, status: .ok)]))),
            "61 07 00 0d 01 00 00 00 07 01 0b 0a 44 33 22 11 00"
        ),
        (.notification(.dataCredit(session: 1, availability: .available)), "62 04 00 05 01 00 00 00 01"),
        (
            .notification(.dataTransferStatus(UCIDataTransferStatus(session: 1, sequenceNumber: 0x0102, status: .ok, transmitCount: 1))),
            "62 05 00 08 01 00 00 00 02 01 01 01"
        ),
        (
            .notification(
                .dataTransferStatus(UCIDataTransferStatus(session: 1, sequenceNumber: 5, status: .ok, transmitCount: 1, hasOneByteSequenceNumber: true))),
            "62 05 00 07 01 00 00 00 05 01 01"
        ),
        (.notification(.vendor(UCIOpcode(gid: .android, oid: 2), payload: [1, 2, 3])), "6c 02 00 03 01 02 03"),
        (.notification(.unknown(UCIOpcode(gid: .sessionConfig, oid: 0x3F), payload: [7])), "61 3f 00 01 07"),
        // Data
        (
            .data(.send(UCIDataSend(session: 1, destination: 0x0102, sequenceNumber: 5, data: [0xAA]))),
            "01 00 11 00 01 00 00 00 02 01 00 00 00 00 00 00 05 00 01 00 aa"
        ),
        (
            .data(.receive(UCIDataReceive(session: 1, status: .success, source: 0x0102, sequenceNumber: 5, data: [0xAA, 0xBB]))),
            "02 00 13 00 01 00 00 00 00 02 01 00 00 00 00 00 00 05 00 02 00 aa bb"
        ),
        (.data(.other(.radar, payload: [1, 2])), "0f 00 02 00 01 02"),
    ]

    @Test("every message encodes to its bytes and decodes back to itself", arguments: 0..<vectors.count)
    func roundTrip(index: Int) throws {
        let (message, wire) = Self.vectors[index]
        let encoded = try message.packets().map(\.bytes)
        #expect(encoded.count == 1)
        #expect(hex(encoded.flatMap { $0 }) == hex(bytes(wire)), "\(message.name)")
        let decoded = try UCIMessage(packet: bytes(wire), version: .v2_0)
        #expect(decoded == message)
        #expect(try decoded.packets().map(\.bytes) == [bytes(wire)])
    }

    @Test("SESSION_INIT_RSP: 1 byte is UCI 1.1 (no handle), 5 bytes UCI 2.0 (handle), anything else an error")
    func sessionInitForms() throws {
        #expect(try UCIResponse(opcode: .sessionInit, payload: [0x00]) == .sessionInit(.ok, sessionHandle: nil))
        #expect(try UCIResponse(opcode: .sessionInit, payload: [0x00, 1, 0, 0, 0]) == .sessionInit(.ok, sessionHandle: 1))
        #expect(try UCIResponse(opcode: .sessionInit, payload: [0x12]) == .sessionInit(.sessionDuplicate, sessionHandle: nil))
        do {
            _ = try UCIResponse(opcode: .sessionInit, payload: [0x00, 1, 0])
            Issue.record("a 3-byte SESSION_INIT_RSP decoded")
        } catch {
            #expect(error.code == .invalidLength)
            #expect(error.description.contains("expected 1 (UCI 1.1: status) or 5 (UCI 2.0: status, session handle)"))
        }
    }

    @Test("a failure response with only its status decodes as statusOnly; an OK one is truncated")
    func statusOnly() throws {
        let failed = try UCIResponse(opcode: .sessionGetAppConfig, payload: [0x11])
        #expect(failed == .statusOnly(.sessionGetAppConfig, .sessionNotExist))
        #expect(failed.status == .sessionNotExist)
        #expect(failed.name == "SESSION_GET_APP_CONFIG_RSP")
        do {
            _ = try UCIResponse(opcode: .coreGetDeviceInfo, payload: [0x00])
            Issue.record("an OK GET_DEVICE_INFO_RSP without fields decoded")
        } catch {
            #expect(error.code == .truncated)
            #expect(error.description.contains("CORE_GET_DEVICE_INFO_RSP: field \"UCI version\""))
        }
        #expect(throws: UCIError.self) { try UCIResponse.statusOnly(.coreGetDeviceInfo, .ok).encodePayload() }
    }

    @Test("the multicast notification layout follows the bytes, and the version when both fit")
    func multicastLayouts() throws {
        // 5 + 3 × 5 = 20 = 6 + 7 × 2: fits both layouts.
        let ambiguous = bytes("01 00 00 00 05 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00")
        let as2 = try UCINotification(opcode: .sessionUpdateMulticastList, payload: ambiguous, version: .v2_0)
        let as1 = try UCINotification(opcode: .sessionUpdateMulticastList, payload: ambiguous, version: .v1_1)
        guard case .multicastListUpdate(let update2) = as2, case .multicastListUpdate(let update1) = as1 else {
            Issue.record("\(as2) \(as1)")
            return
        }
        #expect(update2.controlees.count == 5 && update2.remainingListSize == nil)
        #expect(update1.controlees.count == 2 && update1.remainingListSize == 5)
        // pica sends the 1.1 form while reporting UCI 2.0: decoded by its length.
        let pica = try UCINotification(opcode: .sessionUpdateMulticastList, payload: bytes("01 00 00 00 07 01 0b 0a 44 33 22 11 00"), version: .v2_0)
        guard case .multicastListUpdate(let update) = pica else { return }
        #expect(update.remainingListSize == 7)
        #expect(update.controlees == [UCIControleeStatus(shortAddress: 0x0A0B, subSessionID: 0x1122_3344, status: .ok)])
        #expect(throws: UCIError.self) { try UCINotification(opcode: .sessionUpdateMulticastList, payload: bytes("01 00 00 00 03 01")) }
    }

    @Test("malformed payloads give typed errors that name the message and field")
    func malformed() throws {
        let cases: [(UCIMessageType, UCIOpcode, String, UCIError.Code, String)] = [
            (.notification, .sessionStatus, "01 00 00 00 03", .truncated, "SESSION_STATUS_NTF: field \"reason code\""),
            (.notification, .sessionDataTransferStatus, "01 00 00 00 01 00 00 01 02", .trailingBytes, "unexpected byte"),
            (.command, .sessionInit, "04 03 02", .truncated, "SESSION_INIT_CMD: field \"session ID\""),
            (.command, .androidSetCountryCode, "ff 00", .invalidValue, "are not two ASCII characters"),
            (.response, .coreGetCapsInfo, "00 02 13 02 ff 00", .truncated, "field \"capability 2 of 2: type\": needs 1 byte at offset 6, but only 0 are left"),
            (.command, .sessionSetAppConfig, "01 00 00 00 01 09 02 c8 00", .invalidLength, "RANGING_DURATION (0x09)\": length 2, expected 4"),
        ]
        for (type, opcode, payload, code, text) in cases {
            do {
                _ = try UCIMessage(decoding: UCIRawMessage(messageType: type, opcode: opcode, payload: bytes(payload)))
                Issue.record("\(opcode) \(payload) decoded")
            } catch {
                #expect(error.code == code, "\(error)")
                #expect(error.description.contains(text), "\(error)")
            }
        }
    }

    @Test("encoding refuses values the wire cannot carry")
    func encodingErrors() throws {
        let wrongKey = UCICommand.updateMulticastList(
            session: 1, action: .addWithLongSubSessionKey, controlees: [UCIControlee(shortAddress: 1, subSessionKey: Self.key16)])
        do {
            _ = try wrongKey.encodePayload()
            Issue.record("a 16-byte key was accepted for a 32-byte action")
        } catch {
            #expect(error.description.contains("controlee 1: sub-session key\": 16 bytes, but action ADD_CONTROLEE_WITH_LONG_SUB_SESSION_KEY (0x03) needs 32"))
        }
        #expect(throws: UCIError.self) { try UCICommand.setCountryCode("USA").encodePayload() }
        let tooMany = UCICommand.getAppConfig(session: 1, ids: Array(repeating: .channelNumber, count: 256))
        #expect(throws: UCIError.self) { try tooMany.encodePayload() }
        let longValue = UCICommand.setAppConfig(session: 1, configs: [.other(id: UCIAppConfigID(rawValue: 0xE3), value: Array(repeating: 0, count: 256))])
        #expect(throws: UCIError.self) { try longValue.encodePayload() }
        let oneOne = UCINotification.multicastListUpdate(
            UCIMulticastListUpdate(session: 1, remainingListSize: 0, controlees: [UCIControleeStatus(shortAddress: 1, status: .ok)]))
        #expect(throws: UCIError.self) { try oneOne.encodePayload() }
    }

    @Test("a long SET_APP_CONFIG is segmented and reassembled to the same command")
    func longCommand() throws {
        let configs: [UCIAppConfig] = (0..<40).map { .other(id: UCIAppConfigID(rawValue: 0xE3 + UInt8($0 % 20)), value: [UInt8](repeating: UInt8($0), count: 6)) }
        let command = UCICommand.setAppConfig(session: 0x0102_0304, configs: configs)
        let packets = try command.packets()
        #expect(packets.count == 2)
        #expect(packets[0].header.moreSegmentsFollow && !packets[1].header.moreSegmentsFollow)
        var reassembler = UCIReassembler()
        var decoded: UCIMessage?
        for packet in packets {
            if let raw = try reassembler.append(packetBytes: packet.bytes) { decoded = try UCIMessage(decoding: raw) }
        }
        #expect(decoded == .command(command))
    }

    @Test("commands know their session and responses their status")
    func accessors() {
        #expect(UCICommand.sessionStart(session: 5).session == 5)
        #expect(UCICommand.sessionInit(sessionID: 5, type: .ranging).session == nil)
        #expect(UCIResponse.getSessionState(.rejected, .idle).status == .rejected)
        #expect(UCIResponse.vendor(UCIOpcode(gid: UCIGroupID(rawValue: 0xF), oid: 0), payload: []).status == nil)
        #expect(UCINotification.sessionStatus(session: 3, state: .active, reason: .stateChangeWithSessionManagementCommands).session == 3)
        #expect(UCINotification.deviceStatus(.ready).session == nil)
        #expect(UCIMessage.notification(.vendor(UCIOpcode(gid: .android, oid: 2), payload: [])).isUninterpreted)
        #expect(!UCIMessage.notification(.deviceStatus(.ready)).isUninterpreted)
    }

    @Test("codes keep unknown raw values and describe them")
    func codes() {
        #expect(UCIStatus(rawValue: 0x04).description == "INVALID_PARAM (0x04)")
        #expect(UCIStatus(rawValue: 0x57).description == "vendor-specific status (0x57)")
        #expect(UCIStatus(rawValue: 0x57).name == nil)
        #expect(UCIStatus(rawValue: 0x0F).description == "reserved status (0x0F)")
        #expect(UCIStatus.rangingRXTimeout.explanation == "no reply from the peer in this round")
        #expect(UCIReasonCode(rawValue: 0x23).description == "ERROR_INVALID_RANGING_DURATION (0x23)")
        #expect(UCIReasonCode(rawValue: 0x82).description == "vendor-specific reason (0x82)")
        #expect(UCIReasonCode(rawValue: 0x23).isConfigurationError)
        #expect(UCISessionState(rawValue: 9).description == "reserved session state (0x09)")
        #expect(UCIDeviceState.error.explanation.contains("CORE_DEVICE_RESET"))
        #expect(UCISessionType(rawValue: 0xA0) == .ccc)
    }
}
