import Testing
import UCI

@Suite("UCI packet headers and packets")
struct PacketTests {
    @Test("a control header decodes MT, PBF, GID, OID and the 8-bit length")
    func controlHeader() throws {
        let header = try UCIPacketHeader(decoding: bytes("71 07 00 2a"))
        #expect(header.messageType == .notification)
        #expect(header.moreSegmentsFollow)
        #expect(header.opcode == .sessionUpdateMulticastList)
        #expect(header.payloadLength == 42)
        #expect(!header.usesExtendedLength)
        #expect(try header.encoded() == bytes("71 07 00 2a"))
        #expect(header.messageName == "SESSION_UPDATE_CONTROLLER_MULTICAST_LIST_NTF")
    }

    @Test("RFU bits are ignored when decoding and written as zero")
    func reservedBits() throws {
        let header = try UCIPacketHeader(decoding: bytes("22 41 ff 04"))
        #expect(header.opcode == .sessionStop)
        #expect(header.payloadLength == 4)
        #expect(try header.encoded() == bytes("22 01 00 04"))
    }

    @Test("a data header has a 16-bit little-endian length and a DPF")
    func dataHeader() throws {
        let header = try UCIPacketHeader(decoding: bytes("12 00 2c 01"))
        #expect(header.messageType == .data)
        #expect(header.moreSegmentsFollow)
        #expect(header.dataPacketFormat == .receive)
        #expect(header.payloadLength == 300)
        #expect(try header.encoded() == bytes("12 00 2c 01"))
        let send = UCIPacketHeader(dataPacketFormat: .send, payloadLength: 0x1234)
        #expect(try send.encoded() == bytes("01 00 34 12"))
    }

    @Test("NXP's extended length (octet 1 bit 7) gives a 16-bit control length")
    func extendedLength() throws {
        let header = try UCIPacketHeader(decoding: bytes("62 80 10 01"))
        #expect(header.usesExtendedLength)
        #expect(header.opcode == .sessionInfo)
        #expect(header.payloadLength == 0x0110)
        #expect(try header.encoded() == bytes("62 80 10 01"))
    }

    @Test("reserved message types decode with the control layout and are kept")
    func reservedMessageType() throws {
        let packet = try UCIPacket(bytes: bytes("81 05 00 02 aa bb"))
        #expect(packet.header.messageType.rawValue == 4)
        let message = try UCIMessage(packet: packet.bytes)
        guard case .reserved(let raw) = message else {
            Issue.record("decoded as \(message)")
            return
        }
        #expect(raw.payload == [0xAA, 0xBB])
        #expect(raw.opcode == UCIOpcode(gid: .sessionConfig, oid: 5))
        #expect(try message.packets().map(\.bytes) == [bytes("81 05 00 02 aa bb")])
    }

    @Test("a header longer than its length field refuses to encode")
    func headerTooLong() throws {
        let header = UCIPacketHeader(messageType: .command, opcode: .sessionInit, payloadLength: 256)
        #expect(throws: UCIError.self) { try header.encoded() }
        do {
            _ = try header.encoded()
        } catch {
            #expect(error.code == .messageTooLarge)
            #expect(error.description.contains("256 bytes do not fit a control packet (0...255)"))
        }
    }

    @Test("short and truncated input gives typed errors naming what is missing")
    func truncated() throws {
        let cases: [(String, UCIError.Code, String)] = [
            ("", .truncated, "a packet header has 4 bytes, got 0"),
            ("62 00", .truncated, "a packet header has 4 bytes, got 2 (62 00)"),
            ("62 00 00 38 07 00", .truncated, "the header announces a 56-byte payload, but only 2 bytes follow"),
            ("20 00 00 01 00 00", .trailingBytes, "1 extra"),
            ("01 00 05 00 01 02", .truncated, "announces a 5-byte payload, but only 2 bytes follow"),
        ]
        for (input, code, text) in cases {
            do {
                _ = try UCIPacket(bytes: bytes(input))
                Issue.record("\(input) decoded")
            } catch {
                #expect(error.code == code, "\(input)")
                #expect(error.description.contains(text), "\(error)")
            }
        }
    }

    @Test("a packet payload over 255 bytes is refused unless it is data")
    func packetSizeLimits() throws {
        let control = UCIPacketHeader(messageType: .notification, opcode: .sessionInfo, payloadLength: 0)
        #expect(throws: UCIError.self) { try UCIPacket(header: control, payload: [UInt8](repeating: 0, count: 256)) }
        let data = UCIPacketHeader(dataPacketFormat: .receive, payloadLength: 0)
        let packet = try UCIPacket(header: data, payload: [UInt8](repeating: 7, count: 1000))
        #expect(packet.header.payloadLength == 1000)
        #expect(Array(packet.bytes.prefix(4)) == bytes("02 00 e8 03"))
    }

