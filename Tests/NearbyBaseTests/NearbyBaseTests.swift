import NearbyBase
import Testing

@Suite("Hex")
struct HexTests {
    @Test("bytes and integers become hex text")
    func writing() {
        #expect(Hex.byte(0x0A) == "0A")
        #expect(Hex.prefixed(UInt8(0x2A)) == "0x2A")
        #expect(Hex.prefixed(UInt16(0x2A)) == "0x002A")
        #expect(Hex.prefixed(UInt32(0x2A)) == "0x0000002A")
        #expect(Hex.prefixed(UInt16(0x1234), digits: 2) == "0x1234")
        #expect(Hex.digits(UInt64(0xABC), count: 6) == "000ABC")
        #expect(Hex.bytes([0x01, 0xAB, 0x00]) == "01 ab 00")
        #expect(Hex.bytes([0x01, 0xAB], separator: "", uppercase: true) == "01AB")
        #expect(Hex.bytes([1, 2, 3, 4], limit: 2) == "01 02 …")
        #expect(Hex.bytes([]) == "")
    }

    @Test("hex text becomes bytes; bad text is refused with the position")
    func parsing() throws {
        #expect(try Hex.parse("62 00 00 38") == [0x62, 0x00, 0x00, 0x38])
        #expect(try Hex.parse("62:00:00:38") == [0x62, 0x00, 0x00, 0x38])
        #expect(try Hex.parse("0x62000038") == [0x62, 0x00, 0x00, 0x38])
        #expect(try Hex.parse("4C00") == [0x4C, 0x00])
        #expect(try Hex.parse("") == [])
        #expect(throws: Hex.ParseError.self) { try Hex.parse("62 0") }
        do {
            _ = try Hex.parse("62 zz")
            Issue.record("no error")
        } catch {
            #expect(error.description.contains("position 4"))
        }
    }
}

@Suite("ByteReader")
struct ByteReaderTests {
    @Test("little- and big-endian reads, in place, never trapping")
    func reads() {
        let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B]
        var reader = ByteReader(bytes)
        do { let v = reader.u8(); #expect(v == 0x01) }
        do { let v = reader.u16(); #expect(v == 0x0302) }
        do { let v = reader.u24(); #expect(v == 0x06_0504) }
        do { let v = reader.bigEndian(UInt16.self); #expect(v == 0x0708) }
        #expect(reader.offset == 8)
        #expect(reader.remaining == 3)
        do { let v = reader.u32(); #expect(v == nil) }  // too short: nothing read
        #expect(reader.offset == 8)
        do { let v = reader.bigEndian(UInt32.self, byteCount: 3); #expect(v == 0x09_0A0B) }
        #expect(reader.isAtEnd)
        do { let v = reader.u8(); #expect(v == nil) }
        do { let v = reader.rest(); #expect(v == []) }
    }

    @Test("a slice is read from its own start; skip and rest")
    func slices() {
        let bytes: [UInt8] = [0xFF, 0xFF, 0x34, 0x12, 0xAA, 0xBB]
        var reader = ByteReader(bytes[2...])
        #expect(reader.count == 4)
        do { let v = reader.u16(); #expect(v == 0x1234) }
        let skippedTooMuch = reader.skip(3)
        #expect(!skippedTooMuch)
        let skipped = reader.skip(1)
        #expect(skipped)
        do { let v = reader.rest(); #expect(v == [0xBB]) }
        var negative = ByteReader([0x01])
        let none = negative.bytes(-1)
        #expect(none == nil)
        let tooWide = negative.littleEndian(UInt16.self, byteCount: 3)
        #expect(tooWide == nil)
    }

    @Test("appending integers is the mirror of reading them")
    func writing() {
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(UInt16(0x1234))
        bytes.appendBigEndian(UInt32(0x0A0B0C), byteCount: 3)
        bytes.appendLittleEndian(UInt64(0x0102), byteCount: 2)
        #expect(bytes == [0x34, 0x12, 0x0A, 0x0B, 0x0C, 0x02, 0x01])
        var reader = ByteReader(bytes)
        do { let v = reader.u16(); #expect(v == 0x1234) }
        do { let v = reader.bigEndian(UInt32.self, byteCount: 3); #expect(v == 0x0A0B0C) }
        do { let v = reader.u16(); #expect(v == 0x0102) }
    }
}

@Suite("Durations and decimals")
struct DurationTests {
    @Test("a duration in seconds, milliseconds and text")
    func durations() {
        #expect(Duration.milliseconds(250).inSeconds == 0.25)
        #expect(Duration.seconds(2).inMilliseconds == 2000)
        #expect(Duration.milliseconds(1500).compactText == "1500 ms")
        #expect(Duration.seconds(2).compactText == "2 s")
        #expect(Duration.milliseconds(250).secondsText == "0.25 s")
        #expect(Duration.seconds(2).secondsText == "2 s")
        #expect(Duration.seconds(exactly: 1.5) == .milliseconds(1500))
        #expect(Duration.seconds(exactly: -1) == .zero)
        #expect(Duration.seconds(exactly: .nan) == .zero)
    }

    @Test("decimal text without libm")
    func decimals() {
        #expect(DecimalText.roundedInteger(2.5) == 3)
        #expect(DecimalText.roundedInteger(-2.5) == -3)
        #expect(DecimalText.roundedInteger(.infinity) == nil)
        #expect(DecimalText.trimmed(1.50, decimals: 3) == "1.5")
        #expect(DecimalText.trimmed(2, decimals: 3) == "2")
        #expect(DecimalText.fixed(1.2345, 3) == "1.235")
        #expect(DecimalText.fixed(-0.0001, 3) == "0.000")
        #expect(DecimalText.fixed(-1.5, 0) == "-2")
        #expect(DecimalText.fixed(.nan, 2) == "nan")
    }
}

@Suite struct IntegerTextTests {
    @Test func decimalOrHexWithSpaces() {
        #expect(IntegerText.parse("42", as: UInt32.self) == 42)
        #expect(IntegerText.parse(" 0x2A\t", as: UInt32.self) == 42)
        #expect(IntegerText.parse("0X4c", as: UInt16.self) == 0x4C)
        #expect(IntegerText.parse("4294967295", as: UInt32.self) == UInt32.max)
        #expect(IntegerText.parse("4294967296", as: UInt32.self) == nil)
        #expect(IntegerText.parse("0x", as: UInt8.self) == nil)
        #expect(IntegerText.parse("twelve", as: Int.self) == nil)
        #expect(IntegerText.parse("", as: Int.self) == nil)
    }
}
