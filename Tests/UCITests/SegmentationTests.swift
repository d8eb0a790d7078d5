import Testing
import UCI

@Suite("UCI segmentation and reassembly")
struct SegmentationTests {
    static func payload(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) } }

    @Test("a long command is cut into 255-byte segments with PBF on all but the last")
    func segmentsLongCommand() throws {
        let raw = UCIRawMessage(messageType: .command, opcode: .sessionSetAppConfig, payload: Self.payload(600))
        let packets = UCISegmenter().packets(for: raw)
        #expect(packets.map(\.header.payloadLength) == [255, 255, 90])
        #expect(packets.map(\.header.moreSegmentsFollow) == [true, true, false])
        #expect(packets.map { $0.bytes[0] } == [0x31, 0x31, 0x21])
        #expect(packets.allSatisfy { $0.header.opcode == .sessionSetAppConfig })
        #expect(packets.flatMap(\.payload) == raw.payload)
    }

    @Test("segments honour a smaller maximum payload; an empty payload is one packet")
    func smallerMaximum() throws {
        let raw = UCIRawMessage(messageType: .response, opcode: .coreGetCapsInfo, payload: Self.payload(10))
        let packets = UCISegmenter(maxControlPayloadSize: 4).encode(raw)
        #expect(packets.map(\.count) == [8, 8, 6])
        #expect(packets[0][0] == 0x50 && packets[2][0] == 0x40)
        let empty = UCISegmenter().encode(UCIRawMessage(messageType: .command, opcode: .coreGetDeviceInfo, payload: []))
        #expect(empty == [bytes("20 02 00 00")])
        #expect(UCISegmenter(maxControlPayloadSize: 1000).maxControlPayloadSize == 255)
        #expect(UCISegmenter(maxControlPayloadSize: 0).maxControlPayloadSize == 1)
    }

    @Test("data messages are segmented with 16-bit lengths to the data payload size")
    func dataSegments() throws {
        let message = UCIDataMessage.send(UCIDataSend(session: 9, destination: 0x0102, sequenceNumber: 3, data: Self.payload(700)))
        let packets = try message.packets(UCISegmenter(maxDataPayloadSize: 512))
        #expect(packets.map(\.header.payloadLength) == [512, 204])
        #expect(Array(packets[0].bytes.prefix(4)) == bytes("11 00 00 02"))
        #expect(Array(packets[1].bytes.prefix(4)) == bytes("01 00 cc 00"))
        var reassembler = UCIReassembler()
        #expect(try reassembler.append(packets[0]) == nil)
        let completed = try reassembler.append(packets[1])
        let raw = try #require(completed)
        #expect(try UCIMessage(decoding: raw) == .data(message))
    }

    @Test("segments reassemble into the original message; unsegmented packets pass at once")
    func reassembles() throws {
        let raw = UCIRawMessage(messageType: .notification, opcode: .sessionInfo, payload: Self.payload(25 + 8 * 31))
        var reassembler = UCIReassembler()
        let packets = UCISegmenter().packets(for: raw)
        #expect(packets.count == 2)
        #expect(try reassembler.append(packets[0]) == nil)
        #expect(reassembler.isReassembling)
        #expect(try reassembler.append(packetBytes: packets[1].bytes) == raw)
        #expect(!reassembler.isReassembling)
        let single = try reassembler.append(packetBytes: bytes("40 00 00 01 00"))
        #expect(single == UCIRawMessage(messageType: .response, opcode: .coreDeviceReset, payload: [0]))
    }

    @Test("a segment of another message is a typed error; both are discarded and the next message decodes")
    func mismatch() throws {
        var reassembler = UCIReassembler()
        #expect(try reassembler.append(packetBytes: bytes("72 00 00 02 aa bb")) == nil)
        do {
            _ = try reassembler.append(packetBytes: bytes("61 02 00 06 01 00 00 00 03 00"))
            Issue.record("a mismatching segment was accepted")
        } catch {
            #expect(error.code == .segmentMismatch)
            #expect(error.context == "SESSION_INFO_NTF")
            #expect(error.description.contains("1 segment, 2 bytes so far"))
            #expect(error.description.contains("SESSION_STATUS_NTF"))
        }
        #expect(!reassembler.isReassembling)
        let next = try reassembler.append(packetBytes: bytes("61 02 00 06 01 00 00 00 02 00"))
        #expect(next?.opcode == .sessionStatus)
    }

    @Test("the same GID/OID with another message type is a mismatch too")
    func mismatchByType() throws {
        var reassembler = UCIReassembler()
        _ = try reassembler.append(packetBytes: bytes("32 00 00 01 aa"))  // SESSION_START_CMD segment
        #expect(throws: UCIError.self) { try reassembler.append(packetBytes: bytes("62 00 00 01 bb")) }
    }

    @Test("CORE_DEVICE_STATUS_NTF(ERROR) in the middle of a message is delivered, as AOSP does")
    func deviceErrorMidReassembly() throws {
        var reassembler = UCIReassembler()
        #expect(try reassembler.append(packetBytes: bytes("72 00 00 03 01 02 03")) == nil)
        let error = try reassembler.append(packetBytes: bytes("60 01 00 01 ff"))
        #expect(try error.map { try UCIMessage(decoding: $0) } == .notification(.deviceStatus(.error)))
        #expect(!reassembler.isReassembling)
        // A READY status is not exempt.
        _ = try reassembler.append(packetBytes: bytes("72 00 00 01 01"))
        #expect(throws: UCIError.self) { try reassembler.append(packetBytes: bytes("60 01 00 01 01")) }
    }

    @Test("control and data messages reassemble independently")
    func interleaved() throws {
        var reassembler = UCIReassembler()
        #expect(try reassembler.append(packetBytes: bytes("12 00 02 00 01 02")) == nil)
        let control = try reassembler.append(packetBytes: bytes("60 01 00 01 02"))
        #expect(control?.opcode == .coreDeviceStatus)
        let data = try reassembler.append(packetBytes: bytes("02 00 01 00 03"))
        #expect(data == UCIRawMessage(dataPacketFormat: .receive, payload: [1, 2, 3]))
    }

    @Test("a message growing past the limit is discarded with a typed error")
    func sizeLimit() throws {
        var reassembler = UCIReassembler(maximumMessageSize: 300)
        let segment = UCIPacket.segment(count: 200)
        #expect(try reassembler.append(packetBytes: segment) == nil)
        do {
            _ = try reassembler.append(packetBytes: segment)
            Issue.record("the limit was not enforced")
        } catch {
            #expect(error.code == .messageTooLarge)
            #expect(error.description.contains("reached 400 bytes, more than the limit of 300"))
        }
        #expect(!reassembler.isReassembling)
    }
}

extension UCIPacket {
    /// A first segment of SESSION_INFO_NTF with `count` payload bytes.
    static func segment(count: Int) -> [UInt8] {
        [0x72, 0x00, 0x00, UInt8(count)] + [UInt8](repeating: 0, count: count)
    }
}
