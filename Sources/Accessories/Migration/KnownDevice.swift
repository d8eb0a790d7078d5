public import LowEnergy

/// A device the system already knows (BlueZ's bond directory), a migration candidate.
public struct KnownDevice: Sendable, Hashable, CustomStringConvertible {
    /// The adapter that knows it (the directory name under the bond root).
    public var adapter: BluetoothAddress
    /// The device's address (its directory name).
    public var address: BluetoothAddress
    /// `public` or `random` (BlueZ's `AddressType=public` / `static`; `public` when absent).
    public var addressType: BluetoothAddressType
    /// BlueZ's `[General] Name=` (the name it last saw), if any.
    public var name: String?
    /// `true` if `SupportedTechnologies` lists `LE` (or an LE `AddressType` is given).
    public var supportsLE: Bool
    /// `bonded` if a long-term key section is present (`[LongTermKey]`, `[PeripheralLongTermKey]`,
    /// `[SlaveLongTermKey]`), else `none`.
    public var bonding: BondingState
    /// The keys from BlueZ's info file, if it has long-term keys (imported with the record).
    public var bond: Bond?

    /// Creates a device description.
    public init(adapter: BluetoothAddress, address: BluetoothAddress, addressType: BluetoothAddressType, name: String?,
                supportsLE: Bool, bonding: BondingState, bond: Bond? = nil) {
        self.adapter = adapter
        self.address = address
        self.addressType = addressType
        self.name = name
        self.supportsLE = supportsLE
        self.bonding = bonding
        self.bond = bond
    }

    /// `"F0:F1:F2:F3:F4:F5 (random) \"Tag\" bonded, via hci C0:11:22:33:44:55"`.
    public var description: String {
        var text = "\(address) (\(addressType))"
        if let name { text += " \"\(name)\"" }
        text += " \(bonding == .bonded ? "bonded" : "not bonded")"
        if let bond { text += " (keys: \(bond.secureConnections ? "Secure Connections" : "legacy")\(bond.peerIRK != nil ? ", IRK" : ""))" }
        if !supportsLE { text += ", BR/EDR only" }
        return text
    }
}
