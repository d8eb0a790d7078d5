import LowEnergy
import Testing
import NearbyTestSupport

@Suite("HCI codec: framing, commands, events, ACL")
struct HCICodecTests {
    // MARK: Commands

    @Test("commands encode byte-exact")
    func commands() {
        #expect(HCICommand.reset.packet.h4Bytes == [0x01, 0x03, 0x0C, 0x00])
        #expect(HCICommand.leSetRandomAddress(BluetoothAddress("C1:C2:C3:C4:C5:C6")!).packet.h4Bytes
            == [0x01, 0x05, 0x20, 0x06, 0xC6, 0xC5, 0xC4, 0xC3, 0xC2, 0xC1])
        #expect(HCICommand.leSetScanParameters(active: true, interval: 0x60, window: 0x30, ownAddressType: .random).packet.h4Bytes
            == [0x01, 0x0B, 0x20, 0x07, 0x01, 0x60, 0x00, 0x30, 0x00, 0x01, 0x00])
        #expect(HCICommand.leSetScanEnable(true).packet.h4Bytes == [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00])
        #expect(HCICommand.leSetExtendedScanParameters(active: false, interval: 0x60, window: 0x30, ownAddressType: .random).packet.h4Bytes
            == [0x01, 0x41, 0x20, 0x08, 0x01, 0x00, 0x01, 0x00, 0x60, 0x00, 0x30, 0x00])
        #expect(HCICommand.leSetExtendedScanEnable(true).packet.h4Bytes == [0x01, 0x42, 0x20, 0x06, 0x01, 0x00, 0, 0, 0, 0])
        #expect(HCICommand.disconnect(handle: 0x0001, reason: .remoteUserTerminatedConnection).packet.h4Bytes
            == [0x01, 0x06, 0x04, 0x03, 0x01, 0x00, 0x13])
        #expect(HCICommand.setEventMask(0x2000_8000_0200_8090).packet.h4Bytes
            == [0x01, 0x01, 0x0C, 0x08, 0x90, 0x80, 0x00, 0x02, 0x00, 0x80, 0x00, 0x20])
        let connect = HCICommand.leCreateConnection(
            peer: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, peerType: .random, ownAddressType: .random,
            parameters: ConnectionParameters())
        #expect(connect.packet.h4Bytes == [
            0x01, 0x0D, 0x20, 0x19,
            0x60, 0x00, 0x60, 0x00,  // scan interval, window
            0x00, 0x01, 0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0,  // filter policy, peer type, peer
            0x01,  // own address type
            0x18, 0x00, 0x28, 0x00, 0x00, 0x00, 0x90, 0x01,  // 24..40 x 1.25 ms, latency 0, 4 s
            0x00, 0x00, 0x00, 0x00,
        ])
        let extended = HCICommand.leExtendedCreateConnection(
            peer: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, peerType: .random, ownAddressType: .random,
            parameters: ConnectionParameters())
        #expect(extended.packet.h4Bytes == [
            0x01, 0x43, 0x20, 0x1A,
            0x00, 0x01, 0x01, 0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0, 0x01,
            0x60, 0x00, 0x60, 0x00, 0x18, 0x00, 0x28, 0x00, 0x00, 0x00, 0x90, 0x01, 0x00, 0x00, 0x00, 0x00,
        ])
        #expect(HCIOpcode.leSetScanEnable.description == "HCI LE Set Scan Enable (0x200C)")
        #expect(HCIOpcode(rawValue: 0xFC01).name == "OGF 0x3F OCF 0x0001")
    }

    @Test("security commands and events: LE Enable Encryption, LTK replies, key size, Encryption Change (v1, v2), Key Refresh, LTK Request")
    func securityCodec() throws {
        let key = LongTermKey(key: SecurityKey([UInt8](1...16))!, ediv: 0x1234, rand: 0x0102_0304_0506_0708)
        // handle, Rand (LE), EDIV (LE), LTK (least significant byte first).
        #expect(HCICommand.leEnableEncryption(handle: 0x0040, key: key).packet.h4Bytes
            == [0x01, 0x19, 0x20, 28, 0x40, 0x00, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x34, 0x12] + (1...16).reversed())
        #expect(HCICommand.leEnableEncryption(handle: 1, key: key).answeredWithStatus)
        #expect(HCICommand.leEnableEncryption(handle: 1, key: key).carriesKey)
        #expect(HCICommand.leLongTermKeyRequestReply(handle: 2, key: key.key).packet.h4Bytes == [0x01, 0x1A, 0x20, 18, 0x02, 0x00] + (1...16).reversed())
        #expect(HCICommand.leLongTermKeyRequestNegativeReply(handle: 2).packet.h4Bytes == [0x01, 0x1B, 0x20, 2, 0x02, 0x00])
        #expect(HCICommand.readEncryptionKeySize(handle: 3).packet.h4Bytes == [0x01, 0x08, 0x14, 2, 0x03, 0x00])
        #expect(try HCIEvent(decoding: [0x08, 0x04, 0x06, 0x40, 0x00, 0x00]) == .encryptionChange(status: HCIStatus(rawValue: 0x06), handle: 0x40, enabled: 0))
        #expect(try HCIEvent(decoding: [0x59, 0x05, 0x00, 0x40, 0x00, 0x01, 0x10]) == .encryptionChange(status: .success, handle: 0x40, enabled: 1))
        #expect(try HCIEvent(decoding: [0x30, 0x03, 0x00, 0x41, 0x00]) == .encryptionKeyRefreshComplete(status: .success, handle: 0x41))
        #expect(try HCIEvent(decoding: [0x3E, 0x0D, 0x05, 0x40, 0x00, 8, 7, 6, 5, 4, 3, 2, 1, 0x34, 0x12])
            == .le(.longTermKeyRequest(handle: 0x40, rand: 0x0102_0304_0506_0708, ediv: 0x1234)))
        // Supported commands: octet 37 bits 5-7 are the extended scan / connect commands.
        var octets = [UInt8](repeating: 0, count: 64)
        octets[37] = 0xE0
        #expect(SupportedCommands(octets: octets).hasExtendedScanAndConnect)
        octets[37] = 0x60
        #expect(!SupportedCommands(octets: octets).hasExtendedScanAndConnect)
        octets[20] = 0x10
        #expect(SupportedCommands(octets: octets).contains(.readEncryptionKeySize) == true)
        #expect(SupportedCommands(octets: octets).contains(.reset) == nil, "not a command this type knows the bit of")
    }

    @Test("connection parameters are validated with the spec's rules")
    func connectionParameters() {
        #expect(ConnectionParameters().validationProblem == nil)
        #expect(ConnectionParameters(intervalMin: 5).validationProblem != nil)
        #expect(ConnectionParameters(intervalMin: 40, intervalMax: 24).validationProblem != nil)
        #expect(ConnectionParameters(latency: 500).validationProblem != nil)
        // 4 s interval with latency 10 needs a timeout > 88 s: impossible.
        #expect(ConnectionParameters(intervalMin: 3200, intervalMax: 3200, latency: 10, supervisionTimeout: 3200)
            .validationProblem?.contains("must exceed") == true)
    }

    // MARK: Framing

    @Test("the H4 framer splits a byte stream fed one byte at a time")
    func framerByteByByte() throws {
        let stream: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
            + [0x02, 0x01, 0x20, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x0B]
            + [0x04, 0x05, 0x04, 0x00, 0x01, 0x00, 0x08]
        var framer = H4Framer()
        var packets: [HCIPacket] = []
        for byte in stream { packets += try framer.append([byte]) }
        #expect(packets == [
            HCIPacket(.event, [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]),
            HCIPacket(.acl, [0x01, 0x20, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x0B]),
            HCIPacket(.event, [0x05, 0x04, 0x00, 0x01, 0x00, 0x08]),
        ])
        #expect(framer.pendingByteCount == 0)
        var whole = H4Framer()
        #expect(try whole.append(stream) == packets)
    }

    @Test("an unknown H4 type byte is a clear error, not a crash")
    func framerDesync() {
        var framer = H4Framer()
        #expect {
            _ = try framer.append([0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00, 0x7F, 0x01])
        } throws: { error in
            "\(error)".contains("unknown H4 packet type 0x7F")
        }
    }

    // MARK: Events

    @Test("Command Complete, Command Status, Disconnection Complete, Number Of Completed Packets")
    func basicEvents() throws {
        #expect(try HCIEvent(decoding: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
            == .commandComplete(numberOfCommandPackets: 1, opcode: .reset, returnParameters: [0x00]))
        #expect(try HCIEvent(decoding: [0x0F, 0x04, 0x00, 0x01, 0x0D, 0x20])
            == .commandStatus(status: .success, numberOfCommandPackets: 1, opcode: .leCreateConnection))
        #expect(try HCIEvent(decoding: [0x05, 0x04, 0x00, 0x01, 0x00, 0x08])
            == .disconnectionComplete(status: .success, handle: 1, reason: .connectionTimeout))
        #expect(try HCIEvent(decoding: [0x13, 0x05, 0x01, 0x01, 0x00, 0x03, 0x00])
            == .numberOfCompletedPackets([.init(handle: 1, count: 3)]))
        #expect(try HCIEvent(decoding: [0x10, 0x01, 0x42]) == .hardwareError(code: 0x42))
        #expect(try HCIEvent(decoding: [0x57, 0x02, 0x01, 0x00]) == .other(code: 0x57, parameters: [0x01, 0x00]))
    }

    @Test("LE Connection Complete and Enhanced Connection Complete decode to the same value")
    func connectionComplete() throws {
        let legacy: [UInt8] = [0x3E, 0x13, 0x01, 0x00, 0x01, 0x00, 0x00, 0x01, 0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0,
                               0x28, 0x00, 0x00, 0x00, 0x90, 0x01, 0x00]
        let enhanced: [UInt8] = [0x3E, 0x1F, 0x0A, 0x00, 0x01, 0x00, 0x00, 0x01, 0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0]
            + [UInt8](repeating: 0, count: 12) + [0x28, 0x00, 0x00, 0x00, 0x90, 0x01, 0x00]
        guard case .le(.connectionComplete(let a)) = try HCIEvent(decoding: legacy),
              case .le(.connectionComplete(let b)) = try HCIEvent(decoding: enhanced) else {
            Issue.record("not decoded as connection complete")
            return
        }
        #expect(a.status == .success && a.handle == 1 && a.role == 0)
        #expect(a.peerAddress == BluetoothAddress("F0:F1:F2:F3:F4:F5") && a.peerAddressType == .random)
        #expect(a.interval == 40 && a.latency == 0 && a.supervisionTimeout == 400)
        #expect(!a.enhanced && b.enhanced)
        var bWithoutFlag = b
        bWithoutFlag.enhanced = false
        #expect(a == bWithoutFlag)
    }

    @Test("legacy and extended advertising reports decode (bytes captured from Bumble)")
    func advertisingReports() throws {
        // LE Extended Advertising Report as the stock Bumble controller sends it (ble.md §2).
        let extended: [UInt8] = [0x3E, 0x38, 0x0D, 0x01, 0x01, 0x00, 0x01, 0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0,
                                 0x01, 0x01, 0x00, 0x00, 0xCE, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                 0x1E, 0x02, 0x01, 0x06, 0x11, 0x07, 0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0,
                                 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E, 0x08, 0x09, 0x6E, 0x62, 0x2D, 0x70,
                                 0x65, 0x65, 0x72]
        guard case .le(.advertisingReports(let reports)) = try HCIEvent(decoding: extended) else {
            Issue.record("not an advertising report")
            return
        }
        #expect(reports.count == 1)
        #expect(reports[0].eventType.rawValue == 0x0001 && reports[0].eventType.isConnectable && !reports[0].eventType.isLegacy)
        #expect(reports[0].address == BluetoothAddress("F0:F1:F2:F3:F4:F5") && reports[0].addressType == .random)
        #expect(reports[0].rssi == -50)
        #expect(AdvertisingData(parsing: reports[0].data).localName == "nb-peer")

        let legacy: [UInt8] = [0x3E, 0x12, 0x02, 0x01, 0x04, 0x01, 0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0, 0x06,
                               0x05, 0x09, 0x61, 0x62, 0x63, 0x64, 0xB8]
        guard case .le(.advertisingReports(let legacyReports)) = try HCIEvent(decoding: legacy) else {
            Issue.record("not an advertising report")
            return
        }
        #expect(legacyReports[0].eventType == .scanResponseToAdvInd)
        #expect(legacyReports[0].eventType.isScanResponse && legacyReports[0].eventType.isLegacy)
        #expect(legacyReports[0].eventType.description == "SCAN_RSP")
        #expect(legacyReports[0].rssi == -72)
        #expect(AdvertisingData(parsing: legacyReports[0].data).localName == "abcd")
    }

    @Test("truncated or inconsistent events are errors, and random events never trap")
    func malformedEvents() async {
        for bad: [UInt8] in [[], [0x0E], [0x0E, 0x05, 0x01], [0x3E, 0x01, 0x01], [0x3E, 0x03, 0x02, 0x01, 0x00],
                             [0x05, 0x02, 0x00, 0x01], [0x13, 0x03, 0x02, 0x01, 0x00]] {
            #expect(throws: BluetoothError.self) { _ = try HCIEvent(decoding: bad) }
        }
        var generator = SplitMix64(seed: 42)
        for iteration in 0..<20_000 {
            if iteration % 250 == 0 { await Task.yield() }  // leave the 2-core test pool to others
            let code = [0x05, 0x0E, 0x0F, 0x13, 0x3E, 0x10, 0x1A][Int.random(in: 0..<7, using: &generator)] as UInt8
            let body = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? HCIEvent(decoding: [code, UInt8(body.count)] + body)
        }
    }

    @Test("status and ATT error codes are named, with hints for users")
    func names() {
        #expect(HCIStatus(rawValue: 0x3E).description == "0x3E Connection Failed to be Established")
        #expect(HCIStatus.connectionTimeout.hint?.contains("out of range") == true)
        #expect(HCIStatus(rawValue: 0xEE).name == "Unknown Error Code")
        #expect(ATTErrorCode.insufficientAuthentication.description == "0x05 Insufficient Authentication")
        #expect(ATTErrorCode.insufficientAuthentication.hint?.contains("nearby setup --pair") == true)
        let error = BluetoothError.commandFailed(command: "LE Create Connection to F0:F1:F2:F3:F4:F5", status: HCIStatus(rawValue: 0x3E))
        #expect("\(error)".contains("0x3E Connection Failed to be Established"))
        #expect("\(error)".contains("out of range"))
    }

    // MARK: ACL

    @Test("ACL packets encode, decode and fragment to the buffer size")
    func aclPackets() throws {
        let pdu = L2CAPFrame(channel: 4, payload: Array(0..<60)).bytes
        let fragments = ACLPacket.fragments(of: pdu, handle: 0x0001, maximumLength: 27)
        #expect(fragments.map(\.data.count) == [27, 27, 10])
        #expect(fragments.map(\.boundary) == [.firstNonFlushable, .continuation, .continuation])
        #expect(fragments[0].packet.bytes.prefix(4) == [0x01, 0x00, 0x1B, 0x00])
        #expect(fragments[1].packet.bytes.prefix(4) == [0x01, 0x10, 0x1B, 0x00])
        #expect(try ACLPacket(decoding: fragments[2].packet.bytes) == fragments[2])
        #expect(throws: BluetoothError.self) { _ = try ACLPacket(decoding: [0x01, 0x20, 0x05, 0x00, 0x01]) }
    }

    @Test("reassembly accepts whole and fragmented PDUs")
    func reassembly() {
        let pdu = L2CAPFrame(channel: 4, payload: Array(0..<100)).bytes
        var whole = ACLReassembler()
        #expect(whole.append(ACLPacket(handle: 1, boundary: .firstFlushable, data: pdu)).pdu == pdu)

        var fragmented = ACLReassembler()
        let parts = stride(from: 0, to: pdu.count, by: 27).map { Array(pdu[$0..<min($0 + 27, pdu.count)]) }
        for (index, part) in parts.enumerated() {
            let outcome = fragmented.append(ACLPacket(handle: 1, boundary: index == 0 ? .firstFlushable : .continuation, data: part))
            #expect(outcome.problem == nil)
            #expect((outcome.pdu != nil) == (index == parts.count - 1))
            if let complete = outcome.pdu { #expect(complete == pdu) }
        }
        // A first fragment shorter than the L2CAP length field still works.
        var tiny = ACLReassembler()
        #expect(tiny.append(ACLPacket(handle: 1, boundary: .firstFlushable, data: [pdu[0]])).pdu == nil)
        #expect(tiny.append(ACLPacket(handle: 1, boundary: .continuation, data: Array(pdu[1...]))).pdu == pdu)
    }

    @Test("reassembly errors drop the broken PDU, say why, and recover")
    func reassemblyErrors() {
        let pdu = L2CAPFrame(channel: 4, payload: [1, 2, 3, 4, 5, 6]).bytes
        var reassembler = ACLReassembler()
        let orphan = reassembler.append(ACLPacket(handle: 1, boundary: .continuation, data: [1, 2]))
        #expect(orphan.pdu == nil && orphan.problem?.contains("without a start") == true)

        _ = reassembler.append(ACLPacket(handle: 1, boundary: .firstFlushable, data: Array(pdu.prefix(5))))
        let restarted = reassembler.append(ACLPacket(handle: 1, boundary: .firstFlushable, data: pdu))
        #expect(restarted.pdu == pdu)
        #expect(restarted.problem?.contains("before the previous one") == true)

        _ = reassembler.append(ACLPacket(handle: 1, boundary: .firstFlushable, data: Array(pdu.prefix(5))))
        let overflow = reassembler.append(ACLPacket(handle: 1, boundary: .continuation, data: Array(pdu.dropFirst(5)) + [0xFF, 0xFF]))
        #expect(overflow.pdu == nil && overflow.problem?.contains("carry 12 bytes for an L2CAP PDU of 10") == true)
        #expect(!reassembler.isAssembling)
        #expect(reassembler.append(ACLPacket(handle: 1, boundary: .firstFlushable, data: pdu)).pdu == pdu)
    }
}
