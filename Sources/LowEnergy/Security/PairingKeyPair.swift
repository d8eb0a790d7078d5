import Crypto

/// A P-256 key pair for LE Secure Connections (Vol 3 Part H 2.3.5.6): a fresh one per pairing,
/// or the specification's debug key (tests only: its private key is public).
///
/// Coordinates are 32 bytes, most significant first (the spec's notation; the Pairing Public
/// Key PDU carries them least significant first).
public struct PairingKeyPair: Sendable {
    /// The private scalar (swift-crypto's key type is not `Sendable`; it is rebuilt for the DH).
    private let scalar: [UInt8]
    /// The public key's X coordinate.
    public let x: [UInt8]
    /// The public key's Y coordinate.
    public let y: [UInt8]

    /// A fresh key pair from the system random number generator.
    public init() {
        self.init(privateKey: P256.KeyAgreement.PrivateKey())
    }

    init(privateKey: P256.KeyAgreement.PrivateKey) {
        scalar = [UInt8](privateKey.rawRepresentation)
        let raw = [UInt8](privateKey.publicKey.rawRepresentation)
        x = Array(raw[0..<32])
        y = Array(raw[32..<64])
    }

    /// A key pair from a 32-byte private scalar (most significant first).
    /// - Throws: ``SecurityError/invalidPublicKey`` if the scalar is not a valid private key.
    public init(privateKey scalar: [UInt8]) throws(SecurityError) {
        do {
            self.init(privateKey: try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar))
        } catch {
            throw .invalidPublicKey
        }
    }

    /// The debug key pair of Vol 3 Part H 2.3.5.6.1. A device using it can be eavesdropped on;
    /// never use it outside tests.
    public static func debug() -> PairingKeyPair {
        // 3f49f6d4 a3c55f38 74c9b3e3 d2103f50 4aff607b eb40b799 5899b8a6 cd3c1abd
        try! PairingKeyPair(privateKey: debugPrivateKey)
    }

    /// The debug private key (Vol 3 Part H 2.3.5.6.1).
    public static let debugPrivateKey: [UInt8] = [
        0x3F, 0x49, 0xF6, 0xD4, 0xA3, 0xC5, 0x5F, 0x38, 0x74, 0xC9, 0xB3, 0xE3, 0xD2, 0x10, 0x3F, 0x50,
        0x4A, 0xFF, 0x60, 0x7B, 0xEB, 0x40, 0xB7, 0x99, 0x58, 0x99, 0xB8, 0xA6, 0xCD, 0x3C, 0x1A, 0xBD,
    ]

    /// The Diffie-Hellman key with the peer's public key: the shared point's X coordinate.
    /// - Throws: ``SecurityError/invalidPublicKey`` if (x, y) is not a point on P-256 (an
    ///   invalid-curve attack must fail here, Vol 3 Part H 2.3.5.6.1).
    public func dhKey(peerX: [UInt8], peerY: [UInt8]) throws(SecurityError) -> [UInt8] {
        guard peerX.count == 32, peerY.count == 32 else { throw .invalidPublicKey }
        do {
            let peer = try P256.KeyAgreement.PublicKey(rawRepresentation: peerX + peerY)
            let privateKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar)
            let secret = try privateKey.sharedSecretFromKeyAgreement(with: peer)
            return secret.withUnsafeBytes { [UInt8]($0) }
        } catch {
            throw .invalidPublicKey
        }
    }
}
