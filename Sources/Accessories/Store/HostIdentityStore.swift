public import LowEnergy
import Foundation
import NearbySupport

/// This host's identity per controller, kept next to the accessory store
/// (`host-identity.json`, mode 0600, written atomically under a lock): a random static own
/// address generated once per controller and an IRK, so a bonded accessory sees the same
/// central every time (a new address each run would look like a stranger to it).
///
/// Controllers are told apart by their public address (Read BD_ADDR); a controller without
/// one (all zeros) shares the entry `00:00:00:00:00:00`.
public struct HostIdentityStore: LocalIdentityProvider {
    /// The file.
    public let path: String

    /// A store at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The store next to the accessory store at `storePath`.
    public init(besideStore storePath: String) {
        self.path = AtomicFile.parentDirectory(of: storePath) + "/host-identity.json"
    }

    struct Entry: Codable, Hashable {
        var controller: BluetoothAddress
        var address: BluetoothAddress
        var irk: SecurityKey
    }

    struct File: Codable {
        var version = 1
        var controllers: [Entry]
    }

    /// The identity on `controller`: the stored one, or a new one stored now.
    /// - Parameters:
    ///   - controller: the controller's public address (the key the identity is stored under).
    ///   - usePublicAddress: the identity address is the controller's public address.
    /// - Throws: `SecurityError.storageFailed(detail:)`.
    public func identity(controller: BluetoothAddress, usePublicAddress: Bool) async throws(SecurityError) -> LocalIdentity {
        let path = path
        let result: Result<Entry, SecurityError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Self.entry(for: controller, at: path))
            }
        }
        let entry = try result.get()
        if usePublicAddress {
            return LocalIdentity(address: IdentityAddress(address: controller, type: .public), irk: entry.irk)
        }
        return LocalIdentity(address: IdentityAddress(address: entry.address, type: .random), irk: entry.irk)
    }

    /// Every stored entry (for diagnostics).
    public func controllers() throws(SecurityError) -> [(controller: BluetoothAddress, address: BluetoothAddress)] {
        try Self.read(path).controllers.map { ($0.controller, $0.address) }
    }

    private static func read(_ path: String) throws(SecurityError) -> File {
        do {
            return try LockedJSONFile<File>(path: path).read() ?? File(controllers: [])
        } catch {
            throw storageFailed(error, path)
        }
    }

    private static func entry(for controller: BluetoothAddress, at path: String) -> Result<Entry, SecurityError> {
        do {
            return .success(try LockedJSONFile<File>(path: path).update(empty: File(controllers: [])) { file in
                if let entry = file.controllers.first(where: { $0.controller == controller }) { return (entry, false) }
                let entry = Entry(controller: controller, address: .randomStatic(), irk: .random())
                file.controllers.append(entry)
                return (entry, true)
            })
        } catch {
            return .failure(storageFailed(error, path))
        }
    }

    private static func storageFailed(_ error: LockedJSONFile<File>.Failure, _ path: String) -> SecurityError {
        switch error {
        case .unusable(let detail), .writeFailed(let detail): .storageFailed(detail: detail)
        case .damaged(let detail): .storageFailed(detail: "\(path) is damaged (\(detail)); move it away to start with a new identity")
        }
    }
}
