import LowEnergy
import Testing
import NearbyTestSupport

@Suite("Advertising data")
struct AdvertisingDataTests {
    /// flags 06, 16-bit FE9A, service data FE9A 01 02, Apple 0A 0B 0C, TX -8, name "nbp".
    static let typical: [UInt8] = [
        0x02, 0x01, 0x06,
        0x03, 0x03, 0x9A, 0xFE,
        0x05, 0x16, 0x9A, 0xFE, 0x01, 0x02,
        0x06, 0xFF, 0x4C, 0x00, 0x0A, 0x0B, 0x0C,
        0x02, 0x0A, 0xF8,
        0x04, 0x09, 0x6E, 0x62, 0x70,
    ]

    @Test("a typical advertisement decodes every field exactly")
    func typical() {
        let data = AdvertisingData(parsing: Self.typical)
        #expect(data.problems.isEmpty)
        #expect(data.flags == [.leGeneralDiscoverable, .brEdrNotSupported])
        #expect(data.serviceUUIDs == [BluetoothUUID(0xFE9A)])
        #expect(!data.hasIncompleteServiceUUIDList)
        #expect(data.serviceData == [ServiceData(uuid: BluetoothUUID(0xFE9A), data: [0x01, 0x02])])
        #expect(data.serviceData(for: BluetoothUUID(0xFE9A)) == [0x01, 0x02])
        #expect(data.manufacturerData == [ManufacturerData(companyIdentifier: 0x004C, data: [0x0A, 0x0B, 0x0C])])
        #expect(data.manufacturerData(for: 0x004C) == [0x0A, 0x0B, 0x0C])
        #expect(data.manufacturerData(for: 0x0075) == nil)
        #expect(data.txPowerLevel == -8)
        #expect(data.completeLocalName == "nbp")
        #expect(data.localName == "nbp")
        #expect(data.elements.count == 6)
        #expect(data.encoded == Self.typical)
    }

    @Test("128- and 32-bit UUID lists, incomplete lists, short names, appearance, solicitation")
    func otherFields() {
        let nus: [UInt8] = [0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E]
        let bytes: [UInt8] = [17, 0x06] + nus + [5, 0x05, 0x78, 0x56, 0x34, 0x12] + [3, 0x08, 0x6E, 0x62]
            + [3, 0x19, 0xC1, 0x03] + [3, 0x14, 0x0D, 0x18] + [19, 0x21] + nus + [0xAA, 0xBB]
        let data = AdvertisingData(parsing: bytes)
        #expect(data.problems.isEmpty)
        #expect(data.serviceUUIDs == [BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!, BluetoothUUID(alias32: 0x1234_5678)])
        #expect(data.hasIncompleteServiceUUIDList)
        #expect(data.shortenedLocalName == "nb")
        #expect(data.completeLocalName == nil)
        #expect(data.localName == "nb")
        #expect(data.appearance == 0x03C1)
        #expect(data.solicitedServiceUUIDs == [BluetoothUUID(0x180D)])
        #expect(data.serviceData(for: BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!) == [0xAA, 0xBB])
    }

    @Test("a length running past the end keeps what parsed before and says what was wrong")
    func truncated() {
        let data = AdvertisingData(parsing: [0x02, 0x01, 0x06, 0x09, 0x09, 0x61, 0x62])
        #expect(data.flags == [.leGeneralDiscoverable, .brEdrNotSupported])
        #expect(data.localName == nil)
        #expect(data.problems.count == 1)
        #expect(data.problems[0].contains("offset 3 claims 9 bytes but only 3 remain"))
    }

    @Test("malformed fields inside valid structures are reported and skipped, never trap")
    func malformedFields() {
        let bytes: [UInt8] = [
            0x01, 0x01,  // flags without a value
            0x04, 0x03, 0x0D, 0x18, 0x0F,  // odd 16-bit UUID list
            0x02, 0xFF, 0x4C,  // manufacturer data shorter than its company ID
            0x03, 0x0A, 0x01, 0x02,  // TX power of 2 bytes
            0x02, 0x16, 0x0D,  // service data shorter than its UUID
            0x03, 0x09, 0xFF, 0xFE,  // invalid UTF-8 name: kept, with replacement characters
        ]
        let data = AdvertisingData(parsing: bytes)
        #expect(data.flags == nil)
        #expect(data.serviceUUIDs.isEmpty)
        #expect(data.manufacturerData.isEmpty)
        #expect(data.txPowerLevel == nil)
        #expect(data.serviceData.isEmpty)
        #expect(data.completeLocalName == "\u{FFFD}\u{FFFD}")
        #expect(data.problems.count == 5)
        #expect(data.elements.count == 6, "every structure is kept raw")
    }

    @Test("a zero length ends the significant part (padding)")
    func padding() {
        let data = AdvertisingData(parsing: [0x02, 0x01, 0x06, 0x00, 0x00, 0x00, 0x12, 0x34])
        #expect(data.elements.count == 1)
        #expect(data.problems.isEmpty)
    }

    @Test("random bytes never trap, and every decoded field came from a structure")
    func fuzz() async {
        var generator = SplitMix64(seed: 0xB1E)
        var failures: [String] = []
        for iteration in 0..<20_000 {
            if iteration % 250 == 0 { await Task.yield() }  // leave the 2-core test pool to others
            let length = Int.random(in: 0...64, using: &generator)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let data = AdvertisingData(parsing: bytes)
            if data.elements.count > length / 2 + 1 { failures.append("\(bytes): \(data.elements.count) elements") }
            if data.serviceData.count + data.manufacturerData.count > data.elements.count { failures.append("\(bytes): more fields than elements") }
            // Whatever parsed re-encodes to a prefix of the input.
            let encoded = data.encoded
            if Array(bytes.prefix(encoded.count)) != encoded { failures.append("\(bytes) re-encodes as \(encoded)") }
        }
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(3))")
    }

    @Test("builders produce the exact AD bytes and merging keeps both parts")
    func buildAndMerge() {
        let built = AdvertisingData(elements: [
            .flags([.leGeneralDiscoverable, .brEdrNotSupported]),
        ] + AdvertisingData.Element.completeServiceUUIDs([BluetoothUUID(0xFE9A)]) + [
            .serviceData(uuid: BluetoothUUID(0xFE9A), data: [0x01, 0x02]),
            .manufacturerData(companyIdentifier: 0x004C, data: [0x0A, 0x0B, 0x0C]),
            .txPowerLevel(-8),
            .completeLocalName("nbp"),
        ])
        #expect(built.encoded == Self.typical)
        let advertising = AdvertisingData(parsing: Array(Self.typical.prefix(7)))
        let scanResponse = AdvertisingData(parsing: [0x04, 0x09, 0x6E, 0x62, 0x70])
        let merged = advertising.merging(scanResponse)
        #expect(merged.serviceUUIDs == [BluetoothUUID(0xFE9A)])
        #expect(merged.localName == "nbp")
        #expect(merged.elements.count == 3)
    }
}

/// The seeded generator of NearbyTestSupport.
typealias SplitMix64 = SeededGenerator
