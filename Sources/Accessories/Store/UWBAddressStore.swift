import Foundation
import NearbySupport

/// The UWB short MAC address this host uses in the accessory role, one per dev kit, kept next
/// to the accessory store (`uwb-addresses.json`, mode 0600, written atomically under a lock).
///
/// Phones address the accessory by the MAC in its configuration data; a stable one per kit
/// keeps logs, traces and any phone-side caching consistent across runs. Generated at random on
/// first use (never 0x0000 or 0xFFFF, the broadcast address).
public struct UWBAddressStore: Sendable {
    /// The file.
    public let path: String

    /// A store at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The store next to the accessory store at `storePath`.
    public init(besideStore storePath: String) {
        self.path = AtomicFile.parentDirectory(of: storePath) + "/uwb-addresses.json"
    }

    struct Entry: Codable, Hashable {
        var kit: String
        var address: UInt16
    }

    struct File: Codable {
        var version = 1
        var kits: [Entry]
    }

    /// The address of the kit named `kit` (a stable key: its USB ID and serial, or its spec):
    /// the stored one, or a new one stored now.
    /// - Throws: ``UWBAddressStoreError`` when the file cannot be read, is damaged, or cannot be
    ///   written (naming the path and what to do).
    public func address(forKit kit: String) throws(UWBAddressStoreError) -> UInt16 {
        do {
            return try LockedJSONFile<File>(path: path).update(empty: File(kits: [])) { file in
                if let entry = file.kits.first(where: { $0.kit == kit }) { return (entry.address, false) }
                var generator = SystemRandomNumberGenerator()
                var address: UInt16 = 0
                while address == 0 || address == 0xFFFF || file.kits.contains(where: { $0.address == address }) {
                    address = UInt16.random(in: 1...0xFFFE, using: &generator)
                }
                file.kits.append(Entry(kit: kit, address: address))
                return (address, true)
            }
        } catch {
            switch error {
            case .unusable(let detail), .writeFailed(let detail): throw UWBAddressStoreError(detail)
            case .damaged(let detail):
                throw UWBAddressStoreError("\(path) is damaged (\(detail)); move it away (a new address is made) or give one with --mac")
            }
        }
    }
}

/// The accessory role's address file could not be used: what and what to do.
public struct UWBAddressStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
