import Crypto
import _CryptoExtras

/// The Security Manager's cryptographic toolbox (Core Vol 3 Part H 2.2): the AES-128 block
/// function `e`, AES-CMAC (RFC 4493), the LE Secure Connections functions `f4`, `f5`, `f6`,
/// `g2`, the legacy functions `c1`, `s1`, and the address hash `ah`.
///
/// **Byte order**: every value is in the specification's notation, most significant byte
/// first (`ah(irk, r)` takes `r = [0x70, 0x81, 0x94]` for the spec's `0x708194`). SMP PDUs and
/// HCI carry values least significant byte first; ``SMPPDU`` and the HCI commands convert.
///
/// AES comes from swift-crypto (BoringSSL's block function); nothing here is hand-written
/// cryptography beyond the CMAC mode of RFC 4493. The functions trap on wrong input lengths
/// (a programming error, never a peer's input: PDUs are length-checked when decoded).
public enum SecurityToolbox {
    /// `e(key, plaintext)`: one AES-128 block encryption (Vol 3 Part H 2.2.1).
    /// - Parameters: `key` and `plaintext`, 16 bytes each, most significant byte first.
    /// - Returns: the 16-byte ciphertext.
    public static func e(_ key: [UInt8], _ plaintext: [UInt8]) -> [UInt8] {
        precondition(key.count == 16 && plaintext.count == 16, "e() takes a 16-byte key and a 16-byte block")
        return encrypt(plaintext, with: SymmetricKey(data: key))
    }

    static func encrypt(_ block: [UInt8], with key: SymmetricKey) -> [UInt8] {
        var block = block
        // Cannot fail: the key is 16 bytes and the block 16 bytes.
        try! AES.permute(&block, key: key)
        return block
    }

    /// AES-CMAC with a 128-bit key (RFC 4493; Vol 3 Part H 2.2.5).
    /// - Parameters:
    ///   - key: 16 bytes.
    ///   - message: any length.
    /// - Returns: the 16-byte MAC.
    public static func aesCMAC(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        precondition(key.count == 16, "AES-CMAC takes a 16-byte key")
        let symmetricKey = SymmetricKey(data: key)
        let l = encrypt([UInt8](repeating: 0, count: 16), with: symmetricKey)
        let k1 = doubled(l)
        let k2 = doubled(k1)
        let blockCount = max(1, (message.count + 15) / 16)
        let lastIsComplete = !message.isEmpty && message.count % 16 == 0
        var x = [UInt8](repeating: 0, count: 16)
        for block in 0..<(blockCount - 1) {
            for index in 0..<16 { x[index] ^= message[block * 16 + index] }
            x = encrypt(x, with: symmetricKey)
        }
        let start = (blockCount - 1) * 16
        for index in 0..<16 {
            let position = start + index
            var byte: UInt8
            if position < message.count {
                byte = message[position]
            } else {
                byte = position == message.count ? 0x80 : 0x00
            }
            byte ^= lastIsComplete ? k1[index] : k2[index]
            x[index] ^= byte
        }
        return encrypt(x, with: symmetricKey)
    }

