import LowEnergy
import Testing

@Suite("Advertisement accumulator")
struct AdvertisementAccumulatorTests {
    static let address = BluetoothAddress("F0:F1:F2:F3:F4:F5")!
    static let other = BluetoothAddress("C0:00:00:00:00:01")!
    static let now = ContinuousClock.now
    /// flags 06, 16-bit UUID FE9A.
    static let advertising: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0x9A, 0xFE]
    /// name "nbp".
    static let scanResponse: [UInt8] = [0x04, 0x09, 0x6E, 0x62, 0x70]

    static func report(_ type: AdvertisingEventType, _ data: [UInt8], address: BluetoothAddress = address,
                       sid: UInt8? = nil, rssi: Int8 = -40, txPower: Int8? = nil) -> AdvertisingReport {
        AdvertisingReport(eventType: type, addressType: .random, address: address, rssi: rssi,
                          txPower: txPower, advertisingSID: sid, data: data)
    }

    static func advertisement(_ outcome: AdvertisementAccumulator.Outcome) -> Advertisement? {
        switch outcome {
        case .advertisement(let advertisement), .truncated(let advertisement): return advertisement
        case .pending: return nil
        }
    }

    @Test("advertising data and a scan response merge: advertising first, then the scan response")
    func mergesScanResponse() throws {
        var accumulator = AdvertisementAccumulator()
        let first = try #require(Self.advertisement(accumulator.add(Self.report(.advInd, Self.advertising), at: Self.now)))
        #expect(first.data.encoded == Self.advertising)
        #expect(first.name == nil)
        let second = try #require(Self.advertisement(accumulator.add(Self.report(.scanResponseToAdvInd, Self.scanResponse), at: Self.now)))
        #expect(second.reportData.encoded == Self.scanResponse)
        #expect(second.data.encoded == Self.advertising + Self.scanResponse)
        #expect(second.name == "nbp")
        #expect(second.isConnectable)
        // New advertising data replaces the old but keeps the latest scan response.
        let changed: [UInt8] = [0x02, 0x01, 0x06]
        let third = try #require(Self.advertisement(accumulator.add(Self.report(.advInd, changed), at: Self.now)))
        #expect(third.data.encoded == changed + Self.scanResponse)
        #expect(accumulator.deviceCount == 1)
    }

    @Test("devices are kept apart by address")
    func devicesApart() throws {
        var accumulator = AdvertisementAccumulator()
        _ = accumulator.add(Self.report(.scanResponseToAdvInd, Self.scanResponse), at: Self.now)
        let other = try #require(Self.advertisement(accumulator.add(Self.report(.advInd, Self.advertising, address: Self.other), at: Self.now)))
        #expect(other.name == nil)
        #expect(accumulator.deviceCount == 2)
    }

    @Test("extended fragments join per advertising set; a truncated chain delivers what arrived")
    func fragments() throws {
        var accumulator = AdvertisementAccumulator()
        let moreToCome = AdvertisingEventType(rawValue: 0x0001 | 0x20)
        let truncated = AdvertisingEventType(rawValue: 0x0001 | 0x40)
        let complete = AdvertisingEventType(rawValue: 0x0001)
        #expect(accumulator.add(Self.report(moreToCome, Array(Self.advertising.prefix(3)), sid: 1), at: Self.now) == .pending)
        // Another set of the same device does not disturb the chain.
        #expect(accumulator.add(Self.report(moreToCome, [0x02, 0x01], sid: 2), at: Self.now) == .pending)
        #expect(accumulator.pendingFragmentCount == 2)
        let joined = try #require(Self.advertisement(accumulator.add(Self.report(complete, Array(Self.advertising.dropFirst(3)), sid: 1, txPower: -4), at: Self.now)))
        #expect(joined.reportData.encoded == Self.advertising)
        #expect(joined.advertisingSID == 1)
        #expect(joined.txPower == -4)
        let outcome = accumulator.add(Self.report(truncated, [0x06], sid: 2), at: Self.now)
        guard case .truncated(let partial) = outcome else {
            Issue.record("expected a truncated advertisement, got \(outcome)")
            return
        }
        #expect(partial.reportData.encoded == [0x02, 0x01, 0x06])
        #expect(accumulator.pendingFragmentCount == 0)
    }

    @Test("memory is bounded: beyond the limit the accumulator starts over")
    func bounded() throws {
        var accumulator = AdvertisementAccumulator(maximumDevices: 8)
        for index in 0..<20 {
            let address = BluetoothAddress(value: 0xC0_00_00_00_00_00 + UInt64(index))!
            _ = accumulator.add(Self.report(.advInd, Self.advertising, address: address), at: Self.now)
            _ = accumulator.add(Self.report(AdvertisingEventType(rawValue: 0x21), [0x02], address: address, sid: 0), at: Self.now)
            #expect(accumulator.deviceCount <= 8)
            #expect(accumulator.pendingFragmentCount <= 8)
        }
        accumulator.reset()
        #expect(accumulator.deviceCount == 0)
        #expect(accumulator.pendingFragmentCount == 0)
    }

    @Test("malformed data is delivered with its problems, never dropped")
    func malformed() throws {
        var accumulator = AdvertisementAccumulator()
        let advertisement = try #require(Self.advertisement(accumulator.add(Self.report(.advInd, [0x05, 0x09, 0x41]), at: Self.now)))
        #expect(!advertisement.reportData.problems.isEmpty)
        #expect(advertisement.rssi == -40)
    }

    /// Found reviewing the fuzz target's bounds: a controller that keeps sending "more to come"
    /// fragments made one chain grow without limit. At 1650 bytes (the longest advertising
    /// data) the chain is delivered as truncated and forgotten.
    @Test("a fragment chain that never completes is cut at 1650 bytes and delivered as truncated")
    func endlessChainIsBounded() throws {
        var accumulator = AdvertisementAccumulator()
        let moreToCome = AdvertisingEventType(rawValue: 0x0001 | 0x20)  // extended, connectable, incomplete
        let fragment = [UInt8](repeating: 0, count: 200)
        var outcomes: [AdvertisementAccumulator.Outcome] = []
        for _ in 0..<20 { outcomes.append(accumulator.add(Self.report(moreToCome, fragment, sid: 1), at: Self.now)) }
        let truncated = outcomes.compactMap { outcome -> Advertisement? in
            if case .truncated(let advertisement) = outcome { return advertisement }
            return nil
        }
        #expect(truncated.count == 2, "4000 bytes: cut twice")
        #expect(truncated.allSatisfy { $0.reportData.encoded.count <= AdvertisementAccumulator.maximumDataLength })
        #expect(accumulator.pendingFragmentCount == 1, "what came after the last cut is held")
    }
}
