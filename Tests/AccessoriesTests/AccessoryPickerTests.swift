import Accessories
import LowEnergy
import Testing

@Suite("Picker model")
struct AccessoryPickerTests {
    static let item = DisplayItem(name: "Tag", descriptor: try! DiscoveryDescriptor(serviceUUID: Fixtures.nus))
    let start = ContinuousClock.now

    func ad(_ address: String, name: String? = nil, rssi: Int8 = -60, after seconds: Double = 0,
            type: BluetoothAddressType = .random, eventType: AdvertisingEventType = .advInd) -> Advertisement {
        var bytes: [UInt8] = [0x02, 0x01, 0x06, 0x11, 0x07] + Fixtures.nus.littleEndianBytes(size: 16)!
        if let name { bytes += [UInt8(name.utf8.count + 1), 0x09] + Array(name.utf8) }
        return Fixtures.advertisement(bytes, address: address, type: type, rssi: rssi, eventType: eventType,
                                      at: start.advanced(by: .milliseconds(Int(seconds * 1000))))
    }

    @Test("de-duplicated by address and type, updated in place, first-heard order stays stable")
    func ordering() {
        var picker = AccessoryPicker(items: [Self.item])
        #expect(picker.ingest(ad("F0:00:00:00:00:01", name: "a", rssi: -80)) == .added(index: 0))
        #expect(picker.ingest(ad("F0:00:00:00:00:02", name: "b", rssi: -40)) == .added(index: 1))
        #expect(picker.ingest(ad("F0:00:00:00:00:01", rssi: -70, after: 1)) == .updated(index: 0))
        // Same address, other type: another device.
        #expect(picker.ingest(ad("F0:00:00:00:00:01", name: "c", type: .public)) == .added(index: 2))
        #expect(picker.candidates.map(\.address.description) == ["F0:00:00:00:00:01", "F0:00:00:00:00:02", "F0:00:00:00:00:01"])
        let first = picker.candidates[0]
        #expect(first.advertisedName == "a", "a report without a name keeps the known name")
        #expect(first.rssi == -70)
        #expect(first.smoothedRSSI == -80 + 0.3 * 10)  // EMA weight 0.3
        #expect(first.displayRSSI == -77)
        #expect(first.reports == 2)
        #expect(first.lastSeen == start.advanced(by: .seconds(1)) && first.firstSeen == start)
        #expect(first.displayName == "Tag")
        // The stronger device does not jump ahead.
        #expect(picker.candidates[1].advertisedName == "b")
        // Non-matching advertisements are ignored.
        #expect(picker.ingest(Fixtures.advertisement([0x03, 0x03, 0x0D, 0x18], address: "F0:00:00:00:00:09")) == nil)
        #expect(picker.candidates.count == 3)
    }

    @Test("connectableOnly ignores non-connectable advertisers")
    func connectable() {
        var picker = AccessoryPicker(items: [Self.item], connectableOnly: true)
        #expect(picker.ingest(ad("F0:00:00:00:00:01", eventType: .advNonconnInd)) == nil)
        #expect(picker.ingest(ad("F0:00:00:00:00:01", eventType: .advInd)) == .added(index: 0))
    }

    @Test("stale entries age out; the highlight stays on its candidate or moves to a neighbour")
    func ageing() {
        var picker = AccessoryPicker(items: [Self.item], staleAfter: .seconds(5))
        picker.ingest(ad("F0:00:00:00:00:01", after: 0))
        picker.ingest(ad("F0:00:00:00:00:02", after: 1))
        picker.ingest(ad("F0:00:00:00:00:03", after: 2))
        picker.move(.last)
        #expect(picker.highlighted?.address.description == "F0:00:00:00:00:03")
        #expect(picker.expire(now: start.advanced(by: .seconds(5))).isEmpty)
        let removed = picker.expire(now: start.advanced(by: .milliseconds(5500)))
        #expect(removed.map(\.address.description) == ["F0:00:00:00:00:01"])
        #expect(picker.candidates.count == 2)
        #expect(picker.highlightedIndex == 1 && picker.highlighted?.address.description == "F0:00:00:00:00:03")
        // A report refreshes a candidate.
        picker.ingest(ad("F0:00:00:00:00:02", after: 6))
        #expect(picker.expire(now: start.advanced(by: .milliseconds(7500))).map(\.address.description) == ["F0:00:00:00:00:03"])
        #expect(picker.highlighted?.address.description == "F0:00:00:00:00:02")
        #expect(picker.expire(now: start.advanced(by: .seconds(20))).count == 1)
        #expect(picker.candidates.isEmpty && picker.highlighted == nil)
    }

    @Test("arrow keys move the highlight and stop at the ends; numbers highlight rows")
    func arrows() {
        var picker = AccessoryPicker(items: [Self.item])
        picker.move(.down)
        #expect(picker.highlightedIndex == nil)
        for index in 1...3 { picker.ingest(ad("F0:00:00:00:00:0\(index)")) }
        #expect(picker.highlightedIndex == 0)
        picker.move(.up)
        #expect(picker.highlightedIndex == 0)
        picker.move(.down)
        picker.move(.down)
        picker.move(.down)
        #expect(picker.highlightedIndex == 2)
        picker.move(.up)
        #expect(picker.highlighted?.address.description == "F0:00:00:00:00:02")
        picker.move(.first)
        #expect(picker.highlightedIndex == 0)
        #expect(picker.highlight(number: 3) && picker.highlightedIndex == 2)
        #expect(!picker.highlight(number: 4) && picker.highlightedIndex == 2)
    }

    @Test("pick by number, first, address, advertised or display name; errors list what was found")
    func picking() throws {
        var picker = AccessoryPicker(items: [Self.item])
        #expect(throws: PickerError.noMatch(choice: .first, available: [])) { try picker.select(.first) }
        picker.ingest(ad("F0:00:00:00:00:01", name: "nb-peer", rssi: -50))
        picker.ingest(ad("F0:00:00:00:00:02", name: "nb-peer2", rssi: -50))
        #expect(try picker.select(.first).address.description == "F0:00:00:00:00:01")
        #expect(try picker.select(.number(2)).advertisedName == "nb-peer2")
        #expect(try picker.select(PickerChoice(parsing: "f0:00:00:00:00:02")).advertisedName == "nb-peer2")
        #expect(try picker.select(PickerChoice(parsing: "NB-PEER")).address.description == "F0:00:00:00:00:01")
        #expect(throws: PickerError.self) { try picker.select(.number(3)) }
        // Both have the display name "Tag": ambiguous.
        #expect(throws: PickerError.ambiguous(choice: .name("tag"), matches: picker.candidates.map(\.description))) {
            try picker.select(.name("tag"))
        }
        do {
            _ = try picker.select(.name("garage"))
        } catch {
            #expect(error.description == "no accessory matches \"garage\"; found: 1. Tag  \"nb-peer\"  -50 dBm  F0:00:00:00:00:01 (random); 2. Tag  \"nb-peer2\"  -50 dBm  F0:00:00:00:00:02 (random)")
        }
    }

    @Test("choices parse from text: first, addresses, numbers (not for --pick), names")
    func parsing() {
        #expect(PickerChoice(parsing: "FIRST") == .first)
        #expect(PickerChoice(parsing: " F0:F1:F2:F3:F4:F5 ") == .address(BluetoothAddress("F0:F1:F2:F3:F4:F5")!))
        #expect(PickerChoice(parsing: "2") == .number(2))
        #expect(PickerChoice(parsing: "2", allowNumbers: false) == .name("2"))
        #expect(PickerChoice(parsing: "Kitchen tag") == .name("Kitchen tag"))
    }
}
