public import LowEnergy

/// One device in the picker: an advertiser that matched a display item, updated in place as
/// its reports arrive.
public struct AccessoryCandidate: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// Address and address type: what identifies a device in one scan.
    public struct Key: Sendable, Hashable, CustomStringConvertible {
        /// The advertiser's address.
        public var address: BluetoothAddress
        /// Its address type.
        public var addressType: BluetoothAddressType

        /// Creates a key.
        public init(address: BluetoothAddress, addressType: BluetoothAddressType) {
            self.address = address
            self.addressType = addressType
        }

        /// `"F0:F1:F2:F3:F4:F5 (random)"`.
        public var description: String { "\(address) (\(addressType))" }
    }

    /// Address and type.
    public var id: Key
    /// The display item the device matched (the latest report's match).
    public var displayItem: DisplayItem
    /// The local name it advertises, if any (kept when a later report carries no name).
    public var advertisedName: String?
    /// The latest report's RSSI, dBm.
    public var rssi: Int8?
    /// RSSI smoothed with an exponential moving average over the reports, dBm.
    public var smoothedRSSI: Double?
    /// `true` if its latest report was connectable.
    public var isConnectable: Bool
    /// When it was first and last heard (the reports' monotonic timestamps).
    public var firstSeen: ContinuousClock.Instant
    /// When it was last heard.
    public var lastSeen: ContinuousClock.Instant
    /// Reports received.
    public var reports: Int
    /// The latest matching report.
    public var advertisement: Advertisement

    /// The address.
    public var address: BluetoothAddress { id.address }
    /// The address type.
    public var addressType: BluetoothAddressType { id.addressType }
    /// The display item's name; for an item with an empty name, the advertised name (else the address).
    public var displayName: String {
        if !displayItem.name.isEmpty { return displayItem.name }
        return advertisedName ?? address.description
    }

    /// The RSSI to show: the smoothed value rounded, else the latest.
    public var displayRSSI: Int? {
        if let smoothedRSSI { return Int(smoothedRSSI.rounded()) }
        return rssi.map(Int.init)
    }

    /// `"Kitchen tag  \"nb-peer\"  -50 dBm  F0:F1:F2:F3:F4:F5 (random)"`.
    public var description: String {
        var text = displayName
        if let advertisedName, advertisedName != displayName { text += "  \"\(advertisedName)\"" }
        if let displayRSSI { text += "  \(displayRSSI) dBm" }
        text += "  \(id)"
        return text
    }
}
