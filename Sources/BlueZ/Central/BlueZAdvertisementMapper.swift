import LowEnergy

/// Turns what BlueZ exposes of a device's advertising (doc/org.bluez.Device.rst: `Address`,
/// `AddressType`, `Name`, `RSSI`, `TxPower`, `UUIDs`, `ManufacturerData`, `ServiceData`,
/// `AdvertisingFlags`) into an `Advertisement`, so filters, the picker and
/// `nearby scan --json` treat it exactly like a report from this program's own host.
///
/// BlueZ keeps one merged view per device (advertising and scan response data together), like
/// `Advertisement.data`; it does not say whether the device is connectable (every
/// device is offered as connectable) and exposes no raw PDU.
enum BlueZAdvertisementMapper {
    static func advertisement(properties: [String: DBusValue], at timestamp: ContinuousClock.Instant) -> Advertisement? {
        guard let address = properties["Address"]?.string.flatMap(BluetoothAddress.init) else { return nil }
        let type: BluetoothAddressType = properties["AddressType"]?.string == "random" ? .random : .public
        var elements: [AdvertisingData.Element] = []
        if let flags = properties["AdvertisingFlags"]?.byteArray, let first = flags.first {
            elements.append(.flags(AdvertisingFlags(rawValue: first)))
        }
        let uuids = (properties["UUIDs"]?.strings ?? []).compactMap(BluetoothUUID.init)
        if !uuids.isEmpty { elements += AdvertisingData.Element.completeServiceUUIDs(uuids) }
        if let name = properties["Name"]?.string, !name.isEmpty {
            elements.append(.completeLocalName(name))
        }
        var txPower: Int8?
        if let power = properties["TxPower"]?.integer {
            txPower = Int8(clamping: power)
            elements.append(.txPowerLevel(Int8(clamping: power)))
        }
        for entry in properties["ManufacturerData"]?.entries ?? [] {
            guard let company = entry.key.integer, let bytes = entry.value.byteArray else { continue }
            elements.append(.manufacturerData(companyIdentifier: UInt16(truncatingIfNeeded: company), data: bytes))
        }
        for entry in properties["ServiceData"]?.entries ?? [] {
            guard let uuid = entry.key.string.flatMap(BluetoothUUID.init), let bytes = entry.value.byteArray else { continue }
            elements.append(.serviceData(uuid: uuid, data: bytes))
        }
        let data = AdvertisingData(elements: elements)
        return Advertisement(
            address: address, addressType: type, rssi: properties["RSSI"]?.integer.map { Int8(clamping: $0) },
            eventType: .advInd, reportData: data, data: data, txPower: txPower, timestamp: timestamp)
    }

    /// The properties whose change means the device advertised again (not a connection's
    /// service discovery): with a discovery filter set, bluetoothd reports `RSSI` for every
    /// advertising report (src/adapter.c: no RSSI delta threshold for filtered discovery).
    static let advertisingProperties: Set<String> = ["RSSI", "ManufacturerData", "ServiceData", "TxPower"]
}
