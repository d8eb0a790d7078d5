@testable import Accessories
import Foundation
import FuzzSupport
import LowEnergy

/// The accessory store file (`accessories.json`, records with descriptors, data channels and
/// bonds): `StoreFile.decode`, which `AccessoryStore` runs on every read.
///
/// Input: the file's bytes.
/// Invariant: what decodes, encodes to a file that decodes to the same records.
@main enum FuzzAccessoryStore: FuzzTarget {
    static var seeds: [[UInt8]] {
        let identity = IdentityAddress(address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, type: .random)
        let key = LongTermKey(key: SecurityKey(hex: "0123456789abcdef0123456789abcdef")!)
        let bond = Bond(
            peerIdentity: identity, peerLongTermKey: key, localLongTermKey: key,
            peerIRK: SecurityKey(hex: "ffeeddccbbaa99887766554433221100")!, keySize: 16, authenticated: true, secureConnections: true)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let plain = AccessoryRecord(id: "0000abcd", displayName: "Door", address: identity.address, addressType: .random, addedAt: date)
        let full = AccessoryRecord(
            id: "1234abcd", displayName: "Tag \"x\"", advertisedName: "nb-peer", address: BluetoothAddress("C0:00:00:00:00:01")!,
            addressType: .public,
            descriptor: try? DiscoveryDescriptor(
                serviceUUID: BluetoothUUID(0xFFF0), companyIdentifier: 0x004C, manufacturerDataBlob: [0x12], manufacturerDataMask: [0xFF],
                nameSubstring: "nb"),
            dataChannel: DataChannelReference(name: "qorvo", service: BluetoothUUID(0xFFF0)), origin: .migratedBlueZ,
            imagePath: "/tmp/x.png", addedAt: date, lastSeenAt: date, bond: bond)
        return [
            StoreFile.encode([plain]), StoreFile.encode([plain, full]), StoreFile.encode([]),
            Array(#"{"version": 2, "accessories": []}"#.utf8),
        ]
    }

    static func fuzz(_ input: [UInt8]) {
        let records: [AccessoryRecord]
        do {
            records = try StoreFile.decode(input)
        } catch {
            if case .corrupt(let reason) = error { FuzzCheck.require(!reason.isEmpty, "corrupt without a reason") }
            return
        }
        let encoded = StoreFile.encode(records)
        let again = try? StoreFile.decode(encoded)
        FuzzCheck.require(again == records, "the store does not read back what it wrote: \(records) -> \(String(decoding: encoded, as: UTF8.self))")
    }
}
