public import LowEnergy

extension AccessoryStore {
    /// Adds an accessory the system already knows, by address (like AccessorySetupKit's
    /// `ASMigrationDisplayItem`): no scan, no connection; bonding state `unknown`. An address
    /// already stored is kept as it is (``AddOutcome/alreadyStored(_:)``).
    /// - Parameters:
    ///   - address: the accessory's Bluetooth address.
    ///   - type: its address type (public or random).
    ///   - displayName: the name to show (default: the address).
    ///   - descriptor: how to recognise its advertisements, if known.
    /// - Throws: ``MigrationError/store(_:)``.
    @discardableResult
    public func migrate(address: BluetoothAddress, type: BluetoothAddressType, displayName: String? = nil,
                        descriptor: DiscoveryDescriptor? = nil) async throws(MigrationError) -> AddOutcome {
        let record = AccessoryRecord(
            displayName: displayName ?? address.description, address: address, addressType: type,
            descriptor: descriptor, bonding: .unknown, origin: .migratedAddress)
        do {
            return try await add(record, ifPresent: .keep)
        } catch {
            throw .store(error)
        }
    }

    /// Adds the LE devices BlueZ knows (its bond directory), or only `address`: name, address
    /// type, bonding state and the keys (LTK, IRK, identity) come from the `info` file, so a
    /// device bonded under BlueZ is encrypted with the same keys (use the same adapter with
    /// `--own-address public`: BlueZ paired from the adapter's public address). BR/EDR-only devices are left out;
    /// addresses already stored are kept as they are.
    /// - Parameters:
    ///   - directory: the bond directory (tests pass a fixture).
    ///   - address: migrate only this device.
    ///   - displayName: the display name (default: BlueZ's name, else the address).
    /// - Returns: one outcome per migrated device.
    /// - Throws: ``MigrationError`` (unreadable directory: run with sudo or give the address).
    @discardableResult
    public func migrate(from directory: BlueZBondDirectory, only address: BluetoothAddress? = nil,
                        displayName: String? = nil) async throws(MigrationError) -> [AddOutcome] {
        let devices: [KnownDevice]
        if let address {
            let device = try directory.device(address)
            guard device.supportsLE else { throw .notLowEnergy(device) }
            devices = [device]
        } else {
            devices = try directory.devices().filter(\.supportsLE)
        }
        var outcomes: [AddOutcome] = []
        for device in devices {
            let record = AccessoryRecord(
                displayName: displayName ?? device.name ?? device.address.description, advertisedName: device.name,
                address: device.address, addressType: device.addressType, bonding: device.bonding, origin: .migratedBlueZ,
                bond: device.bond)
            do {
                var outcome = try await add(record, ifPresent: .keep)
                if case .alreadyStored(let stored) = outcome, stored.bond == nil, let bond = device.bond {
                    // Stored before without keys (e.g. by address): take BlueZ's keys now.
                    outcome = .updated(try await update(stored.id) { $0.bond = bond; $0.bonding = .bonded }, previous: stored)
                }
                outcomes.append(outcome)
            } catch {
                throw .store(error)
            }
        }
        return outcomes
    }
}

extension AccessoryStore.AddOutcome {
    /// What a migration did, as a line: `migrated NAME (ADDRESS) (bonding unknown)`,
    /// `already stored ...` or `updated ...`.
    public var migrationSummary: String {
        switch self {
        case .added(let record): "migrated \(record) (bonding \(record.bonding))"
        case .alreadyStored(let record): "already stored \(record)"
        case .updated(let record, _): "updated \(record)"
        }
    }
}
