import Accessories
import Foundation
import LowEnergy
import Testing

/// Descriptors and scan filters from text, scan lines and their JSON, and the record table:
/// what `nearby scan`, `nearby setup` and `nearby accessories` print, as library calls.
@Suite("Descriptors from text, scan reports, record tables")
struct DescriptorTextAndScanReportTests {
    @Test("a descriptor from text: UUID, hex or decimal company, HEX/MASK blobs")
    func descriptorFromText() throws {
        let descriptor = try DiscoveryDescriptor(
            service: "6E400001-B5A3-F393-E0A9-E50E24DCCA9E", company: "0x004C", manufacturerData: "0a0b/ff0f", serviceData: nil,
            nameSubstring: "tag", nameIgnoresCase: true)
        #expect(descriptor.serviceUUID == Fixtures.nus)
        #expect(descriptor.companyIdentifier == 0x004C)
        #expect(descriptor.manufacturerDataBlob == [0x0A, 0x0B] && descriptor.manufacturerDataMask == [0xFF, 0x0F])
        #expect(descriptor.matches(Fixtures.typical))
        #expect(try DiscoveryDescriptor(service: nil, company: " 76 ", manufacturerData: nil, serviceData: nil).companyIdentifier == 76)
        #expect(DiscoveryDescriptor.companyIdentifier("0X4c") == 0x4C)
        #expect(DiscoveryDescriptor.companyIdentifier("65536") == nil)
    }

    @Test("text that is not a descriptor names the field and what to write")
    func descriptorErrors() {
        #expect(throws: DiscoveryDescriptorTextError.notUUID("xyz")) { try DiscoveryDescriptor(service: "xyz", company: nil, manufacturerData: nil, serviceData: nil) }
        #expect(throws: DiscoveryDescriptorTextError.notCompanyIdentifier("apple")) { try DiscoveryDescriptor(service: nil, company: "apple", manufacturerData: nil, serviceData: nil) }
        #expect(throws: DiscoveryDescriptorTextError.notBlob(.manufacturerData, "0a0")) { try DiscoveryDescriptor(service: nil, company: "1", manufacturerData: "0a0", serviceData: nil) }
        #expect(throws: DiscoveryDescriptorTextError.notMask(.serviceData, "zz")) { try DiscoveryDescriptor(service: "180D", company: nil, manufacturerData: nil, serviceData: "01/zz") }
        #expect(throws: DiscoveryDescriptorTextError.invalid(.missingServiceOrCompany)) { try DiscoveryDescriptor(service: nil, company: nil, manufacturerData: nil, serviceData: nil, nameSubstring: "tag") }
        #expect(DiscoveryDescriptorTextError.notUUID("xyz").description == "\"xyz\" is not a UUID: give 4 or 8 hex digits (180D) or 8-4-4-4-12 hex digits")
        #expect(DiscoveryDescriptorTextError.notMask(.serviceData, "zz").description == "mask \"zz\" is not hex (an even number of hex digits, e.g. ff0f)")
        #expect(DiscoveryDescriptorTextError.notMask(.serviceData, "zz").field == .serviceData)
        #expect(DiscoveryDescriptorTextError.invalid(.missingServiceOrCompany).field == nil)
    }

