import Accessories
import FuzzLowEnergyCommon
import FuzzSupport
import LowEnergy

/// Advertising data and reports from the air: `AdvertisingData(parsing:)` (every accessor),
/// `AdvertisementAccumulator` (extended-advertising fragments, scan-response merging) and the
/// discovery descriptors' matching.
///
/// Input: 1 control byte, then a sequence of reports: `[event type lo][address byte][length]`
/// + data.
/// Invariants: parsing never traps and keeps every element it accepted (re-encoding the elements
/// gives a prefix of the input); the accumulator's memory stays within its bound.
@main enum FuzzAdvertising: FuzzTarget {
    static let seeds: [[UInt8]] = LowEnergySeeds.advertising

    static let descriptors = [
        try! DiscoveryDescriptor(serviceUUID: BluetoothUUID(0xFFF0), serviceDataBlob: [0x01], serviceDataMask: [0x0F]),
        try! DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x12], manufacturerDataMask: [0xFF]),
        try! DiscoveryDescriptor(serviceUUID: BluetoothUUID(0xFFF0), nameSubstring: "nb", nameIgnoresCase: true),
    ]

    static func fuzz(_ input: [UInt8]) {
        let data = AdvertisingData(parsing: input)
        touch(data)
        var encoded: [UInt8] = []
        for element in data.elements { encoded += [UInt8(element.value.count + 1), element.type] + element.value }
        FuzzCheck.require(encoded.count <= input.count && Array(input.prefix(encoded.count)) == encoded, "elements do not re-encode to the input")

        var reader = FuzzInput(input)
        var accumulator = AdvertisementAccumulator(maximumDevices: 4)
        let now = ContinuousClock.now
        while reader.remaining >= 3 {
            let eventType = UInt16(reader.byte())
            let addressByte = reader.byte()
            let bytes = reader.take(Int(reader.byte()))
            let report = AdvertisingReport(
                eventType: AdvertisingEventType(rawValue: eventType), addressType: addressByte & 1 == 0 ? .public : .random,
                address: BluetoothAddress(littleEndian: [addressByte & 0x3, 0, 0, 0, 0, 0xC0])!, rssi: -40, txPower: nil,
                advertisingSID: eventType & 0x10 == 0 ? nil : 1, data: bytes)
            switch accumulator.add(report, at: now) {
            case .advertisement(let advertisement), .truncated(let advertisement):
                touch(advertisement.data)
                for descriptor in descriptors { _ = descriptor.matches(advertisement) }
            case .pending:
                break
            }
            FuzzCheck.require(accumulator.deviceCount <= 4 && accumulator.pendingFragmentCount <= 4, "the accumulator grew past its bound")
        }
    }

    static func touch(_ data: AdvertisingData) {
        _ = data.localName
        _ = data.serviceUUIDs
        _ = data.manufacturerData(for: 0x004C)
        _ = data.serviceData(for: BluetoothUUID(0xFFF0))
        _ = data.problems
        _ = data.txPowerLevel
        _ = data.flags
    }
}