    /// The subkey doubling of RFC 4493 2.3: shift left by one bit, XOR 0x87 if the top bit was set.
    private static func doubled(_ block: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 16)
        var carry: UInt8 = 0
        for index in stride(from: 15, through: 0, by: -1) {
            result[index] = block[index] << 1 | carry
            carry = block[index] >> 7
        }
        if block[0] & 0x80 != 0 { result[15] ^= 0x87 }
        return result
    }

    /// `f4(U, V, X, Z) = AES-CMAC_X(U || V || Z)`: the LE Secure Connections confirm value
    /// (Vol 3 Part H 2.2.6).
    /// - Parameters: `u`, `v` 32 bytes (public key X coordinates), `x` 16 bytes (a nonce), `z` one byte.
    public static func f4(_ u: [UInt8], _ v: [UInt8], _ x: [UInt8], _ z: UInt8) -> [UInt8] {
        precondition(u.count == 32 && v.count == 32, "f4 takes 32-byte U and V")
        return aesCMAC(key: x, u + v + [z])
    }

    /// The f5 salt (Vol 3 Part H 2.2.7).
    static let f5Salt: [UInt8] = [0x6C, 0x88, 0x83, 0x91, 0xAA, 0xF5, 0xA5, 0x38, 0x60, 0x37, 0x0B, 0xDB, 0x5A, 0x60, 0x83, 0xBE]

    /// `f5(W, N1, N2, A1, A2)`: the LE Secure Connections key generation (Vol 3 Part H 2.2.7).
    /// - Parameters:
    ///   - w: the 32-byte DHKey.
    ///   - n1: the initiator's 16-byte nonce.
    ///   - n2: the responder's 16-byte nonce.
    ///   - a1: the initiator's address, 7 bytes: address type (0 public, 1 random) then the address.
    ///   - a2: the responder's address, 7 bytes, the same way.
    /// - Returns: MacKey and LTK, 16 bytes each.
    public static func f5(w: [UInt8], n1: [UInt8], n2: [UInt8], a1: [UInt8], a2: [UInt8]) -> (macKey: [UInt8], ltk: [UInt8]) {
        precondition(w.count == 32 && n1.count == 16 && n2.count == 16 && a1.count == 7 && a2.count == 7, "f5 argument sizes")
        let t = aesCMAC(key: f5Salt, w)
        let keyID: [UInt8] = [0x62, 0x74, 0x6C, 0x65]  // "btle"
        let rest = keyID + n1 + n2 + a1 + a2 + [0x01, 0x00]  // Length = 256
        let macKey = aesCMAC(key: t, [0x00] + rest)
        let ltk = aesCMAC(key: t, [0x01] + rest)
        return (macKey, ltk)
    }

    /// `f6(W, N1, N2, R, IOcap, A1, A2)`: the LE Secure Connections check value (Vol 3 Part H 2.2.8).
    /// - Parameters:
    ///   - w: MacKey (16 bytes).
    ///   - n1: 16 bytes (the spec's N1).
    ///   - n2: 16 bytes (N2).
    ///   - r: 16 bytes (R).
    ///   - ioCap: 3 bytes: AuthReq, OOB data flag, IO capability (most significant first).
    ///   - a1: 7 bytes (address type, address).
    ///   - a2: 7 bytes (address type, address).
    public static func f6(w: [UInt8], n1: [UInt8], n2: [UInt8], r: [UInt8], ioCap: [UInt8], a1: [UInt8], a2: [UInt8]) -> [UInt8] {
        precondition(n1.count == 16 && n2.count == 16 && r.count == 16 && ioCap.count == 3 && a1.count == 7 && a2.count == 7, "f6 argument sizes")
        return aesCMAC(key: w, n1 + n2 + r + ioCap + a1 + a2)
    }

    /// `g2(U, V, X, Y)`: the six-digit numeric comparison value is `g2 mod 1 000 000`
    /// (Vol 3 Part H 2.2.9).
    /// - Parameters: `u`, `v` 32 bytes; `x`, `y` 16 bytes.
    /// - Returns: the 32-bit value.
    public static func g2(u: [UInt8], v: [UInt8], x: [UInt8], y: [UInt8]) -> UInt32 {
        precondition(u.count == 32 && v.count == 32 && y.count == 16, "g2 argument sizes")
        let mac = aesCMAC(key: x, u + v + y)
        return mac[12...].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// `ah(k, r)`: the random address hash (Vol 3 Part H 2.2.2).
    /// - Parameters: `irk` 16 bytes, `r` 3 bytes (prand).
    /// - Returns: the 3-byte hash.
    public static func ah(irk: [UInt8], r: [UInt8]) -> [UInt8] {
        precondition(r.count == 3, "ah takes a 3-byte prand")
        let result = e(irk, [UInt8](repeating: 0, count: 13) + r)
        return Array(result[13...])
    }

    /// `c1(k, r, preq, pres, iat, rat, ia, ra)`: the legacy pairing confirm value (Vol 3 Part H 2.2.3).
    /// - Parameters:
    ///   - k: TK, 16 bytes.
    ///   - r: the 16-byte random value.
    ///   - preq: the Pairing Request PDU, 7 bytes, in the spec's notation (the wire bytes
    ///     reversed).
    ///   - pres: the Pairing Response PDU, 7 bytes, the same way.
    ///   - iat: the initiator's address type (0 public, 1 random).
    ///   - ia: the initiator's address, 6 bytes, most significant first.
    ///   - rat: the responder's address type (0 public, 1 random).
    ///   - ra: the responder's address, 6 bytes, most significant first.
    public static func c1(k: [UInt8], r: [UInt8], preq: [UInt8], pres: [UInt8], iat: UInt8, ia: [UInt8],
                          rat: UInt8, ra: [UInt8]) -> [UInt8] {
        precondition(preq.count == 7 && pres.count == 7 && ia.count == 6 && ra.count == 6 && r.count == 16, "c1 argument sizes")
        let p1 = pres + preq + [rat & 0x01, iat & 0x01]
        let p2 = [UInt8](repeating: 0, count: 4) + ia + ra
        let key = SymmetricKey(data: k)
        var block = zip(r, p1).map { $0 ^ $1 }
        block = encrypt(block, with: key)
        block = zip(block, p2).map { $0 ^ $1 }
        return encrypt(block, with: key)
    }

    /// `s1(k, r1, r2)`: the legacy short-term key (Vol 3 Part H 2.2.4): `e(k, r1' || r2')` with
    /// the least significant 64 bits of each random value.
    public static func s1(k: [UInt8], r1: [UInt8], r2: [UInt8]) -> [UInt8] {
        precondition(r1.count == 16 && r2.count == 16, "s1 takes two 16-byte values")
        return e(k, Array(r1[8...]) + Array(r2[8...]))
    }

    /// Cryptographically secure random bytes (the system generator).
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// `true` if `a` and `b` hold the same bytes, in time that depends only on their length
    /// (never on where they differ): confirm values, DHKey checks and MACs are compared with it,
    /// so a peer cannot learn a correct value byte by byte from response times (Linux
    /// `net/bluetooth/smp.c` compares them with `crypto_memneq` for the same reason). Lengths are
    /// public; different lengths are unequal.
    @inline(never)
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// Masks a key to `size` bytes of entropy (Vol 3 Part H 2.3.4): the most significant
    /// `16 - size` bytes become zero.
    public static func masked(_ key: [UInt8], toSize size: Int) -> [UInt8] {
        let size = min(16, max(7, size))
        return [UInt8](repeating: 0, count: 16 - size) + key.suffix(size)
    }
}