    @Test("the framer splits a byte stream into packets, data and control alike")
    func framer() throws {
        var framer = UCIPacketFramer()
        let stream = bytes("60 01 00 01 01") + bytes("02 00 03 00 aa bb cc") + bytes("41 00 00 01")
        framer.append(stream.prefix(3))
        #expect(framer.nextPacket() == nil)
        framer.append(stream.dropFirst(3))
        let status = try #require(next(&framer))
        #expect(status.bytes == bytes("60 01 00 01 01"))
        #expect(status.header.messageType == .notification && status.header.opcode == .coreDeviceStatus)
        #expect(Array(status.payload) == [0x01])
        let data = try #require(next(&framer))
        #expect(data.bytes == bytes("02 00 03 00 aa bb cc"))
        #expect(data.header.messageType == .data && data.header.payloadLength == 3)
        #expect(data == (try UCIPacket(bytes: bytes("02 00 03 00 aa bb cc"))))
        #expect(framer.nextPacket() == nil)
        #expect(framer.bufferedByteCount == 4)
        framer.append([0x00])
        #expect(framer.nextPacket()?.bytes == bytes("41 00 00 01 00"))
    }

    /// The framer's next packet (a function: `#require` cannot call a mutating method).
    private func next(_ framer: inout UCIPacketFramer) -> UCIPacket? { framer.nextPacket() }

    @Test("packets the framer returned stay intact while it goes on framing (copy-on-write)")
    func framerPacketsOutliveItsBuffer() throws {
        var framer = UCIPacketFramer()
        framer.append(bytes("60 01 00 01 01"))
        let first = try #require(next(&framer))
        // The framer reuses (or, while `first` is held, copies) its buffer: `first` must not change.
        framer.append(bytes("61 02 00 06 07 00 00 00 03 00") + bytes("40 00"))
        let second = try #require(next(&framer))
        framer.append(bytes("00 01 00"))
        let third = try #require(next(&framer))
        for _ in 0..<100 { framer.append(bytes("60 01 00 01 ff")); _ = framer.nextPacket() }
        #expect(first.bytes == bytes("60 01 00 01 01"))
        #expect(second.bytes == bytes("61 02 00 06 07 00 00 00 03 00"))
        #expect(third.bytes == bytes("40 00 00 01 00"))
        #expect(Array(second.payload) == bytes("07 00 00 00 03 00"))
        // An NXP extended-length control packet: 16-bit length in octets 2-3.
        framer.append(bytes("62 80 02 00 aa bb"))
        let extended = try #require(next(&framer))
        #expect(extended.header.usesExtendedLength && extended.header.payloadLength == 2)
        #expect(Array(extended.payload) == [0xAA, 0xBB])
    }

    @Test("opcode names follow the message type")
    func names() {
        #expect(UCIOpcode.sessionStart.messageName(for: .command) == "SESSION_START_CMD")
        #expect(UCIOpcode.sessionStart.messageName(for: .response) == "SESSION_START_RSP")
        #expect(UCIOpcode.sessionInfo.messageName(for: .notification) == "SESSION_INFO_NTF")
        #expect(UCIOpcode(gid: UCIGroupID(rawValue: 0xE), oid: 3).messageName(for: .notification) == "VENDOR_NTF")
        #expect(UCIOpcode(gid: .core, oid: 0x3F).messageName(for: .command) == "UNKNOWN_CMD")
        #expect(UCIOpcode.sessionSetAppConfig.description == "1/03")
        #expect(UCIGroupID(rawValue: 0xC).isVendorSpecific)
        #expect(!UCIGroupID.test.isVendorSpecific)
    }

    @Test("versions decode low byte major, high byte minor and maintenance")
    func versions() {
        let v11 = UCIVersion(rawValue: 0x1001)
        #expect(v11 == .v1_1)
        #expect(v11.major == 1 && v11.minor == 1 && v11.maintenance == 0)
        #expect(UCIVersion(rawValue: 0x2301).description == "1.2.3")
        #expect(UCIVersion.v2_0.rawValue == 0x0002)
        #expect(UCIVersion.v1_1 < .v2_0)
        #expect(UCIVersion.v2_0.usesVersion2Layout && !UCIVersion.v1_1.usesVersion2Layout)
    }
}
