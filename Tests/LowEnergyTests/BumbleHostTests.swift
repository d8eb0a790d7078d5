import LowEnergy
import Testing

/// Everything tested against a real peer: Google Bumble's virtual controller (C0, driven by our
/// host over H4/TCP) and a Bumble GATT accessory on a second virtual controller (Tests/Peers).
/// One peer process per test; the suites run one test at a time (2-core CI).
@Suite("BLE host against Bumble", .serialized)
enum BumbleTests {}

extension BumbleTests {
    /// GATT characteristics and services of the test peer (Tests/Peers/blepeer/services.py).
    enum PeerGATT {
        static let testService = BluetoothUUID("6E62746B-0001-4A50-9D3F-6E6561726279")!
        static let control = BluetoothUUID("6E62746B-0002-4A50-9D3F-6E6561726279")!
        static let readable = BluetoothUUID("6E62746B-0003-4A50-9D3F-6E6561726279")!
        static let indicate = BluetoothUUID("6E62746B-0004-4A50-9D3F-6E6561726279")!
        static let qorvoSecurity = BluetoothUUID("2E93941C-6A61-11ED-A1EB-0242AC120002")!
        static let readableValue: [UInt8] = (0..<300).map { UInt8($0 % 256) }

        /// The characteristic `uuid` of service `service`.
        static func characteristic(_ uuid: BluetoothUUID, in service: BluetoothUUID,
                                   of connection: BLEConnection) async throws -> GATTCharacteristic {
            let gatt = connection.gatt
            let found = try #require(try await gatt.discoverPrimaryServices(uuid: service).first)
            return try #require(try await gatt.discoverCharacteristics(of: found).first { $0.uuid == uuid })
        }

        /// Writes a test-control command (see CONTROL_* in services.py).
        static func control(_ bytes: [UInt8], on connection: BLEConnection) async throws {
            let characteristic = try await characteristic(control, in: testService, of: connection)
            try await connection.gatt.write(bytes, to: characteristic)
        }
    }
}
