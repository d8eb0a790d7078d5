import Testing
import UCI

/// `UCIInbound.dispatch`: what a host does with each received packet, decided on its header.
@Suite("UCI inbound dispatch")
struct InboundTests {
    private func packets(_ text: String) throws -> [UCIPacket] {
        var framer = UCIPacketFramer()
        framer.append(bytes(text))
        var packets: [UCIPacket] = []
        while let packet = framer.nextPacket() { packets.append(packet) }
        #expect(framer.bufferedByteCount == 0)
        return packets
    }

    @Test("an unsegmented SESSION_INFO_NTF is range data read in place; the view decodes what the full decoder does")
    func rangeDataInPlace() throws {
        var reassembler = UCIReassembler()
        let packet = try UCIPacket(bytes: WireVectorTests.sessionInfoPacket)
        guard case .rangeData(let view) = try UCIInbound.dispatch(packet, reassembling: &reassembler) else {
            Issue.record("not dispatched as range data")
            return
        }
        #expect(view.session == 0x0102_0304)
        #expect(UCISessionInfo(view) == WireVectorTests.sessionInfo)
        #expect(!reassembler.isReassembling)
    }

    @Test("responses, notifications and data are whole messages; segments come back once complete")
    func messagesThroughTheReassembler() throws {
        var reassembler = UCIReassembler()
        let response = try #require(try packets("40 00 00 01 00").first)
        guard case .message(let raw) = try UCIInbound.dispatch(response, reassembling: &reassembler) else {
            Issue.record("a response was not a message")
            return
        }
        #expect(raw.messageType == .response && raw.opcode == .coreDeviceReset && raw.payload == [0x00])
        // A SESSION_INFO_NTF in two segments: nothing after the first, the whole message after the second.
        let info = WireVectorTests.sessionInfoPacket
        let segments = UCISegmenter(maxControlPayloadSize: 40).packets(for: try UCIMessage(packet: info).rawMessage())
        #expect(segments.count == 2)
        #expect(try UCIInbound.dispatch(segments[0], reassembling: &reassembler) == nil)
        guard case .message(let whole) = try UCIInbound.dispatch(segments[1], reassembling: &reassembler) else {
            Issue.record("the reassembled SESSION_INFO_NTF was not a message")
            return
        }
        #expect(whole.payload == Array(info.dropFirst(4)))
    }

    @Test("a SESSION_INFO_NTF the view refuses (OWR-AoA) is decoded in full, so its decoder can report it")
    func otherMeasurementTypesAreMessages() throws {
        var reassembler = UCIReassembler()
        var info = WireVectorTests.sessionInfoPacket
        info[4 + 13] = 0x03  // measurement type OWR-AoA
        let packet = try UCIPacket(bytes: info)
        guard case .message(let raw) = try UCIInbound.dispatch(packet, reassembling: &reassembler) else {
            Issue.record("an OWR-AoA notification was dispatched as two-way range data")
            return
        }
        #expect(raw.opcode == .sessionInfo && raw.payload == Array(info.dropFirst(4)))
    }

    @Test("range data in the middle of a segmented control message is a segment mismatch, as the reassembler says")
    func rangeDataInsideASegmentedMessage() throws {
        // Its continuation is not range data in place: it belongs to the message.
        var continuing = UCIReassembler()
        #expect(try UCIInbound.dispatch(try #require(try packets("72 00 00 01 00").first), reassembling: &continuing) == nil)
        guard case .message(let whole) = try UCIInbound.dispatch(try UCIPacket(bytes: WireVectorTests.sessionInfoPacket), reassembling: &continuing)
        else {
            Issue.record("the last segment did not complete the message")
            return
        }
        #expect(whole.payload.count == 1 + 56)

        var reassembler = UCIReassembler()
        // The first segment of a SESSION_STATUS_NTF.
        #expect(try UCIInbound.dispatch(try #require(try packets("71 02 00 01 00").first), reassembling: &reassembler) == nil)
        let error = #expect(throws: UCIError.self) {
            try UCIInbound.dispatch(try UCIPacket(bytes: WireVectorTests.sessionInfoPacket), reassembling: &reassembler)
        }
        #expect(error?.code == .segmentMismatch)
        #expect(!reassembler.isReassembling)
    }
}
