/// What an ``Advertiser`` sends and how often: connectable, scannable undirected advertising
/// with legacy PDUs (what every phone hears), the advertising data and the scan response data.
public struct AdvertisingConfiguration: Sendable, Hashable {
    /// The advertising data (at most 31 bytes).
    public var advertisingData: AdvertisingData
    /// The scan response data (at most 31 bytes), sent to active scanners such as phones.
    public var scanResponseData: AdvertisingData
    /// The advertising interval, milliseconds (20 ... 10240). Default 100 (Apple's accessory
    /// design guidelines suggest 152.5 ms or less for quick discovery).
    public var intervalMilliseconds: Double
    /// How many centrals may be connected at once; advertising pauses at the limit and resumes
    /// when one disconnects. Default 4.
    public var maximumConnections: Int

    /// Creates a configuration.
    public init(advertisingData: AdvertisingData, scanResponseData: AdvertisingData = AdvertisingData(),
                intervalMilliseconds: Double = 100, maximumConnections: Int = 4) {
        self.advertisingData = advertisingData
        self.scanResponseData = scanResponseData
        self.intervalMilliseconds = intervalMilliseconds
        self.maximumConnections = maximumConnections
    }

    /// An accessory's advertising, as Qorvo's firmware does it: flags (LE General
    /// Discoverable, BR/EDR not supported) and the 128-bit service UUID in the advertising data;
    /// the name in the scan response (31 bytes do not hold both); a name longer than the scan
    /// response holds is sent as a Shortened Local Name.
    public static func accessory(service: BluetoothUUID, name: String, intervalMilliseconds: Double = 100,
                                 maximumConnections: Int = 4) -> AdvertisingConfiguration {
        accessory(services: [service], name: name, intervalMilliseconds: intervalMilliseconds, maximumConnections: maximumConnections)
    }

    /// An accessory's advertising for several services: the first in the advertising data
    /// beside the flags (one 128-bit UUID is all that fits), the others in the scan response
    /// after the complete name when they fit beside it; otherwise the name alone (shortened if
    /// it is longer than 29 bytes) and the others are found through GATT only. With more than
    /// one service the lists are marked incomplete (each place lists only part).
    public static func accessory(services: [BluetoothUUID], name: String, intervalMilliseconds: Double = 100,
                                 maximumConnections: Int = 4) -> AdvertisingConfiguration {
        func uuidElement(_ uuids: [BluetoothUUID], complete: Bool) -> [AdvertisingData.Element] {
            AdvertisingData.Element.completeServiceUUIDs(uuids).map { element in
                complete ? element : AdvertisingData.Element(type: element.type - 1, value: element.value)
            }
        }
        let complete = services.count <= 1
        let advertising = AdvertisingData(elements: [.flags([.leGeneralDiscoverable, .brEdrNotSupported])]
                                          + uuidElement(Array(services.prefix(1)), complete: complete))
        var nameBytes = Array(name.utf8)
        let nameElement = AdvertisingData.Element(type: AdvertisingData.ADType.completeLocalName, value: nameBytes)
        // The other services that fit beside the complete name (each element: 2 + 16 × n bytes).
        var others = Array(services.dropFirst())
        let room = 31 - (nameBytes.isEmpty ? 0 : 2 + nameBytes.count)
        while !others.isEmpty, uuidElement(others, complete: false).reduce(0, { $0 + 2 + $1.value.count }) > room {
            others.removeLast()
        }
        let scanResponse: AdvertisingData
        if !others.isEmpty {
            scanResponse = AdvertisingData(elements: (nameBytes.isEmpty ? [] : [nameElement]) + uuidElement(others, complete: false))
        } else {
            var type = AdvertisingData.ADType.completeLocalName
            if nameBytes.count > 29 {
                // Cut at a character boundary.
                var cut = 29
                while cut > 0, nameBytes[cut] & 0xC0 == 0x80 { cut -= 1 }
                nameBytes = Array(nameBytes.prefix(cut))
                type = AdvertisingData.ADType.shortenedLocalName
            }
            scanResponse = nameBytes.isEmpty ? AdvertisingData() : AdvertisingData(elements: [.init(type: type, value: nameBytes)])
        }
        return AdvertisingConfiguration(advertisingData: advertising, scanResponseData: scanResponse,
                                        intervalMilliseconds: intervalMilliseconds, maximumConnections: maximumConnections)
    }

    /// The interval in 0.625 ms units.
    var intervalUnits: UInt16 {
        UInt16(clamping: Int((intervalMilliseconds / 0.625).rounded()))
    }

    /// What is wrong with the configuration, `nil` if it can be used.
    public var validationProblem: String? {
        if advertisingData.encoded.count > 31 {
            return "the advertising data is \(advertisingData.encoded.count) bytes, more than the 31 a legacy advertisement carries"
        }
        if scanResponseData.encoded.count > 31 {
            return "the scan response data is \(scanResponseData.encoded.count) bytes, more than the 31 a legacy scan response carries"
        }
        if !(20...10_240).contains(intervalMilliseconds) {
            return "the advertising interval must be 20 ms ... 10.24 s, not \(intervalMilliseconds) ms"
        }
        if maximumConnections < 1 { return "at least one connection must be allowed, not \(maximumConnections)" }
        return nil
    }
}
