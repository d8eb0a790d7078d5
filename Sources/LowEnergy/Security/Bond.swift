/// A 128-bit key (LTK, IRK, CSRK), most significant byte first. Its description never shows
/// the key, so it can be logged by accident without leaking; it is stored as hex.
public struct SecurityKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 16 bytes, most significant first.
    public let bytes: [UInt8]

    /// Creates a key from 16 bytes (most significant first).
    /// - Returns: `nil` unless `bytes` holds 16 bytes.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses 32 hex digits (most significant byte first).
    /// - Returns: `nil` if `hex` is not 32 hex digits.
    public init?(hex text: String) {
        guard text.count == 32, text.allSatisfy(\.isHexDigit) else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.bytes = bytes
    }

    /// A fresh random key.
    public static func random() -> SecurityKey {
        SecurityKey(SecurityToolbox.randomBytes(16))!
    }

    /// The key as 32 lower-case hex digits (for the store file only; never log it).
    public var hexString: String { bytes.map { hex($0).lowercased() }.joined() }

    /// `"‹key›"`: never the key itself.
    public var description: String { "‹key›" }

    /// Encodes as hex.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hexString)
    }

    /// Decodes hex.
    /// - Throws: `DecodingError.dataCorrupted` if it is not 32 hex digits.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let key = SecurityKey(hex: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a key must be 32 hex digits")
        }
        self = key
    }
}

/// A long-term key with the EDIV and Rand that identify it (both 0 for Secure Connections).
public struct LongTermKey: Sendable, Hashable, Codable {
    /// The key, already masked to the negotiated key size.
    public var key: SecurityKey
    /// Encrypted diversifier.
    public var ediv: UInt16
    /// Random number.
    public var rand: UInt64

    /// Creates a long-term key.
    public init(key: SecurityKey, ediv: UInt16 = 0, rand: UInt64 = 0) {
        self.key = key
        self.ediv = ediv
        self.rand = rand
    }
}

extension LongTermKey: CustomStringConvertible {
    /// `"‹key› EDIV 0x0000"`: never the key.
    public var description: String { "‹key› EDIV 0x\(hex(ediv))" }
}

/// An address that identifies a device for good: public, or random static (Vol 6 Part B 1.3).
public struct IdentityAddress: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The address.
    public var address: BluetoothAddress
    /// `public` or `random` (static).
    public var type: BluetoothAddressType

    /// Creates an identity address.
    public init(address: BluetoothAddress, type: BluetoothAddressType) {
        self.address = address
        self.type = type.connectable
    }

    /// `"C0:11:22:33:44:55 (random)"`.
    public var description: String { "\(address) (\(type))" }
}

/// What pairing with one device left behind: the keys to encrypt again and to recognise it.
///
/// Keys are secrets: ``description`` never shows them, and they are only written to the
/// accessory store (mode 0600).
public struct Bond: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The peer's identity address (from Identity Address Information, else the address it
    /// paired from).
    public var peerIdentity: IdentityAddress
    /// The key for encrypting when this host is the central (Secure Connections' LTK, or the
    /// legacy LTK the peer distributed). `nil`: the peer gave none (no reconnect encryption).
    public var peerLongTermKey: LongTermKey?
    /// The key to give when the peer is the central and asks for it (Secure Connections' LTK,
    /// or the legacy LTK this host distributed).
    public var localLongTermKey: LongTermKey?
    /// The peer's identity resolving key (to recognise its resolvable private addresses).
    public var peerIRK: SecurityKey?
    /// The encryption key size, bytes (7...16).
    public var keySize: Int
    /// `true` if pairing protected against a man in the middle (numeric comparison, passkey).
    public var authenticated: Bool
    /// `true` if made with LE Secure Connections (else legacy pairing).
    public var secureConnections: Bool
    /// `true` if the keys are kept: both sides set the bonding flags (``PairingPolicy/keepsKeys(request:response:)``).
    /// `false`: the peer did not bond; the keys serve this connection only and are never stored.
    /// Not written to the store (a stored bond is persistent).
    public var persistent = true

    enum CodingKeys: String, CodingKey {
        case peerIdentity = "peer_identity"
        case peerLongTermKey = "peer_ltk"
        case localLongTermKey = "local_ltk"
        case peerIRK = "peer_irk"
        case keySize = "key_size"
        case authenticated
        case secureConnections = "secure_connections"
    }

    /// Creates a bond.
    public init(peerIdentity: IdentityAddress, peerLongTermKey: LongTermKey?, localLongTermKey: LongTermKey?,
                peerIRK: SecurityKey?, keySize: Int, authenticated: Bool, secureConnections: Bool, persistent: Bool = true) {
        self.peerIdentity = peerIdentity
        self.peerLongTermKey = peerLongTermKey
        self.localLongTermKey = localLongTermKey
        self.peerIRK = peerIRK
        self.keySize = keySize
        self.authenticated = authenticated
        self.secureConnections = secureConnections
        self.persistent = persistent
    }

    /// `"bond with F0:... (random): Secure Connections, authenticated, 16-byte key, IRK"` (no keys).
    public var description: String {
        var parts = [secureConnections ? "Secure Connections" : "legacy", authenticated ? "authenticated" : "unauthenticated",
                     "\(keySize)-byte key"]
        if peerIRK != nil { parts.append("IRK") }
        if peerLongTermKey == nil { parts.append("no LTK for reconnecting") }
        if !persistent { parts.append("not bonded: the keys are not kept") }
        return "bond with \(peerIdentity): \(parts.joined(separator: ", "))"
    }
}
