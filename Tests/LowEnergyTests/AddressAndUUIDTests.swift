import Foundation
import LowEnergy
import Testing

@Suite("Bluetooth addresses and UUIDs")
struct AddressAndUUIDTests {
    @Test("an address parses, prints and travels little-endian")
    func address() throws {
        let address = try #require(BluetoothAddress("f0:f1:f2:f3:f4:f5"))
        #expect(address.description == "F0:F1:F2:F3:F4:F5")
        #expect(address.bytes == [0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5])
        #expect(address.littleEndianBytes == [0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0])
        #expect(BluetoothAddress(littleEndian: [0xF5, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0]) == address)
        #expect(BluetoothAddress("F0-F1-F2-F3-F4-F5") == address)
        #expect(BluetoothAddress("F0F1F2F3F4F5") == address)
        #expect(address.randomAddressKind == .staticAddress)
        #expect(BluetoothAddress("4A:00:00:00:00:01")?.randomAddressKind == .resolvablePrivate)
        for bad in ["", "F0:F1:F2:F3:F4", "F0:F1:F2:F3:F4:F5:F6", "G0:F1:F2:F3:F4:F5", "F0:F1:F2:F3:F4:F", "F0::F2:F3:F4:F5"] {
            #expect(BluetoothAddress(bad) == nil, "\(bad) must not parse")
        }
    }

    @Test("random static addresses have the two top bits set and are never all zeros or ones")
    func randomStatic() {
        for _ in 0..<1000 {
            let address = BluetoothAddress.randomStatic()
            #expect(address.bytes[0] & 0xC0 == 0xC0)
            #expect(address.randomAddressKind == .staticAddress)
            #expect(address != BluetoothAddress("FF:FF:FF:FF:FF:FF"))
            #expect(address != BluetoothAddress("C0:00:00:00:00:00"))
        }
    }

    @Test("addresses and address types round-trip through Codable as strings")
    func codable() throws {
        struct Stored: Codable, Equatable {
            var address: BluetoothAddress
            var type: BluetoothAddressType
            var service: BluetoothUUID
        }
        let stored = Stored(address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, type: .random,
                            service: BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!)
        let json = String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
        #expect(json.contains("\"F0:F1:F2:F3:F4:F5\""))
        #expect(json.contains("\"random\""))
        #expect(json.contains("\"6E400001-B5A3-F393-E0A9-E50E24DCCA9E\""))
        #expect(try JSONDecoder().decode(Stored.self, from: Data(json.utf8)) == stored)
        let bad = #"{"address":"nope","type":"random","service":"180D"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Stored.self, from: Data(bad.utf8)) }
    }

    @Test("address types name themselves and map identity types for connecting")
    func addressTypes() {
        #expect(BluetoothAddressType.public.description == "public")
        #expect(BluetoothAddressType.random.description == "random")
        #expect(BluetoothAddressType(rawValue: 0x42).description == "type 0x42")
        #expect(BluetoothAddressType.randomIdentity.connectable == .random)
        #expect(BluetoothAddressType.publicIdentity.connectable == .public)
        #expect(BluetoothAddressType("Random") == .random)
    }

    @Test("UUIDs: 16/32/128-bit forms, canonical strings, equality of aliases")
    func uuids() throws {
        let heartRate = BluetoothUUID(0x180D)
        #expect(heartRate.description == "180D")
        #expect(heartRate.uuidString == "0000180D-0000-1000-8000-00805F9B34FB")
        #expect(BluetoothUUID("0000180d-0000-1000-8000-00805f9b34fb") == heartRate)
        #expect(BluetoothUUID("0x180D") == heartRate)
        #expect(BluetoothUUID("0000180D") == heartRate)
        #expect(heartRate.alias16 == 0x180D)
        #expect(heartRate.attBytes == [0x0D, 0x18])

        let alias32 = BluetoothUUID(alias32: 0x1234_5678)
        #expect(alias32.description == "12345678")
        #expect(alias32.alias16 == nil)
        #expect(alias32.littleEndianBytes(size: 4) == [0x78, 0x56, 0x34, 0x12])
        #expect(alias32.attBytes.count == 16)

        let nus = try #require(BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))
        #expect(nus.description == "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
        #expect(nus.alias16 == nil && nus.alias32 == nil)
        #expect(nus.littleEndianBytes(size: 2) == nil)
        let wire = nus.attBytes
        #expect(wire.first == 0x9E && wire.last == 0x6E && wire.count == 16)
        #expect(BluetoothUUID(littleEndian: wire) == nus)
        #expect(BluetoothUUID("6E400001B5A3F393E0A9E50E24DCCA9E") == nus)
        for bad in ["", "18", "180", "XYZW", "6E400001-B5A3-F393-E0A9-E50E24DCCA9", "6E400001B5A3-F393-E0A9-E50E24DCCA9E-", "0x"] {
            #expect(BluetoothUUID(bad) == nil, "\(bad) must not parse")
        }
        #expect(BluetoothUUID(littleEndian: [1, 2, 3]) == nil)
    }
}
