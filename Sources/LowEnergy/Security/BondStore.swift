/// Where bonds live between connections and processes. ``InMemoryBondStore`` keeps them for
/// one process; the Accessories module stores them with the accessory records (0600, atomic).
public protocol BondStore: Sendable {
    /// The bond with the device whose identity (or pairing address) is `peer`, if any.
    func bond(for peer: IdentityAddress) async -> Bond?
    /// Stores `bond`, made on a connection to `connectedAddress` (an RPA, or the identity).
    /// - Throws: ``SecurityError/storageFailed(detail:)`` if it could not be written.
    func save(_ bond: Bond, connectedAddress: IdentityAddress) async throws(SecurityError)
    /// The IRKs of bonded devices with their identities (to resolve private addresses).
    func resolvingKeys() async -> [ResolvingKey]
}

/// An IRK with the identity it belongs to.
public struct ResolvingKey: Sendable, Hashable {
    /// The device's identity address.
    public var identity: IdentityAddress
    /// Its identity resolving key.
    public var irk: SecurityKey

    /// Creates an entry.
    public init(identity: IdentityAddress, irk: SecurityKey) {
        self.identity = identity
        self.irk = irk
    }
}

/// Bonds kept in memory (lost when the process ends): the default, and for tests.
public actor InMemoryBondStore: BondStore {
    private var bonds: [IdentityAddress: Bond] = [:]
    private var aliases: [IdentityAddress: IdentityAddress] = [:]

    /// Creates an empty store, or one holding `bonds`.
    public init(_ bonds: [Bond] = []) {
        for bond in bonds { self.bonds[bond.peerIdentity] = bond }
    }

    /// The bond for `peer` (its identity, or the address it paired from).
    public func bond(for peer: IdentityAddress) -> Bond? {
        bonds[peer] ?? aliases[peer].flatMap { bonds[$0] }
    }

    /// Stores `bond` under its identity (and the address it paired from).
    public func save(_ bond: Bond, connectedAddress: IdentityAddress) {
        bonds[bond.peerIdentity] = bond
        if connectedAddress != bond.peerIdentity { aliases[connectedAddress] = bond.peerIdentity }
    }

    /// Removes the bond with `peer`.
    public func remove(_ peer: IdentityAddress) {
        bonds[peer] = nil
        aliases = aliases.filter { $0.value != peer && $0.key != peer }
    }

    /// Every stored bond.
    public var all: [Bond] { Array(bonds.values) }

    /// The IRKs of the stored bonds.
    public func resolvingKeys() -> [ResolvingKey] {
        bonds.values.compactMap { bond in bond.peerIRK.map { ResolvingKey(identity: bond.peerIdentity, irk: $0) } }
    }
}

/// Resolvable private addresses (Vol 6 Part B 1.3.2.2): resolve one with an IRK, make one.
public enum ResolvablePrivateAddress {
    /// `true` if `address` is a resolvable private address made with `irk`:
    /// `hash == ah(irk, prand)`.
    public static func resolves(_ address: BluetoothAddress, with irk: SecurityKey) -> Bool {
        guard address.randomAddressKind == .resolvablePrivate else { return false }
        let bytes = address.bytes
        return SecurityToolbox.ah(irk: irk.bytes, r: Array(bytes[0..<3])) == Array(bytes[3..<6])
    }

    /// The identity among `keys` whose IRK resolves `address`, if any.
    public static func resolve(_ address: BluetoothAddress, among keys: [ResolvingKey]) -> IdentityAddress? {
        guard address.randomAddressKind == .resolvablePrivate else { return nil }
        return keys.first { resolves(address, with: $0.irk) }?.identity
    }

    /// A fresh resolvable private address for `irk`.
    /// - Parameters:
    ///   - irk: the identity resolving key the address is made from.
    ///   - random: random bytes (the system generator; tests pass their own).
    public static func generate(with irk: SecurityKey,
                                random: (Int) -> [UInt8] = SecurityToolbox.randomBytes) -> BluetoothAddress {
        var prand: [UInt8]
        repeat {
            prand = random(3)
            prand[0] = prand[0] & 0x3F | 0x40
        } while !isValidRandomPart(prand)
        let hash = SecurityToolbox.ah(irk: irk.bytes, r: prand)
        return BluetoothAddress(bytes: prand + hash)!
    }

    /// `true` if the 22 random bits of `prand` (after the two type bits `01`) are neither all 0
    /// nor all 1, as Vol 6 Part B 1.3.2.2 requires.
    static func isValidRandomPart(_ prand: [UInt8]) -> Bool {
        let bits = UInt32(prand[0] & 0x3F) << 16 | UInt32(prand[1]) << 8 | UInt32(prand[2])
        return bits != 0 && bits != 0x3F_FFFF
    }
}
