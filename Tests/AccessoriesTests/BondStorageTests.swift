import Accessories
import Foundation
import LowEnergy
import NearbySupport
import Testing

@Suite("Bonds in the accessory store, host identity")
struct BondStorageTests {
    static let identity = IdentityAddress(address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, type: .random)
    static let bond = Bond(
        peerIdentity: identity, peerLongTermKey: LongTermKey(key: SecurityKey(hex: "0123456789abcdef0123456789abcdef")!),
        localLongTermKey: LongTermKey(key: SecurityKey(hex: "0123456789abcdef0123456789abcdef")!),
        peerIRK: SecurityKey(hex: "ffeeddccbbaa99887766554433221100")!, keySize: 16, authenticated: true, secureConnections: true)

    static func record() -> AccessoryRecord {
        AccessoryRecord(displayName: "Tag", address: identity.address, addressType: .random)
    }

    @Test("a bond is stored with its record (0600), found by identity, and printed only as bonded / SC / key size")
    func storeAndPrint() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("accessories.json")
        let store = AccessoryStore(path: path)
        try await store.add(Self.record())
        try await store.save(Self.bond, connectedAddress: Self.identity)
        let stored = try #require(try await store.list().first)
        #expect(stored.bond == Self.bond && stored.bonding == .bonded && stored.bonded)
        #expect(await store.bond(for: Self.identity) == Self.bond)
        // A second store instance (another process) reads the keys back.
        #expect(await AccessoryStore(path: path).bond(for: Self.identity) == Self.bond)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let file = String(decoding: try #require(try AtomicFile.read(path)), as: UTF8.self)
        #expect(file.contains("0123456789abcdef0123456789abcdef"), "the store file holds the keys")
        // Any other encoding (the CLI's JSON) never does.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(stored), as: UTF8.self)
        #expect(!json.contains("0123456789abcdef") && !json.contains("ffeeddcc"))
        #expect(json.contains("\"bonded\":true") && json.contains("\"secure_connections\":true") && json.contains("\"key_size\":16"))
        #expect(!"\(stored)".contains("0123456789abcdef"))
    }

    @Test("setting up again keeps the bond; removeBond and forget delete the keys")
    func keepAndDelete() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = AccessoryStore(path: directory.file("accessories.json"))
        try await store.add(Self.record())
        try await store.save(Self.bond, connectedAddress: Self.identity)
        let again = try await store.add(Self.record(), ifPresent: .refresh)
        #expect(again.record.bond == Self.bond, "a setup without --pair never drops keys")
        let removed = try await store.removeBond("Tag")
        #expect(removed.bond == nil && removed.bonding == .none)
        #expect(await store.bond(for: Self.identity) == nil)
        try await store.save(Self.bond, connectedAddress: Self.identity)
        try await store.forget("Tag")
        #expect(await store.bond(for: Self.identity) == nil)
        let file = String(decoding: try #require(try AtomicFile.read(store.path)), as: UTF8.self)
        #expect(!file.contains("0123456789abcdef"))
    }

    @Test("a bond made before the accessory is stored waits for it; RPAs resolve through the stored IRKs")
    func pendingBond() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = AccessoryStore(path: directory.file("accessories.json"))
        let rpa = ResolvablePrivateAddress.generate(with: Self.bond.peerIRK!)
        try await store.save(Self.bond, connectedAddress: IdentityAddress(address: rpa, type: .random))
        #expect(try await store.list().isEmpty)
        #expect(await store.pendingBond(for: rpa) == Self.bond)
        #expect(await store.bond(for: Self.identity) == Self.bond)
        let keys = await store.resolvingKeys()
        #expect(ResolvablePrivateAddress.resolve(rpa, among: keys) == Self.identity)
        #expect(ResolvablePrivateAddress.resolve(ResolvablePrivateAddress.generate(with: .random()), among: keys) == nil)
    }

    @Test("the host identity: one random static address and IRK per controller, stored once (0600)")
    func hostIdentity() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let identities = HostIdentityStore(besideStore: directory.file("accessories.json"))
        let controller = BluetoothAddress("00:1A:7D:DA:71:13")!
        let first = try await identities.identity(controller: controller, usePublicAddress: false)
        #expect(first.address.type == .random && first.address.address.randomAddressKind == .staticAddress)
        #expect(try await identities.identity(controller: controller, usePublicAddress: false) == first, "stable")
        #expect(try await HostIdentityStore(path: identities.path).identity(controller: controller, usePublicAddress: false) == first)
        let other = try await identities.identity(controller: BluetoothAddress("00:1A:7D:DA:71:14")!, usePublicAddress: false)
        #expect(other.address != first.address && other.irk != first.irk)
        let publicIdentity = try await identities.identity(controller: controller, usePublicAddress: true)
        #expect(publicIdentity.address == IdentityAddress(address: controller, type: .public) && publicIdentity.irk == first.irk)
        var info = stat()
        #expect(stat(identities.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        try AtomicFile.write("not json", to: identities.path)
        await #expect {
            _ = try await identities.identity(controller: controller, usePublicAddress: false)
        } throws: { error in
            "\(error)".contains("damaged")
        }
    }

    @Test("the accessory role's UWB address: one per kit, stable, never 0x0000 / 0xFFFF, stored once (0600); a damaged file says what to do and is kept")
    func uwbAddresses() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let addresses = UWBAddressStore(besideStore: directory.file("accessories.json"))
        #expect(addresses.path == directory.file("uwb-addresses.json"))
        let first = try addresses.address(forKit: "usb:1915:520f serial A")
        #expect(first != 0 && first != 0xFFFF)
        #expect(try addresses.address(forKit: "usb:1915:520f serial A") == first, "stable")
        #expect(try UWBAddressStore(path: addresses.path).address(forKit: "usb:1915:520f serial A") == first, "another instance reads it")
        let second = try addresses.address(forKit: "usb:1915:520f serial B")
        #expect(second != first)
        var info = stat()
        #expect(stat(addresses.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let stored = try String(contentsOfFile: addresses.path, encoding: .utf8)
        #expect(stored.contains("\"kit\" : \"usb:1915:520f serial B\"") && stored.hasSuffix("}\n"), "\(stored)")

        try AtomicFile.write("{\"version\": 1, \"kits\": [", to: addresses.path)
        #expect {
            _ = try addresses.address(forKit: "usb:1915:520f serial A")
        } throws: { error in
            "\(error)".contains("\(addresses.path) is damaged") && "\(error)".contains("--mac")
        }
        #expect(try String(contentsOfFile: addresses.path, encoding: .utf8) == "{\"version\": 1, \"kits\": [", "a damaged file is not overwritten")
    }
}
