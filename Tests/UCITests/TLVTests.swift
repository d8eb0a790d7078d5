import Testing
import UCI

/// `UCITLVReader`: the TLV lists of UCI payloads, read in place, with errors naming the part.
@Suite("UCI TLV reader")
struct TLVTests {
    @Test("a counted list is read in place: types, values as slices of the payload, nothing after")
    func countedList() throws {
        // CORE_SET_CONFIG_CMD: 2 parameters, LOW_POWER_MODE = 1 and a 3-byte vendor parameter.
        let payload = bytes("02 | 01 01 01 | e3 03 aa bb cc")
        var reader = UCITLVReader(payload, context: "CORE_SET_CONFIG_CMD")
        let list = try reader.countedList()
        #expect(list == [UCITLV(type: 0x01, value: [0x01]), UCITLV(type: 0xE3, value: [0xAA, 0xBB, 0xCC])])
        #expect(list[1].value.startIndex == 6)  // a slice of the payload, not a copy
        #expect(reader.isAtEnd)
        #expect(list[1].description == "0xE3 (3 bytes): aa bb cc")
        var empty = UCITLVReader([0x00], context: "CORE_SET_CONFIG_CMD")
        #expect(try empty.countedList().isEmpty)
    }

    @Test("TLVs one at a time, after other fields")
    func oneAtATime() throws {
        var reader = UCITLVReader(bytes("00 00 | 04 01 09"), context: "SESSION_SET_APP_CONFIG_CMD")
        let count = try reader.count()
        #expect(count == 0)
        let next = try reader.count()
        #expect(next == 0)
        let tlv = try reader.next(0, of: 1)
        #expect(tlv.type == 0x04 && Array(tlv.value) == [0x09])
        try reader.expectEnd()
    }

    @Test(
        "a cut or overlong list says which part of which entry is missing",
        arguments: [
            ("", "field \"number of parameters\": needs 1 byte at offset 0"),
            ("02 01 01 01", "field \"parameter 2 of 2: identifier\": needs 1 byte at offset 4"),
            ("01 04", "field \"parameter 0x04: length\": needs 1 byte at offset 2"),
            ("01 04 02 09", "field \"parameter 0x04: value\": needs 2 bytes at offset 3, but only 1 is left"),
            ("01 04 01 09 ff", "1 unexpected byte after the last field"),
        ])
    func errors(input: String, message: String) {
        var reader = UCITLVReader(bytes(input), context: "SESSION_SET_APP_CONFIG_CMD")
        let error = #expect(throws: UCIError.self) { try reader.countedList(typeField: "identifier") }
        #expect(error?.description.contains(message) == true, "\(error.map { "\($0)" } ?? "no error")")
        #expect(error?.description.hasPrefix("SESSION_SET_APP_CONFIG_CMD") == true)
    }

    @Test("entries are named by the caller once their type is known")
    func namedEntries() {
        var reader = UCITLVReader(bytes("09"), context: "SESSION_SET_APP_CONFIG_CMD")
        let error = #expect(throws: UCIError.self) {
            try reader.next(0, of: 1, entry: "parameter", typeField: "identifier", name: { UCIAppConfigID(rawValue: $0).description })
        }
        #expect(error?.description.contains("field \"RANGING_DURATION (0x09): length\"") == true, "\(error.map { "\($0)" } ?? "")")
    }
}
