import LowEnergy

/// BlueZ's D-Bus names (doc/org.bluez.*.rst).
enum BlueZName {
    static let service = "org.bluez"
    static let root = "/org/bluez"
    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let gattService = "org.bluez.GattService1"
    static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    static let gattManager = "org.bluez.GattManager1"
    static let advertisingManager = "org.bluez.LEAdvertisingManager1"
    static let advertisement = "org.bluez.LEAdvertisement1"
    static let agentManager = "org.bluez.AgentManager1"
    static let agent = "org.bluez.Agent1"
    static let properties = "org.freedesktop.DBus.Properties"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let introspectable = "org.freedesktop.DBus.Introspectable"

    /// The device object of `address` under `adapter`: `/org/bluez/hci0/dev_F0_F1_F2_F3_F4_F5`.
    static func devicePath(adapter: String, address: BluetoothAddress) -> String {
        adapter + "/dev_" + address.description.split(separator: ":").joined(separator: "_")
    }

    /// A UUID as BlueZ writes it: 128 bits, lower case (`6e400001-b5a3-f393-e0a9-e50e24dcca9e`).
    static func uuid(_ uuid: BluetoothUUID) -> String { uuid.uuidString.lowercased() }
}