    @Test("a scan filter needs no service or company: name and range alone filter too")
    func advertisementFilter() throws {
        let byName = try AdvertisementFilter(
            service: nil, company: nil, manufacturerData: nil, serviceData: nil, nameSubstring: "kitchen", ignoringCase: true, range: .default)
        #expect(byName == .nameAndRange(nameSubstring: "kitchen", ignoringCase: true, range: .default))
        #expect(byName.matches(Fixtures.typical))
        #expect(byName.description == " for names containing \"kitchen\" (any case)")
        let caseSensitive = try AdvertisementFilter(
            service: nil, company: nil, manufacturerData: nil, serviceData: nil, nameSubstring: "kitchen", ignoringCase: false, range: .default)
        #expect(!caseSensitive.matches(Fixtures.typical))
        let everything = try AdvertisementFilter(
            service: nil, company: nil, manufacturerData: nil, serviceData: nil, nameSubstring: nil, ignoringCase: false, range: .default)
        #expect(everything.description.isEmpty && everything.matches(Fixtures.typical))
        let far = Fixtures.advertisement(Fixtures.typicalBytes, rssi: -90)
        #expect(!(try AdvertisementFilter(
            service: nil, company: nil, manufacturerData: nil, serviceData: nil, nameSubstring: nil, ignoringCase: false, range: .immediate)
            .matches(far)))
        let byCompany = try AdvertisementFilter(
            service: nil, company: "0x0059", manufacturerData: nil, serviceData: nil, nameSubstring: nil, ignoringCase: false, range: .default)
        #expect(!byCompany.matches(Fixtures.typical))
        #expect(byCompany.description.hasPrefix(" for "))
    }

    @Test("a scan line per device: new, changed content, an RSSI 3 dB away; JSON for every report")
    func scanReport() throws {
        var report = ScanReport(json: false)
        let lines = [
            Fixtures.typical, Fixtures.advertisement(Fixtures.typicalBytes, rssi: -62), Fixtures.advertisement(Fixtures.typicalBytes, rssi: -63),
            Fixtures.advertisement(Fixtures.typicalBytes, rssi: nil), Fixtures.advertisement(Fixtures.typicalBytes, address: "F0:F1:F2:F3:F4:F6"),
        ].map { report.line(for: $0) }
        let first = try #require(lines[0])
        #expect(first.hasPrefix("F0:F1:F2:F3:F4:F5 (random)   -60 dBm   \"Tag-Kitchen\"  services 6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))
        #expect(first.hasSuffix("company 0x004C 0a0b0c  service data FE9A 0102"))
        #expect(lines[1] == nil, "2 dB is not worth a line")
        #expect(lines[2] != nil && lines[3] != nil && lines[4] != nil)

        var json = ScanReport(json: true)
        let objects = [json.line(for: Fixtures.typical), json.line(for: Fixtures.typical)]
        let line = try #require(objects[0])
        #expect(objects[1] == line, "JSON has every report")
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["address", "address_type", "rssi", "name", "service_uuids", "manufacturer", "service_data"])
        #expect(object["name"] as? String == "Tag-Kitchen" && object["rssi"] as? Int == -60)
        #expect((object["manufacturer"] as? [String: Any])?["data"] as? String == "0a0b0c")
        #expect((object["service_data"] as? [String: String]) == ["FE9A": "0102"])
    }

    @Test("the record table aligns its columns; times are UTC minutes or never")
    func recordTable() throws {
        let seen = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15 15:06:40 UTC
        let records = [
            AccessoryRecord(id: "1111", displayName: "Kitchen tag", address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, addressType: .random, lastSeenAt: seen),
            AccessoryRecord(id: "2222", displayName: "Keys", advertisedName: "NI-Keys", address: BluetoothAddress("00:11:22:33:44:55")!, addressType: .public),
        ]
        let table = AccessoryRecord.table(records)
        #expect(table.count == 3)
        #expect(table[0].hasPrefix("ID    NAME         ADVERTISED  ADDRESS"))
        #expect(table[0].hasSuffix("LAST SEEN (UTC)"))
        #expect(table[1].hasPrefix("1111  Kitchen tag  -           F0:F1:F2:F3:F4:F5"))
        #expect(table[1].hasSuffix("2025-06-15 15:06"))
        #expect(table[2].hasSuffix("never"))
        #expect(AccessoryRecord.time(nil) == "never")
        let json = AccessoryJSON.line(records[0])
        #expect(json.hasPrefix("{") && json.contains("\"address\":\"F0:F1:F2:F3:F4:F5\"") && !json.contains("\n"))
        #expect(AccessoryJSON.pretty(records).contains("\n"))
        #expect(AccessoryStore.AddOutcome.alreadyStored(records[1]).migrationSummary == "already stored \(records[1])")
        #expect(AccessoryStore.AddOutcome.added(records[0]).migrationSummary == "migrated \(records[0]) (bonding none)")
    }

    @Test("setup without a descriptor offers every known data channel; a record finds itself again")
    func displayItems() throws {
        let items = try DisplayItem.knownDataChannels(name: "Tag")
        #expect(items.map(\.descriptor.serviceUUID) == DataChannelService.known.map(\.service))
        #expect(items.allSatisfy { $0.name == "Tag" })
        let record = AccessoryRecord(displayName: "Kitchen tag", address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, addressType: .random)
        let item = try record.displayItem
        #expect(item.name == "Kitchen tag" && item.descriptor.serviceUUID == DataChannelService.nordicUART.service)
    }
}
