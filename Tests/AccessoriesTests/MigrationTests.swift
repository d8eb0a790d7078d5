import Accessories
import Foundation
import LowEnergy
import NearbySupport
import Testing

@Suite("Migration")
struct MigrationTests {
    /// A BlueZ bond directory as bluetoothd writes it: one adapter, an LE bonded static-address
    /// tag, an LE public-address device without keys, a BR/EDR headset, and the cache and
    /// settings entries that are not devices.
    static func fixture(_ directory: TemporaryDirectory) throws -> String {
        let root = directory.file("bluetooth")
        let adapter = root + "/C0:11:22:33:44:55"
        try AtomicFile.write("[General]\nDiscoverable=false\n", to: adapter + "/settings")
        try AtomicFile.write("[General]\nName=cached\n", to: adapter + "/cache/F0:F1:F2:F3:F4:F5")
        try AtomicFile.write("""
            [General]
            Name=Kitchen Tag
            AddressType=static
            SupportedTechnologies=LE;
            Trusted=false
            Blocked=false
            Services=00001800-0000-1000-8000-00805f9b34fb;6e400001-b5a3-f393-e0a9-e50e24dcca9e;

            [IdentityResolvingKey]
            Key=00112233445566778899AABBCCDDEEFF

            [LongTermKey]
            Key=0123456789ABCDEF0123456789ABCDEF
            Authenticated=0
            EncSize=16
            EDiv=0
            Rand=0

            """, to: adapter + "/F0:F1:F2:F3:F4:F5/info")
        try AtomicFile.write("""
            [General]
            Name=Sensor
            AddressType=public
            SupportedTechnologies=LE;
            Trusted=true

            """, to: adapter + "/AA:BB:CC:DD:EE:02/info")
        try AtomicFile.write("""
            [General]
            Name=Headset
            Class=0x240404
            SupportedTechnologies=BR/EDR;

            [LinkKey]
            Key=00000000000000000000000000000000
            Type=4
            PINLength=0

            """, to: adapter + "/11:22:33:44:55:03/info")
        return root
    }

