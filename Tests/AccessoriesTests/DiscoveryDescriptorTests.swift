import Accessories
import Foundation
import LowEnergy
import Testing

@Suite("Discovery descriptors")
struct DiscoveryDescriptorTests {
    let ad = Fixtures.typical

    @Test("the fixture bytes parse to what the tests assume")
    func fixture() {
        #expect(ad.data.problems.isEmpty)
        #expect(ad.data.serviceUUIDs == [Fixtures.nus])
        #expect(ad.data.manufacturerData(for: 0x004C) == [0x0A, 0x0B, 0x0C])
        #expect(ad.data.serviceData(for: BluetoothUUID(0xFE9A)) == [0x01, 0x02])
        #expect(ad.name == "Tag-Kitchen")
    }

    @Test("service UUID: in the UUID list or as a service data UUID; a different UUID does not match")
    func serviceUUID() throws {
        #expect(try DiscoveryDescriptor(serviceUUID: Fixtures.nus).matches(ad))
        #expect(try DiscoveryDescriptor(serviceUUID: BluetoothUUID(0xFE9A)).matches(ad))
        #expect(try !DiscoveryDescriptor(serviceUUID: DataChannelService.qorvoNI.service).matches(ad))
        #expect(try !DiscoveryDescriptor(serviceUUID: BluetoothUUID(0x180D)).matches(ad))
        // A 16-bit UUID in a 16-bit list (03 03 0d 18).
        let heartRate = Fixtures.advertisement([0x03, 0x03, 0x0D, 0x18])
        #expect(try DiscoveryDescriptor(serviceUUID: BluetoothUUID("0000180D-0000-1000-8000-00805F9B34FB")!).matches(heartRate))
    }

    @Test("company identifier alone, and with a blob, with a mask, and too short payloads")
    func manufacturerData() throws {
        #expect(try DiscoveryDescriptor(companyIdentifier: 0x004C).matches(ad))
        #expect(try !DiscoveryDescriptor(companyIdentifier: 0x0059).matches(ad))
        #expect(try DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x0A, 0x0B]).matches(ad))
        #expect(try DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x0A, 0x0B, 0x0C]).matches(ad))
        #expect(try !DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x0A, 0xFF]).matches(ad))
        // Longer than the payload: no match.
        #expect(try !DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x0A, 0x0B, 0x0C, 0x00]).matches(ad))
        // Mask: only the high nibble of the second byte counts (0x0B & 0xF0 == 0x00 == 0x0F & 0xF0).
        #expect(try DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x0A, 0x0F], manufacturerDataMask: [0xFF, 0xF0]).matches(ad))
        #expect(try !DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x0A, 0x1B], manufacturerDataMask: [0xFF, 0xF0]).matches(ad))
        // Zero mask: any payload of at least that length.
        #expect(try DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x55], manufacturerDataMask: [0x00]).matches(ad))
        // The blob is compared with the right company's field when there are two.
        let two = Fixtures.advertisement([0x04, 0xFF, 0x59, 0x00, 0x01, 0x04, 0xFF, 0x4C, 0x00, 0x02])
        #expect(try DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x02]).matches(two))
        #expect(try !DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x01]).matches(two))
    }

    @Test("service data blob and mask under the service UUID")
    func serviceData() throws {
        let fe9a = BluetoothUUID(0xFE9A)
        #expect(try DiscoveryDescriptor(serviceUUID: fe9a, serviceDataBlob: [0x01]).matches(ad))
        #expect(try DiscoveryDescriptor(serviceUUID: fe9a, serviceDataBlob: [0x01, 0x02]).matches(ad))
        #expect(try !DiscoveryDescriptor(serviceUUID: fe9a, serviceDataBlob: [0x01, 0x03]).matches(ad))
        #expect(try DiscoveryDescriptor(serviceUUID: fe9a, serviceDataBlob: [0x01, 0x03], serviceDataMask: [0xFF, 0xFC]).matches(ad))
        #expect(try !DiscoveryDescriptor(serviceUUID: fe9a, serviceDataBlob: [0x01, 0x02, 0x03]).matches(ad))
        // NUS is advertised but has no service data: a service data blob cannot match.
        #expect(try !DiscoveryDescriptor(serviceUUID: Fixtures.nus, serviceDataBlob: [0x01]).matches(ad))
    }

