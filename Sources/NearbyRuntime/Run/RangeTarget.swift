public import Accessories
public import LowEnergy
public import NIProtocol

/// An accessory `nearby range` connects to: who it is and where.
public struct RangeTarget: Sendable, Hashable {
    /// How events name it (the store's id and display name for a set-up accessory).
    public var identity: AccessoryIdentity
    /// Its BLE address.
    public var address: BluetoothAddress
    /// Its address type.
    public var addressType: BluetoothAddressType
    /// The data-channel services to look for, preferred first (the stored one, then the others).
    public var services: [DataChannelService] = DataChannelService.known
    /// The store's record id, to update its last-seen time once it ranges (`nil`: not set up).
    public var recordID: String?
}

/// Turns `nearby range`'s ACCESSORY arguments into targets: the one place that knows how an
/// accessory is named on the command line.
///
/// An ACCESSORY is an accessory of the store (`nearby accessories list`): its id (or a prefix of
/// 4+ characters), display name, advertised name or address, as `AccessoryStore.resolve(_:)`
/// matches them. An address that is not in the store works too: `F0:F1:F2:F3:F4:F5` (random,
/// the usual for accessories) or with an explicit type, `F0:F1:F2:F3:F4:F5/public`. With `all`,
/// every accessory of the store; if none is set up, `advertisers` (what a short scan found
/// offering an NI data-channel service).
/// - Throws: ``RangeTargetError`` naming an argument that matches no accessory or several, or a
///   store that cannot be read (with its path and what to do).
public func resolveRangeTargets(
    _ arguments: [String], all: Bool, store: AccessoryStore, advertisers: [Advertisement] = []
) async throws(RangeTargetError) -> [RangeTarget] {
    if all {
        let records: [AccessoryRecord]
        do {
            records = try await store.list()
        } catch {
            throw RangeTargetError("\(error)")
        }
        if !records.isEmpty { return records.map(RangeTarget.init(record:)) }
        var seen = Set<BluetoothAddress>()
        return advertisers.filter { seen.insert($0.address).inserted }.map { advertisement in
            RangeTarget(
                identity: AccessoryIdentity(id: advertisement.address.description, displayName: advertisement.name ?? advertisement.address.description),
                address: advertisement.address, addressType: advertisement.addressType)
        }
    }
    var targets: [RangeTarget] = []
    for argument in arguments {
        do {
            targets.append(RangeTarget(record: try await store.resolve(argument)))
        } catch AccessoryStoreError.notFound {
            guard let target = try rangeTarget(address: argument) else {
                throw RangeTargetError(
                    "\"\(argument)\" is no accessory of the store (\(store.path)) and no BLE address: "
                        + "see `nearby accessories list`, set one up with `nearby setup`, or give an address like F0:F1:F2:F3:F4:F5[/public]")
            }
            targets.append(target)
        } catch {
            throw RangeTargetError("\(error)")
        }
    }
    return targets
}

/// `F0:F1:F2:F3:F4:F5[/random|/public]` as a target, `nil` if `argument` is not an address.
/// - Throws: ``RangeTargetError`` for an address with an unknown type suffix.
public func rangeTarget(address argument: String) throws(RangeTargetError) -> RangeTarget? {
    let parts = argument.split(separator: "/", maxSplits: 1).map(String.init)
    guard let first = parts.first, let address = BluetoothAddress(first) else { return nil }
    var type = BluetoothAddressType.random
    if parts.count == 2 {
        guard let parsed = BluetoothAddressType(parts[1]) else {
            throw RangeTargetError("\"\(argument)\": the address type must be random or public, not \"\(parts[1])\"")
        }
        type = parsed
    }
    return RangeTarget(identity: AccessoryIdentity(id: address.description), address: address, addressType: type)
}

/// An ACCESSORY argument that names nothing usable (or a store that cannot be read).
public struct RangeTargetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and what to do.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

extension RangeTarget {
    /// The target of a set-up accessory: its id and name, and its data channel first.
    public init(record: AccessoryRecord) {
        var services = DataChannelService.known
        if let stored = record.dataChannel?.definition {
            services.removeAll { $0.service == stored.service }
            services.insert(stored, at: 0)
        }
        self.init(
            identity: AccessoryIdentity(id: record.id, displayName: record.displayName), address: record.address,
            addressType: record.addressType, services: services, recordID: record.id)
    }
}
