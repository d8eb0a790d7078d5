import LowEnergy
import Testing

/// The peripheral role's pure parts: the attribute database's handles and declarations, the
/// advertising payloads, the advertising HCI commands (byte-exact).
@Suite("Peripheral codecs: attribute database, advertising data and commands")
struct PeripheralCodecTests {
    @Test("handles are dense: service, declaration, value, CCCD, user description; declarations carry properties, value handle and UUID")
    func databaseLayout() throws {
        let services = [GATTServerService.genericAccess(name: "acc"), .genericAttribute] + DataChannelServer.services(for: [.qorvoNI])
        let database = try AttributeDatabase(services: services)
        let types = database.attributes.map { $0.type.alias16.map { String($0, radix: 16) } ?? $0.type.description }
        #expect(types == [
            "2800", "2803", "2a00", "2803", "2a01",                  // GAP: name, appearance
            "2800", "2803", "2a05", "2902",                          // GATT: Service Changed + CCCD
            "2800", "2803", "2E93941C-6A61-11ED-A1EB-0242AC120002",  // QNIS: SEC (read, encrypted)
            "2803", "2E93998A-6A61-11ED-A1EB-0242AC120002",          // RX
            "2803", "2E939AF2-6A61-11ED-A1EB-0242AC120002", "2902",  // TX + CCCD
        ])
        #expect(database.attribute(1)?.value == [0x00, 0x18])
        #expect(database.attribute(3)?.value == Array("acc".utf8))
        #expect(database.attribute(10)?.kind == .service(end: 17))
        let rx = try #require(database.handles(of: DataChannelService.qorvoNI.rx, in: DataChannelService.qorvoNI.service))
        #expect(rx.declaration == 13 && rx.value == 14 && rx.configuration == nil)
        // Declaration: properties (write without response | write), value handle, 128-bit UUID.
        #expect(database.attribute(13)?.value == [0x0C, 0x0E, 0x00] + DataChannelService.qorvoNI.rx.attBytes)
        let tx = try #require(database.handles(of: DataChannelService.qorvoNI.tx, in: DataChannelService.qorvoNI.service))
        #expect(tx.configuration == 17 && database.attribute(17)?.kind == .clientConfiguration(valueHandle: 16, properties: .notify))
        #expect(database.attributes(in: 16, 0xFFFF).map(\.handle) == [16, 17])
        #expect(database.attribute(18) == nil && database.attribute(0) == nil)
    }

    @Test("a value longer than 512 bytes is refused")
    func longValue() {
        let service = GATTServerService(uuid: BluetoothUUID(0xFFF0), characteristics: [
            GATTServerCharacteristic(uuid: BluetoothUUID(0xFFF1), properties: .read, value: [UInt8](repeating: 0, count: 513))
        ])
        #expect(throws: BluetoothError.self) { try AttributeDatabase(services: [service]) }
    }

    @Test("accessory advertising: flags + 128-bit UUID; the name in the scan response, shortened past 29 bytes at a character boundary")
    func advertisingPayloads() {
        let configuration = AdvertisingConfiguration.accessory(service: DataChannelService.qorvoNI.service, name: "nb-accessory")
        #expect(configuration.advertisingData.encoded == [0x02, 0x01, 0x06, 0x11, 0x07] + DataChannelService.qorvoNI.service.attBytes)
        #expect(configuration.scanResponseData.encoded == [0x0D, 0x09] + Array("nb-accessory".utf8))
        #expect(configuration.validationProblem == nil)
        let long = AdvertisingConfiguration.accessory(service: DataChannelService.qorvoNI.service, name: String(repeating: "é", count: 20))
        #expect(long.scanResponseData.elements.first?.type == AdvertisingData.ADType.shortenedLocalName)
        #expect(long.scanResponseData.elements.first?.value.count == 28, "14 two-byte characters, never half of one")
        var bad = configuration
        bad.intervalMilliseconds = 5
        #expect(bad.validationProblem?.contains("20 ms") == true)
    }

    @Test("several services: the first in the advertising data, the next beside the name in the scan response (both lists incomplete); a long name keeps the scan response")
    func advertisingSeveralServices() {
        let nus = DataChannelService.nordicUART.service
        let qnis = DataChannelService.qorvoNI.service
        let both = AdvertisingConfiguration.accessory(services: [nus, qnis], name: "nearby")
        #expect(both.advertisingData.encoded == [0x02, 0x01, 0x06, 0x11, 0x06] + nus.attBytes)
        #expect(both.scanResponseData.encoded == [0x07, 0x09] + Array("nearby".utf8) + [0x11, 0x06] + qnis.attBytes)
        #expect(both.scanResponseData.encoded.count == 26 && both.validationProblem == nil)
        #expect(both.advertisingData.serviceUUIDs == [nus] && both.advertisingData.hasIncompleteServiceUUIDList)
        // 11 name bytes still fit beside a 128-bit UUID; 12 do not: the name alone, QNIS through GATT only.
        let fits = AdvertisingConfiguration.accessory(services: [nus, qnis], name: "kitchen-tag")
        #expect(fits.scanResponseData.serviceUUIDs == [qnis] && fits.scanResponseData.encoded.count == 31)
        let long = AdvertisingConfiguration.accessory(services: [nus, qnis], name: "kitchen-door")
        #expect(long.scanResponseData.serviceUUIDs.isEmpty && long.scanResponseData.completeLocalName == "kitchen-door")
        #expect(long.validationProblem == nil)
    }

    @Test("advertising commands, byte-exact (legacy and extended)")
    func commands() {
        let address = BluetoothAddress("C0:11:22:33:44:55")!
        #expect(HCICommand.leSetAdvertisingParameters(intervalMin: 160, intervalMax: 160, ownAddressType: .random).packet.h4Bytes
                == [0x01, 0x06, 0x20, 0x0F, 0xA0, 0x00, 0xA0, 0x00, 0x00, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0x07, 0x00])
        #expect(HCICommand.leSetAdvertisingData([0x02, 0x01, 0x06]).parameters == [3, 0x02, 0x01, 0x06] + [UInt8](repeating: 0, count: 28))
        #expect(HCICommand.leSetAdvertisingEnable(true).packet.h4Bytes == [0x01, 0x0A, 0x20, 0x01, 0x01])
        #expect(HCICommand.leSetExtendedAdvertisingParameters(handle: 0, intervalMin: 160, intervalMax: 160, ownAddressType: .random).parameters
                == [0x00, 0x13, 0x00, 0xA0, 0x00, 0x00, 0xA0, 0x00, 0x00, 0x07, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0x00, 0x7F, 0x01, 0x00, 0x01, 0x00, 0x00])
        #expect(HCICommand.leSetAdvertisingSetRandomAddress(handle: 0, address: address).parameters == [0x00, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0])
        #expect(HCICommand.leSetExtendedAdvertisingData(handle: 0, [0x02, 0x01, 0x06]).parameters == [0x00, 0x03, 0x01, 0x03, 0x02, 0x01, 0x06])
        #expect(HCICommand.leSetExtendedAdvertisingEnable(true, handle: 0).parameters == [0x01, 0x01, 0x00, 0x00, 0x00, 0x00])
        #expect(HCICommand.leSetExtendedScanResponseData(handle: 0, []).opcode.description == "HCI LE Set Extended Scan Response Data (0x2038)")
    }
}
