/// A change among bluetoothd's objects, from its signals.
public enum BlueZChange: Sendable {
    /// `InterfacesAdded`: an object (or interfaces of one) appeared, with their properties.
    case added(path: String, interfaces: [String: [String: DBusValue]])
    /// `InterfacesRemoved`.
    case removed(path: String, interfaces: [String])
    /// `PropertiesChanged` of `interface` on `path`.
    case changed(path: String, interface: String, changed: [String: DBusValue], invalidated: [String])
    /// `Device1.Disconnected(reason, message)` (BlueZ 5.72 and newer).
    case disconnected(path: String, reason: String)
    /// bluetoothd left the bus (stopped, restarted, crashed) or the bus connection ended.
    case gone(String)
}
