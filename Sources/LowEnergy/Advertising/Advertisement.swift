/// One advertising report from a scan, with its data parsed.
///
/// The scan delivers every report (no duplicate filtering): filtering by service UUID, company,
/// name or RSSI is the caller's (the `Accessories` module's discovery descriptors).
public struct Advertisement: Sendable, Hashable, CustomStringConvertible {
    /// The advertiser's address.
    public var address: BluetoothAddress
    /// The advertiser's address type (use ``BluetoothAddressType/connectable`` to connect).
    public var addressType: BluetoothAddressType
    /// Received signal strength, dBm (`nil` if the controller did not measure it).
    public var rssi: Int8?
    /// The PDU kind (ADV_IND, SCAN_RSP, extended ...): connectable, scannable, scan response.
    public var eventType: AdvertisingEventType
    /// Advertising set ID (extended advertising only).
    public var advertisingSID: UInt8?
    /// This report's own data (advertising data, or scan response data for a scan response).
    public var reportData: AdvertisingData
    /// Everything known about the device in this scan: this report's data merged with the
    /// latest report of the other kind from the same address (advertising data first, then
    /// scan response data). Filter on this: a name often comes only in the scan response.
    public var data: AdvertisingData
    /// TX power: the extended header's value if present, else the AD TX Power Level field, dBm.
    public var txPower: Int8?
    /// When the report arrived (monotonic clock).
    public var timestamp: ContinuousClock.Instant
    /// The bonded device's identity when ``address`` is a resolvable private address that a
    /// stored IRK resolves (``BLEHost`` fills it in); `nil` otherwise.
    public var identity: IdentityAddress?

    /// Creates an advertisement.
    public init(address: BluetoothAddress, addressType: BluetoothAddressType, rssi: Int8?,
                eventType: AdvertisingEventType, advertisingSID: UInt8? = nil, reportData: AdvertisingData,
                data: AdvertisingData, txPower: Int8?, timestamp: ContinuousClock.Instant) {
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.eventType = eventType
        self.advertisingSID = advertisingSID
        self.reportData = reportData
        self.data = data
        self.txPower = txPower
        self.timestamp = timestamp
    }

    /// The device's local name, if advertised.
    public var name: String? { data.localName }

    /// `true` if the device accepts connections (a scan response counts as connectable when the
    /// advertising it answers was).
    public var isConnectable: Bool { eventType.isConnectable || eventType.rawValue & ~0x60 == AdvertisingEventType.scanResponseToAdvInd.rawValue }

    /// `"F0:F1:F2:F3:F4:F5 (random) ADV_IND -50 dBm \"nb-peer\" [6E400001-...]"`.
    public var description: String {
        var text = "\(address) (\(addressType)) \(eventType)"
        if let identity { text += " = \(identity)" }
        if let rssi { text += " \(rssi) dBm" }
        if let name { text += " \"\(name)\"" }
        if !data.serviceUUIDs.isEmpty { text += " [\(data.serviceUUIDs.map(\.description).joined(separator: ", "))]" }
        return text
    }
}

/// How to scan.
public struct ScanParameters: Sendable, Hashable {
    /// Send scan requests to get scan responses (often carrying the name). Default `true`.
    public var active: Bool
    /// Scan interval, 0.625 ms units (4...16384). Default 0x0060 (60 ms).
    public var interval: UInt16
    /// Scan window, 0.625 ms units (<= ``interval``). Default 0x0030 (30 ms).
    public var window: UInt16
    /// Ask the controller to filter duplicates. Default `false`: every report is delivered
    /// (RSSI and data changes stay visible).
    public var controllerFiltersDuplicates: Bool
    /// Only advertisers that list one of these service UUIDs are wanted (empty: every one). A
    /// hint for backends that filter below the program: BlueZ's discovery filter
    /// (`Adapter1.SetDiscoveryFilter` `UUIDs`, matched against the advertised UUID lists only,
    /// not against Service Data). The own host ignores it; callers filter anyway.
    public var serviceUUIDs: [BluetoothUUID]

    /// Creates scan parameters.
    public init(active: Bool = true, interval: UInt16 = 0x0060, window: UInt16 = 0x0030, controllerFiltersDuplicates: Bool = false,
                serviceUUIDs: [BluetoothUUID] = []) {
        self.active = active
        self.interval = interval
        self.window = window
        self.controllerFiltersDuplicates = controllerFiltersDuplicates
        self.serviceUUIDs = serviceUUIDs
    }

    var validationProblem: String? {
        guard (4...0x4000).contains(interval), (4...0x4000).contains(window), window <= interval else {
            return "scan window \(window) / interval \(interval) invalid (4...16384 in 0.625 ms units, window <= interval)"
        }
        return nil
    }
}
