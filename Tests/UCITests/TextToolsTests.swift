import Testing
import UCI

/// UCI as people type and read it: packets in hex, MAC addresses, versions, capabilities as
/// fields, and the `nearby uci decode` decoder.
@Suite("UCI text: packets in hex, addresses, capabilities as fields, the text decoder")
struct TextToolsTests {
    @Test("a MAC address as people write it: 1-4 hex digits short, 16 extended, 0x and colons allowed")
    func macAddresses() {
        #expect(UCIMACAddress(parsing: "0x0002") == .short(2))
        #expect(UCIMACAddress(parsing: " 2 ") == .short(2))
        #expect(UCIMACAddress(parsing: "0XABCD") == .short(0xABCD))
        #expect(UCIMACAddress(parsing: "01:02:03:04:05:06:07:08") == .extended(0x0102_0304_0506_0708))
        #expect(UCIMACAddress(parsing: "12345") == nil)
        #expect(UCIMACAddress(parsing: "") == nil)
        #expect(UCIMACAddress(parsing: "zz") == nil)
        #expect(UCIVersion(name: "1") == .v1_1 && UCIVersion(name: "2.0") == .v2_0 && UCIVersion(name: "3") == nil)
    }

    @Test("a packet from hex: its line, and why text is not a packet")
    func packetsFromHex() throws {
        let command = try UCIPacket(hex: "0x20 02 00 00")
        #expect(command.line == "20 02 00 00                           CMD gid 0x0 oid 0x2, 0 payload byte(s)")
        let response = try UCIPacket(hex: "40:00:00:01:00")
        #expect(response.line.hasSuffix("RSP gid 0x0 oid 0x0, 1 payload byte(s), status 0x0"))
        #expect(throws: UCIPacketTextError.notHex("zz")) { try UCIPacket(hex: "zz") }
        #expect(throws: UCIPacketTextError.tooShort(byteCount: 2)) { try UCIPacket(hex: "2002") }
        #expect(throws: UCIPacketTextError.lengthMismatch(bytes: bytes("20 02 00 01"), announcedPayload: 1)) { try UCIPacket(hex: "20020001") }
        #expect(UCIPacketTextError.lengthMismatch(bytes: bytes("20 02 00 01"), announcedPayload: 1).description
            == "(20 02 00 01): its header announces 1 payload byte(s), so the packet must be 5 bytes, not 4")
    }

    @Test("capabilities as fields, decoded for their kind; unknown and malformed ones keep their bytes")
    func capabilityFields() {
        func field(_ id: UInt8, _ value: [UInt8], _ version: UCIVersion = .v1_1) -> UCIField { UCICapability(id: id, value: value).field(version: version) }
        #expect(field(0x0B, [0x09]) == UCIField("supported_channels", .list([.integer(5), .integer(9)])))
        #expect(field(0x13, [0xFF, 0x00]) == UCIField("supported_max_data_packet_payload_size", .integer(255)))
        #expect(field(0x10, [0x0D]) == UCIField("supported_aoa", .list([.text("azimuth ±90°"), .text("elevation"), .text("FoM")])))
        #expect(field(0x11, [0x01]) == UCIField("supported_extended_mac_address", .flag(true)))
        #expect(field(0xE4, [0x64]) == UCIField("capability_0xe4", .bytes([0x64])))
        let malformed = field(0x01, [0x04], .v2_0)
        #expect(malformed.name == "supported_max_data_packet_payload_size")
        guard case .text(let text) = malformed.value else {
            Issue.record("not text: \(malformed)")
            return
        }
        #expect(text.hasPrefix("04 (malformed: "))
        let fields = UCICapabilities([UCICapability(id: 0x0E, value: [0x0A])], version: .v2_0).fields
        #expect(fields == [UCIField("supported_channels", .list([.integer(6), .integer(9)]))])
    }

    @Test("the text decoder: messages, segments across inputs, bad input counted, incomplete messages reported")
    func textDecoder() {
        var decoder = UCITextDecoder(version: .v2_0, json: false)
        let reset = decoder.decode("20 00 00 01 00", label: "argument 1")
        #expect(reset.count == 1)
        guard case .message(let text) = reset.first else {
            Issue.record("not a message: \(reset)")
            return
        }
        #expect(text.hasPrefix("CORE_DEVICE_RESET_CMD (CMD "))
        let bad = decoder.decode("zz", label: "argument 2")
        #expect(bad.count == 1 && decoder.failures == 1)
        if case .error(let message)? = bad.first { #expect(message.hasPrefix("argument 2: ")) } else { Issue.record("not an error: \(bad)") }
        // A segmented message: the first segment (PBF = 1) completes nothing, the second does.
        #expect(decoder.decode("30 00 00 01 00", label: "argument 3").isEmpty)
        let finished = decoder.finish()
        #expect(finished.count == 1 && decoder.failures == 2)
        guard case .error(let incomplete) = finished.first else {
            Issue.record("not an error: \(finished)")
            return
        }
        #expect(incomplete.contains("incomplete, 1 segment (1 bytes) received but not the last one (PBF = 0)"))

        var json = UCITextDecoder(version: .v2_0, json: true)
        guard case .message(let object)? = json.decode("40 00 00 01 00", label: "line 1").first else {
            Issue.record("no JSON message")
            return
        }
        #expect(object.hasPrefix("{\"message\":\"CORE_DEVICE_RESET_RSP\",\"message_type\":\"RSP\""))
    }

}
