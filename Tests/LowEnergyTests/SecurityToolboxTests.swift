import LowEnergy
import Testing

/// The Core specification's own sample data (Vol 3 Part H, Appendix D) and RFC 4493's AES-CMAC
/// examples. Values are written as the specification writes them, most significant byte first.
@Suite("Security toolbox: specification sample data")
struct SecurityToolboxTests {
    static func bytes(_ text: String) -> [UInt8] {
        let digits = text.filter { !$0.isWhitespace }
        var result: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            result.append(UInt8(digits[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    // D.1 / 2.3.5.6.1: the P-256 debug key (A) and a second key (B), with their DHKey.
    static let privateA = bytes("3f49f6d4 a3c55f38 74c9b3e3 d2103f50 4aff607b eb40b799 5899b8a6 cd3c1abd")
    static let privateB = bytes("55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd")
    static let publicAX = bytes("20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6")
    static let publicAY = bytes("dc809c49 652aeb6d 63329abf 5a52155c 766345c2 8fed3024 741c8ed0 1589d28b")
    static let publicBX = bytes("1ea1f0f0 1faf1d96 09592284 f19e4c00 47b58afd 8615a69f 559077b2 2faaa190")
    static let publicBY = bytes("4c55f33e 429dad37 7356703a 9ab85160 472d1130 e28e3676 5f89aff9 15b1214a")
    static let dhKey = bytes("ec0234a3 57c8ad05 341010a6 0a397d9b 99796b13 b4f866f1 868d34f3 73bfa698")
    static let n1 = bytes("d5cb8454 d177733e ffffb2ec 712baeab")
    static let n2 = bytes("a6e8e7cc 25a75f6e 216583f7 ff3dc4cf")
    static let a1 = bytes("00561237 37bfce")
    static let a2 = bytes("00a71370 2dcfc1")
    static let macKey = bytes("2965f176 a1084a02 fd3f6a20 ce636e20")

    @Test("P-256: the debug key's public key and the DHKey of the sample keys, both ways")
    func p256() throws {
        let debug = PairingKeyPair.debug()
        #expect(debug.x == Self.publicAX)
        #expect(debug.y == Self.publicAY)
        #expect(PairingKeyPair.debugPrivateKey == Self.privateA)
        let b = try PairingKeyPair(privateKey: Self.privateB)
        #expect(b.x == Self.publicBX)
        #expect(b.y == Self.publicBY)
        #expect(try debug.dhKey(peerX: Self.publicBX, peerY: Self.publicBY) == Self.dhKey)
        #expect(try b.dhKey(peerX: Self.publicAX, peerY: Self.publicAY) == Self.dhKey)
    }

    @Test("P-256: a point off the curve is refused (invalid-curve attack)")
    func invalidPoint() {
        var y = Self.publicBY
        y[31] ^= 0x01
        #expect(throws: SecurityError.invalidPublicKey) { try PairingKeyPair.debug().dhKey(peerX: Self.publicBX, peerY: y) }
        #expect(throws: SecurityError.invalidPublicKey) { try PairingKeyPair.debug().dhKey(peerX: [0], peerY: [0]) }
    }

    @Test("AES-CMAC: RFC 4493 examples 1-4 (0, 16, 40 and 64 bytes)")
    func cmac() {
        let key = Self.bytes("2b7e1516 28aed2a6 abf71588 09cf4f3c")
        let message = Self.bytes("""
            6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51
            30c81c46 a35ce411 e5fbc119 1a0a52ef f69f2445 df4f9b17 ad2b417b e66c3710
            """)
        #expect(SecurityToolbox.aesCMAC(key: key, []) == Self.bytes("bb1d6929 e9593728 7fa37d12 9b756746"))
        #expect(SecurityToolbox.aesCMAC(key: key, Array(message.prefix(16))) == Self.bytes("070a16b4 6b4d4144 f79bdd9d d04a287c"))
        #expect(SecurityToolbox.aesCMAC(key: key, Array(message.prefix(40))) == Self.bytes("dfa66747 de9ae630 30ca3261 1497c827"))
        #expect(SecurityToolbox.aesCMAC(key: key, message) == Self.bytes("51f0bebf 7e3b9d92 fc497417 79363cfe"))
    }

    @Test("f4 (D.2)")
    func f4() {
        #expect(SecurityToolbox.f4(Self.publicAX, Self.privateB, Self.n1, 0x00) == Self.bytes("f2c916f1 07a9bd1c f1eda1be a974872d"))
    }

    @Test("f5 (D.3): MacKey and LTK")
    func f5() {
        let (macKey, ltk) = SecurityToolbox.f5(w: Self.dhKey, n1: Self.n1, n2: Self.n2, a1: Self.a1, a2: Self.a2)
        #expect(macKey == Self.macKey)
        #expect(ltk == Self.bytes("69867911 69d7cd23 980522b5 94750a38"))
    }

    @Test("f6 (D.4)")
    func f6() {
        let value = SecurityToolbox.f6(w: Self.macKey, n1: Self.n1, n2: Self.n2, r: Self.bytes("12a3343b b453bb54 08da42d2 0c2d0fc8"),
                                       ioCap: Self.bytes("010102"), a1: Self.a1, a2: Self.a2)
        #expect(value == Self.bytes("e3c47398 9cd0e8c5 d26c0b09 da958f61"))
    }

    @Test("g2 (D.5): the numeric comparison value")
    func g2() {
        let value = SecurityToolbox.g2(u: Self.publicAX, v: Self.privateB, x: Self.n1, y: Self.n2)
        #expect(value == 0x2F9E_D5BA)
        #expect(value % 1_000_000 == 0x2F9E_D5BA % 1_000_000)
    }

    @Test("ah (D.7): the random address hash")
    func ah() {
        #expect(SecurityToolbox.ah(irk: Self.bytes("ec0234a3 57c8ad05 341010a6 0a397d9b"), r: [0x70, 0x81, 0x94]) == [0x0D, 0xFB, 0xAA])
    }

    @Test("c1: the legacy confirm value (2.2.3 sample)")
    func c1() {
        let value = SecurityToolbox.c1(
            k: [UInt8](repeating: 0, count: 16), r: Self.bytes("5783D52156AD6F0E6388274EC6702EE0"),
            preq: Self.bytes("07071000000101"), pres: Self.bytes("05000800000302"),
            iat: 1, ia: Self.bytes("A1A2A3A4A5A6"), rat: 0, ra: Self.bytes("B1B2B3B4B5B6"))
        #expect(value == Self.bytes("1e1e3fef878988ead2a74dc5bef13b86"))
    }

    @Test("s1: the legacy short-term key (2.2.4 sample)")
    func s1() {
        let value = SecurityToolbox.s1(k: [UInt8](repeating: 0, count: 16), r1: Self.bytes("000F0E0D0C0B0A091122334455667788"),
                                       r2: Self.bytes("010203040506070899AABBCCDDEEFF00"))
        #expect(value == Self.bytes("9a1fe1f0e8b0f49b5b4216ae796da062"))
    }

    @Test("key masking keeps the least significant bytes")
    func masking() {
        let key = [UInt8](1...16)
        #expect(SecurityToolbox.masked(key, toSize: 16) == key)
        #expect(SecurityToolbox.masked(key, toSize: 7) == [UInt8](repeating: 0, count: 9) + [10, 11, 12, 13, 14, 15, 16])
    }
}
