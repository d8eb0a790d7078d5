public import NearbyConfig
import LowEnergy
import Simulation

extension TransportValidators {
    /// The real spec parsers: `BluetoothBackendSpec` (`bluez[:hciN]`, `auto`, HCI transports)
    /// for `transports.hci`, `UWBDeviceTarget` (dev kits and `sim`) for `transports.uwb`; each
    /// returns the parser's error message.
    public static let specs = TransportValidators(
        hci: { spec in
            if spec.lowercased() == "auto" { return nil }
            do {
                _ = try BluetoothBackendSpec(parsing: spec)
                return nil
            } catch {
                return "\(error)"
            }
        },
        uwb: { spec in
            do {
                _ = try UWBDeviceTarget(parsing: spec)
                return nil
            } catch {
                return "\(error)"
            }
        })
}