    @Test("name substring: case-sensitive by default, ignoring case on request, shortened names count")
    func nameSubstring() throws {
        #expect(try DiscoveryDescriptor(serviceUUID: Fixtures.nus, nameSubstring: "Kitchen").matches(ad))
        #expect(try !DiscoveryDescriptor(serviceUUID: Fixtures.nus, nameSubstring: "kitchen").matches(ad))
        #expect(try DiscoveryDescriptor(serviceUUID: Fixtures.nus, nameSubstring: "kITCHEN", nameIgnoresCase: true).matches(ad))
        #expect(try !DiscoveryDescriptor(serviceUUID: Fixtures.nus, nameSubstring: "garage", nameIgnoresCase: true).matches(ad))
        let short = Fixtures.advertisement([0x03, 0x03, 0x0D, 0x18, 0x04, 0x08] + Array("Tag".utf8))
        #expect(try DiscoveryDescriptor(serviceUUID: BluetoothUUID(0x180D), nameSubstring: "ag").matches(short))
        let nameless = Fixtures.advertisement([0x03, 0x03, 0x0D, 0x18])
        #expect(try !DiscoveryDescriptor(serviceUUID: BluetoothUUID(0x180D), nameSubstring: "T").matches(nameless))
    }

    @Test("range immediate: RSSI >= -50 dBm; default: any RSSI, also none")
    func range() throws {
        let immediate = try DiscoveryDescriptor(serviceUUID: Fixtures.nus, range: .immediate)
        let anywhere = try DiscoveryDescriptor(serviceUUID: Fixtures.nus)
        #expect(DiscoveryRange.immediate.minimumRSSI == -50 && DiscoveryRange.default.minimumRSSI == nil)
        #expect(immediate.matches(Fixtures.advertisement(Fixtures.typicalBytes, rssi: -50)))
        #expect(immediate.matches(Fixtures.advertisement(Fixtures.typicalBytes, rssi: -35)))
        #expect(!immediate.matches(Fixtures.advertisement(Fixtures.typicalBytes, rssi: -51)))
        #expect(!immediate.matches(Fixtures.advertisement(Fixtures.typicalBytes, rssi: nil)))
        #expect(anywhere.matches(Fixtures.advertisement(Fixtures.typicalBytes, rssi: -99)))
        #expect(anywhere.matches(Fixtures.advertisement(Fixtures.typicalBytes, rssi: nil)))
    }

    @Test("every field together (AND): one wrong field is enough to reject")
    func allFields() throws {
        let all = try DiscoveryDescriptor(
            serviceUUID: BluetoothUUID(0xFE9A), companyIdentifier: 0x004C, manufacturerDataBlob: [0x0A],
            serviceDataBlob: [0x01], nameSubstring: "tag", nameIgnoresCase: true, range: .immediate)
        #expect(all.matches(Fixtures.advertisement(Fixtures.typicalBytes, rssi: -40)))
        #expect(!all.matches(Fixtures.advertisement(Fixtures.typicalBytes, rssi: -70)))
        var bytes = Fixtures.typicalBytes
        bytes[bytes.firstIndex(of: 0x0A)!] = 0x0B  // manufacturer payload 0b 0b 0c
        #expect(!all.matches(Fixtures.advertisement(bytes, rssi: -40)))
    }

