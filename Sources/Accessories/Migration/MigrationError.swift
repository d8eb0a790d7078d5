public import LowEnergy
public import NearbySupport

/// Migrating an accessory failed; ``description`` says what to do.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bond directory (or a file in it) is not readable by this user: BlueZ keeps it root-only.
    case permissionDenied(path: String)
    /// There is no bond directory at `root` (BlueZ not installed, or never ran).
    case noBondDirectory(root: String)
    /// Reading the bond directory failed otherwise.
    case readFailed(FileSystemError)
    /// BlueZ does not know `address` (`known` lists the LE devices it knows).
    case notKnown(address: BluetoothAddress, root: String, known: [String])
    /// A known device is not an LE device (BR/EDR only): nearby's host cannot reach it.
    case notLowEnergy(KnownDevice)
    /// The store failed.
    case store(AccessoryStoreError)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .permissionDenied(let path):
            return "cannot read \(path): permission denied (BlueZ keeps its bond directory readable by root only). "
                + "Either give the address instead: `bluetoothctl devices` lists what BlueZ knows, then "
                + "`nearby accessories migrate --address AA:BB:CC:DD:EE:FF [--random] --name NAME`; or run the "
                + "migration with sudo and --store pointing at your store (then `sudo chown $USER` the store file)"
        case .noBondDirectory(let root):
            return "there is no BlueZ bond directory at \(root) (is BlueZ installed and has it run?); "
                + "migrate by address instead: nearby accessories migrate --address AA:BB:CC:DD:EE:FF"
        case .readFailed(let error):
            return "cannot read the BlueZ bond directory: \(error)"
        case .notKnown(let address, let root, let known):
            return "BlueZ (\(root)) does not know \(address); it knows " + (known.isEmpty ? "no LE device" : known.joined(separator: "; "))
        case .notLowEnergy(let device):
            return "\(device.address) is a BR/EDR (classic) device; nearby's BLE host can only use LE accessories"
        case .store(let error):
            return error.description
        }
    }
}
