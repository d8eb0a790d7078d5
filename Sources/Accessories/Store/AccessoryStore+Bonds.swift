public import LowEnergy

/// The store keeps bonds with the accessory records: the BLE host's ``BondStore``.
///
/// A bond belongs to the record whose address is the accessory's identity or the address it
/// paired from. A bond made before its accessory is stored (setup pairs, then stores) is held
/// in memory until ``AccessorySetup`` stores the record with it.
extension AccessoryStore: BondStore {
    /// The bond of the accessory `peer` designates (identity or stored address), if any.
    public func bond(for peer: IdentityAddress) async -> Bond? {
        if let records = try? await list(),
           let record = records.first(where: { $0.bond?.peerIdentity == peer })
               ?? records.first(where: { $0.address == peer.address && $0.bond != nil }) {
            return record.bond
        }
        return pendingBonds[peer]
    }

    /// Stores `bond` in the record of its accessory (written atomically, 0600).
    /// - Throws: `SecurityError.storageFailed(detail:)` if the store cannot be written.
    public func save(_ bond: Bond, connectedAddress: IdentityAddress) async throws(SecurityError) {
        let records: [AccessoryRecord]
        do {
            records = try await list()
        } catch {
            throw .storageFailed(detail: "\(error)")
        }
        let candidates = [connectedAddress.address, bond.peerIdentity.address]
        guard let record = records.first(where: { candidates.contains($0.address) })
            ?? records.first(where: { $0.bond?.peerIdentity == bond.peerIdentity }) else {
            pendingBonds[bond.peerIdentity] = bond
            pendingBonds[connectedAddress] = bond
            return
        }
        do {
            try await update(record.id) { record in
                record.bond = bond
                record.bonding = .bonded
            }
        } catch {
            throw .storageFailed(detail: "\(error)")
        }
    }

    /// The IRKs of the stored bonds (and bonds not stored yet).
    public func resolvingKeys() async -> [ResolvingKey] {
        let stored = ((try? await list()) ?? []).compactMap(\.bond)
        var keys: [ResolvingKey] = []
        for bond in stored + pendingBonds.values {
            guard let irk = bond.peerIRK else { continue }
            let key = ResolvingKey(identity: bond.peerIdentity, irk: irk)
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// A bond made with `address` (or the identity it resolved to) that is not stored yet.
    public func pendingBond(for address: BluetoothAddress) -> Bond? {
        pendingBonds.first { $0.key.address == address }?.value
    }

    /// Removes the keys of the accessory `query` designates (it stays set up): the next
    /// connection does not encrypt, and `nearby setup --pair` pairs it again.
    /// - Throws: ``AccessoryStoreError``.
    @discardableResult
    public func removeBond(_ query: String) async throws(AccessoryStoreError) -> AccessoryRecord {
        let record = try await resolve(query)
        pendingBonds = pendingBonds.filter { $0.value.peerIdentity.address != record.address && $0.key.address != record.address }
        return try await update(record.id) { record in
            record.bond = nil
            record.bondHolder = nil
            record.bonding = .none
        }
    }
}

extension AccessoryStore {
    /// The security context of a BLE host that keeps its bonds in this store and its identity
    /// (own address and IRK per controller) in `host-identity.json` beside it.
    public nonisolated func securityContext(configuration: SecurityConfiguration = SecurityConfiguration(),
                                            delegate: any PairingDelegate = UnattendedPairingDelegate()) -> SecurityContext {
        SecurityContext(configuration: configuration, bonds: self, delegate: delegate,
                        identityProvider: HostIdentityStore(besideStore: path))
    }
}
