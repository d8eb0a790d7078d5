/// How this host pairs: what it can show or type, and what security it insists on.
public struct SecurityConfiguration: Sendable, Hashable {
    /// What this host can show and type (a terminal: ``IOCapability/keyboardDisplay``; a
    /// service with nobody at the keyboard: ``IOCapability/noInputNoOutput``, Just Works only).
    public var ioCapability: IOCapability
    /// Ask for a bond (keys stored for encrypting again later). Default `true`.
    public var bonding: Bool
    /// Ask for protection against a man in the middle (numeric comparison or passkey). With
    /// it, pairing fails when the IO capabilities only allow Just Works. Default `false`.
    public var requireMITM: Bool
    /// Refuse legacy pairing (older accessories cannot pair then) and keys shorter than 16 bytes
    /// (Secure Connections Only mode, Vol 3 Part C 10.2.4). Default `false`.
    public var secureConnectionsOnly: Bool
    /// The shortest encryption key accepted, bytes (7...16). Default 7 (the specification's
    /// minimum); 16 whatever it says with ``secureConnectionsOnly`` (``PairingPolicy/minimumKeySize``).
    public var minimumKeySize: Int
    /// The longest key offered, bytes (7...16). Default 16.
    public var maximumKeySize: Int
    /// Central: answer an accessory's Security Request (encrypt with a stored bond, else pair).
    /// Default `true`.
    public var pairOnSecurityRequest = true
    /// Central: when an ATT request fails with Insufficient Authentication, Encryption or
    /// Encryption Key Size, encrypt (bonded) or pair, then retry the request once. Default `true`.
    public var pairWhenRequired = true
    /// Central: encrypt right after connecting when a bond with the accessory is stored.
    /// Default `true`.
    public var encryptWhenBonded = true
    /// Offer LE Secure Connections. Default `true`; `false` behaves like a Bluetooth 4.0
    /// device (legacy pairing only), for tests and for accessories that mishandle SC.
    public var secureConnectionsSupported = true
    /// Accept a peer that uses the debug public key of Vol 3 Part H 2.3.5.6.1 (`--allow-debug-keys`):
    /// the pairing then counts as unauthenticated whatever the method (anyone who recorded it can
    /// derive the key). Default `false`: such a pairing is refused.
    public var allowsDebugKeys = false
    /// Addresses (identity addresses, or addresses a bond was made from) whose bond the user asked
    /// to replace (`nearby setup --repair`): their stored keys are not used to encrypt, and a
    /// pairing that completes replaces them whatever its strength or IRK. Default: none.
    public var repairing: Set<BluetoothAddress> = []
    /// How many pairings the peer may cause on one connection (Security Requests, Pairing
    /// Requests, ATT security errors); a pairing the user starts (``SecurityManager/pair()``) is
    /// not counted. Default 2: one, and one more after the waiting interval.
    public var pairingsPerConnection = 2
    /// Repeated Attempts (Vol 3 Part H 2.3.6): after a failed pairing, the peer may not pair again
    /// with this host for this long; the interval doubles with every further failure, up to
    /// ``maximumWaitingInterval``. Default 2 s.
    public var waitingInterval = Duration.seconds(2)
    /// The longest Repeated Attempts waiting interval; a peer that has not failed for this long
    /// after its interval ended starts again from ``waitingInterval``. Default 64 s.
    public var maximumWaitingInterval = Duration.seconds(64)

    /// Creates a configuration; the defaults pair with anything that pairs (Secure
    /// Connections preferred, legacy allowed), bonding, no MITM requirement.
    public init(ioCapability: IOCapability = .noInputNoOutput, bonding: Bool = true, requireMITM: Bool = false,
                secureConnectionsOnly: Bool = false, minimumKeySize: Int = 7, maximumKeySize: Int = 16) {
        self.ioCapability = ioCapability
        self.bonding = bonding
        self.requireMITM = requireMITM
        self.secureConnectionsOnly = secureConnectionsOnly
        self.minimumKeySize = min(16, max(7, minimumKeySize))
        self.maximumKeySize = min(16, max(self.minimumKeySize, maximumKeySize))
    }

    /// The pairing policy these settings make (the decisions, in one place).
    public var policy: PairingPolicy { PairingPolicy(self) }

    /// The AuthReq this host sends.
    var authentication: AuthenticationRequirements {
        var value: AuthenticationRequirements = secureConnectionsSupported ? [.secureConnections] : []
        if bonding { value.insert(.bonding) }
        if requireMITM { value.insert(.mitm) }
        return value
    }
}

/// This host's own identity, distributed to peers during pairing so they recognise it: the
/// identity address and the IRK its private addresses would resolve with.
public struct LocalIdentity: Sendable, Hashable, Codable {
    /// The identity address (a random static address, or the controller's public address).
    public var address: IdentityAddress
    /// The identity resolving key.
    public var irk: SecurityKey

    /// Creates an identity.
    public init(address: IdentityAddress, irk: SecurityKey) {
        self.address = address
        self.irk = irk
    }
}
