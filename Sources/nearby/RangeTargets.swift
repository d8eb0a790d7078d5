import ArgumentParser
import LowEnergy
import NearbyInteraction

/// An accessory `nearby range` connects to: who it is and where.
struct RangeTarget: Sendable, Hashable {
    /// How events name it.
    var identity: AccessoryIdentity
    /// Its BLE address.
    var address: BluetoothAddress
    /// Its address type.
    var addressType: BluetoothAddressType
}

/// Turns `nearby range`'s ACCESSORY arguments into targets: the one place that knows how an
/// accessory is named on the command line.
///
/// Today an ACCESSORY is a BLE address, `F0:F1:F2:F3:F4:F5` (random, the usual for accessories)
/// or with an explicit type, `F0:F1:F2:F3:F4:F5/public` or `/random`. With `all`, `advertisers`
/// (what a short scan found offering an NI data-channel service) are the targets.
/// Names of the accessory store resolve here too (not yet).
/// - Throws: `ValidationError` naming the argument that is not an accessory.
func resolveRangeTargets(_ arguments: [String], all: Bool, advertisers: [Advertisement] = []) throws -> [RangeTarget] {
    if all {
        var seen = Set<BluetoothAddress>()
        return advertisers.filter { seen.insert($0.address).inserted }.map { advertisement in
            RangeTarget(
                identity: AccessoryIdentity(id: advertisement.address.description, displayName: advertisement.name ?? advertisement.address.description),
                address: advertisement.address, addressType: advertisement.addressType)
        }
    }
    return try arguments.map { argument in
        let parts = argument.split(separator: "/", maxSplits: 1).map(String.init)
        guard let first = parts.first, let address = BluetoothAddress(first) else {
            throw ValidationError("\"\(argument)\" is not an accessory: give a BLE address like F0:F1:F2:F3:F4:F5 (optionally /random or /public)")
        }
        var type = BluetoothAddressType.random
        if parts.count == 2 {
            guard let parsed = BluetoothAddressType(parts[1]) else {
                throw ValidationError("\"\(argument)\": the address type must be random or public, not \"\(parts[1])\"")
            }
            type = parsed
        }
        return RangeTarget(identity: AccessoryIdentity(id: address.description), address: address, addressType: type)
    }
}