    @Test("validation errors name the field and the fix")
    func validation() {
        #expect(throws: DiscoveryDescriptorError.missingServiceOrCompany) { try DiscoveryDescriptor(nameSubstring: "tag") }
        #expect(DiscoveryDescriptorError.missingServiceOrCompany.description
            == "a discovery descriptor needs a service UUID or a company identifier (or both); without either it would match every device nearby")
        #expect(throws: DiscoveryDescriptorError.maskLengthMismatch(mask: .manufacturerDataMask, maskLength: 1, blob: .manufacturerDataBlob, blobLength: 2)) {
            try DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [1, 2], manufacturerDataMask: [0xFF])
        }
        #expect(DiscoveryDescriptorError.maskLengthMismatch(mask: .manufacturerDataMask, maskLength: 1, blob: .manufacturerDataBlob, blobLength: 2).description
            == "manufacturerDataMask has 1 byte(s) but manufacturerDataBlob has 2: the mask must be exactly as long as the blob (one mask byte per blob byte)")
        #expect(throws: DiscoveryDescriptorError.maskWithoutBlob(mask: .serviceDataMask, blob: .serviceDataBlob)) {
            try DiscoveryDescriptor(serviceUUID: Fixtures.nus, serviceDataMask: [0xFF])
        }
        #expect(DiscoveryDescriptorError.maskWithoutBlob(mask: .serviceDataMask, blob: .serviceDataBlob).description.hasPrefix("serviceDataMask was given without serviceDataBlob"))
        #expect(throws: DiscoveryDescriptorError.blobWithoutKey(blob: .serviceDataBlob, key: .serviceUUID)) {
            try DiscoveryDescriptor(companyIdentifier: 0x004C, serviceDataBlob: [1])
        }
        #expect(DiscoveryDescriptorError.blobWithoutKey(blob: .serviceDataBlob, key: .serviceUUID).description
            == "serviceDataBlob needs serviceUUID: the blob is compared with the data advertised under that service UUID")
        #expect(throws: DiscoveryDescriptorError.blobWithoutKey(blob: .manufacturerDataBlob, key: .companyIdentifier)) {
            try DiscoveryDescriptor(serviceUUID: Fixtures.nus, manufacturerDataBlob: [1])
        }
        #expect(throws: DiscoveryDescriptorError.empty(.nameSubstring)) { try DiscoveryDescriptor(serviceUUID: Fixtures.nus, nameSubstring: "") }
        #expect(throws: DiscoveryDescriptorError.empty(.manufacturerDataBlob)) {
            try DiscoveryDescriptor(companyIdentifier: 1, manufacturerDataBlob: [])
        }
    }

    @Test("Codable: snake_case keys and hex blobs round trip; invalid JSON descriptors are rejected with the validation text")
    func codable() throws {
        let descriptor = try DiscoveryDescriptor(
            serviceUUID: BluetoothUUID(0xFE9A), companyIdentifier: 0x004C, manufacturerDataBlob: [0x0A, 0x0B],
            manufacturerDataMask: [0xFF, 0x0F], serviceDataBlob: [0x01], nameSubstring: "Tag", nameIgnoresCase: true, range: .immediate)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(descriptor), as: UTF8.self)
        #expect(json == #"{"company_identifier":76,"manufacturer_data_blob":"0a0b","manufacturer_data_mask":"ff0f","name_ignores_case":true,"name_substring":"Tag","range":"immediate","service_data_blob":"01","service_uuid":"FE9A"}"#)
        #expect(try JSONDecoder().decode(DiscoveryDescriptor.self, from: Data(json.utf8)) == descriptor)
        let minimal = String(decoding: try encoder.encode(try DiscoveryDescriptor(serviceUUID: Fixtures.nus)), as: UTF8.self)
        #expect(minimal == #"{"service_uuid":"6E400001-B5A3-F393-E0A9-E50E24DCCA9E"}"#)
        do {
            _ = try JSONDecoder().decode(DiscoveryDescriptor.self, from: Data(#"{"name_substring":"x"}"#.utf8))
            Issue.record("decoded a descriptor without service and company")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.hasPrefix("a discovery descriptor needs a service UUID or a company identifier"))
        }
    }

    @Test("display items: the first matching item wins; description summarises the descriptor")
    func displayItems() throws {
        let tag = DisplayItem(name: "Tag", descriptor: try DiscoveryDescriptor(serviceUUID: Fixtures.nus, nameSubstring: "Tag"))
        let apple = DisplayItem(name: "Apple thing", descriptor: try DiscoveryDescriptor(companyIdentifier: 0x004C))
        let other = DisplayItem(name: "Heart", descriptor: try DiscoveryDescriptor(serviceUUID: BluetoothUUID(0x180D)))
        #expect(DisplayItem.firstMatch(in: [other, tag, apple], for: ad) == tag)
        #expect(DisplayItem.firstMatch(in: [apple, tag], for: ad) == apple)
        #expect(DisplayItem.firstMatch(in: [other], for: ad) == nil)
        #expect(tag.description == "Tag (service 6E400001-B5A3-F393-E0A9-E50E24DCCA9E, name contains \"Tag\")")
    }
}