    @Test("the bond directory parses: name, address type static -> random, LTK -> bonded, BR/EDR-only marked")
    func parse() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let devices = try BlueZBondDirectory(root: try Self.fixture(directory)).devices()
        let adapter = BluetoothAddress("C0:11:22:33:44:55")!
        #expect(devices == [
            KnownDevice(adapter: adapter, address: BluetoothAddress("11:22:33:44:55:03")!, addressType: .public, name: "Headset",
                        supportsLE: false, bonding: .none),
            KnownDevice(adapter: adapter, address: BluetoothAddress("AA:BB:CC:DD:EE:02")!, addressType: .public, name: "Sensor",
                        supportsLE: true, bonding: .none),
            KnownDevice(adapter: adapter, address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, addressType: .random, name: "Kitchen Tag",
                        supportsLE: true, bonding: .bonded, bond: Self.tagBond),
        ])
    }

    /// The tag's keys: BlueZ writes them least significant byte first; a bond holds them most
    /// significant first.
    static let tagBond = Bond(
        peerIdentity: IdentityAddress(address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, type: .random),
        peerLongTermKey: LongTermKey(key: SecurityKey(hex: "efcdab8967452301efcdab8967452301")!),
        localLongTermKey: nil, peerIRK: SecurityKey(hex: "ffeeddccbbaa99887766554433221100")!,
        keySize: 16, authenticated: false, secureConnections: false)

    @Test("BlueZ keys: Secure Connections (Authenticated=3) and legacy LTKs with EDIV/Rand, both directions")
    func parseKeys() throws {
        let secure = BlueZBondDirectory.parseInfo("""
            [General]
            AddressType=public
            SupportedTechnologies=LE;

            [LongTermKey]
            Key=000102030405060708090A0B0C0D0E0F
            Authenticated=3
            EncSize=16
            EDiv=0
            Rand=0
            """, adapter: .zero, address: BluetoothAddress("AA:BB:CC:DD:EE:01")!)
        let bond = try #require(secure.bond)
        #expect(bond.secureConnections && bond.authenticated)
        #expect(bond.peerLongTermKey?.key.hexString == "0f0e0d0c0b0a09080706050403020100")
        #expect(bond.localLongTermKey == bond.peerLongTermKey, "one LTK for both roles with Secure Connections")
        #expect(bond.peerIdentity == IdentityAddress(address: BluetoothAddress("AA:BB:CC:DD:EE:01")!, type: .public))
        let legacy = BlueZBondDirectory.parseInfo("""
            [General]
            AddressType=static
            [LongTermKey]
            Key=11111111111111111111111111111111
            Authenticated=1
            EncSize=7
            EDiv=4660
            Rand=18446744073709551615
            [SlaveLongTermKey]
            Key=22222222222222222222222222222222
            Authenticated=1
            EncSize=7
            EDiv=1
            Rand=2
            """, adapter: .zero, address: BluetoothAddress("F0:00:00:00:00:01")!)
        #expect(legacy.bond?.secureConnections == false && legacy.bond?.authenticated == true && legacy.bond?.keySize == 7)
        #expect(legacy.bond?.peerLongTermKey?.ediv == 4660 && legacy.bond?.peerLongTermKey?.rand == UInt64.max)
        #expect(legacy.bond?.localLongTermKey?.ediv == 1 && legacy.bond?.localLongTermKey?.rand == 2)
        #expect(legacy.bond?.localLongTermKey?.key.hexString == String(repeating: "22", count: 16))
        #expect(!"\(legacy)".contains("1111"), "descriptions never show keys")
    }

    @Test("migrate --bluez stores the LE devices with BlueZ's data; already stored ones are kept; one address only")
    func migrateBlueZ() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let bluez = BlueZBondDirectory(root: try Self.fixture(directory))
        let store = AccessoryStore(path: directory.file("accessories.json"))
        let outcomes = try await store.migrate(from: bluez)
        let records = outcomes.map(\.record)
        #expect(records.map(\.address.description) == ["AA:BB:CC:DD:EE:02", "F0:F1:F2:F3:F4:F5"])
        let tag = records[1]
        #expect(tag.displayName == "Kitchen Tag" && tag.advertisedName == "Kitchen Tag")
        #expect(tag.addressType == .random && tag.bonding == .bonded && tag.origin == .migratedBlueZ)
        #expect(tag.bond == Self.tagBond, "BlueZ's LTK, IRK and identity are imported")
        #expect(await store.bond(for: Self.tagBond.peerIdentity) == Self.tagBond, "and serve the BLE host as its bond store")
        #expect(await store.resolvingKeys() == [ResolvingKey(identity: Self.tagBond.peerIdentity, irk: Self.tagBond.peerIRK!)])
        #expect(tag.descriptor == nil && tag.dataChannel == nil)
        #expect(records[0].bonding == .none && records[0].addressType == .public)
        let again = try await store.migrate(from: bluez, only: BluetoothAddress("F0:F1:F2:F3:F4:F5"), displayName: "other")
        #expect(again == [.alreadyStored(tag)])
        #expect(try await store.list().count == 2)

        await #expect(throws: MigrationError.notLowEnergy(try bluez.device(BluetoothAddress("11:22:33:44:55:03")!))) {
            try await store.migrate(from: bluez, only: BluetoothAddress("11:22:33:44:55:03"))
        }
        do {
            try await store.migrate(from: bluez, only: BluetoothAddress("DE:AD:BE:EF:00:01"))
            Issue.record("migrated an unknown address")
        } catch {
            #expect(error.description.hasPrefix("BlueZ (\(bluez.root)) does not know DE:AD:BE:EF:00:01; it knows AA:BB:CC:DD:EE:02 (public) \"Sensor\" not bonded; F0:F1:F2:F3:F4:F5 (random) \"Kitchen Tag\" bonded"))
        }
    }

    @Test("migrate by address: bonding unknown, name defaults to the address")
    func migrateAddress() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = AccessoryStore(path: directory.file("accessories.json"))
        let outcome = try await store.migrate(address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, type: .random)
        guard case .added(let record) = outcome else { Issue.record("\(outcome)"); return }
        #expect(record.displayName == "F0:F1:F2:F3:F4:F5" && record.bonding == .unknown && record.origin == .migratedAddress)
        #expect(try await store.migrate(address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, type: .random, displayName: "x")
            == .alreadyStored(record))
    }

    @Test("a missing bond directory and an unreadable one give actionable messages")
    func errors() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        #expect(throws: MigrationError.noBondDirectory(root: directory.file("none"))) {
            try BlueZBondDirectory(root: directory.file("none")).devices()
        }
        let text = MigrationError.permissionDenied(path: "/var/lib/bluetooth").description
        #expect(text.hasPrefix("cannot read /var/lib/bluetooth: permission denied (BlueZ keeps its bond directory readable by root only)"))
        #expect(text.contains("nearby accessories migrate --address AA:BB:CC:DD:EE:FF"))
        #expect(text.contains("run the migration with sudo"))
        // The real EACCES path (as an unprivileged user) is covered by the CLI test
        // `migrateUnreadableBondDirectory`, which runs nearby as nobody.
    }
}
