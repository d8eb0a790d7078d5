/// Why the BlueZ backend (bluetoothd over D-Bus) cannot do something, with the fix
/// (``description``). Carried in ``BluetoothError/bluez(_:)``.
public enum BlueZError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system bus cannot be reached at all (`detail` has the socket error).
    case noSystemBus(bus: String, detail: String)
    /// libsystemd (sd-bus, the D-Bus client the backend uses) is not installed: `detail` says
    /// which library is missing and which package has it.
    case libraryMissing(detail: String)
    /// Nobody owns `org.bluez` on the bus: bluetoothd is not running.
    case notRunning(bus: String)
    /// The D-Bus policy does not let this user make `call` (`org.freedesktop.DBus.Error.AccessDenied`).
    case accessDenied(call: String, user: String, detail: String)
    /// BlueZ has no adapter (`requested`: the one asked for, `nil`: any); `available` lists
    /// those it has.
    case noAdapter(requested: String?, available: [String])
    /// The adapter is powered off (`blocked`: rfkill blocks it).
    case poweredOff(adapter: String, blocked: Bool)
    /// This bluetoothd lacks `feature` (`needed`: the BlueZ version that has it; `running`:
    /// the version it reports, if known).
    case tooOld(feature: String, needed: String, running: String?)
    /// Another program holds the accessory's data channel through BlueZ (it acquired or
    /// subscribed to `characteristic`): two programs cannot share one data channel.
    case inUseElsewhere(device: BluetoothAddress, characteristic: String, detail: String)
    /// bluetoothd answered `call` with an error (`name`: `org.bluez.Error.Failed`, ...).
    case failed(call: String, name: String, message: String)
    /// bluetoothd went away while in use (stopped, restarted, crashed).
    case daemonGone(detail: String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .noSystemBus(let bus, let detail):
            return "cannot reach D-Bus at \(bus) (\(detail)): BlueZ is reached over the system bus. Start it "
                + "(`sudo systemctl start dbus`; in a container bind-mount /run/dbus/system_bus_socket), or use this "
                + "program's own host: --hci hci:N (HCI user channel), tcp:HOST:PORT or serial:PATH"
        case .libraryMissing(let detail):
            return "\(detail); or use this program's own host: --hci hci:N, tcp:HOST:PORT or serial:PATH"
        case .notRunning(let bus):
            return "bluetoothd is not running (nobody owns org.bluez on \(bus)): start it with `sudo systemctl start bluetooth`, "
                + "or use this program's own host: --hci hci:N (needs the adapter powered off in BlueZ), tcp:HOST:PORT or serial:PATH"
        case .accessDenied(let call, let user, let detail):
            return "the system bus's policy does not let \(user) call bluetoothd (\(call): \(detail)). BlueZ's policy file "
                + "(/usr/share/dbus-1/system.d/bluetooth.conf, or a local file in /etc/dbus-1/system.d/) decides who may "
                + "send to org.bluez: add \(user) to the group it allows (`sudo usermod -aG bluetooth \(user)`, then log in "
                + "again), or add <policy user=\"\(user)\"><allow send_destination=\"org.bluez\"/></policy> there "
                + "(no polkit rule is involved: bluetoothd checks nothing beyond the bus policy)"
        case .noAdapter(let requested, let available):
            if let requested {
                return available.isEmpty
                    ? "BlueZ has no adapter \(requested) (it has none): plug one in; `bluetoothctl list` shows what BlueZ sees"
                    : "BlueZ has no adapter \(requested); it has \(available.joined(separator: ", ")): use --hci bluez:\(available[0])"
            }
            return "BlueZ has no Bluetooth adapter: plug one in (`bluetoothctl list` shows what BlueZ sees; `rfkill list` "
                + "whether one is blocked)"
        case .poweredOff(let adapter, let blocked):
            return blocked
                ? "the adapter \(adapter) is blocked by rfkill: `rfkill unblock bluetooth`, then `bluetoothctl power on`"
                : "the adapter \(adapter) is powered off in BlueZ: `bluetoothctl power on` (if this program's own host "
                    + "is meant to own it instead, use --hci hci:N)"
        case .tooOld(let feature, let needed, let running):
            return "this bluetoothd\(running.map { " (BlueZ \($0))" } ?? "") has no \(feature): it needs BlueZ \(needed) or "
                + "newer. Upgrade BlueZ, or use this program's own host (--hci hci:N with the adapter powered off in BlueZ)"
        case .inUseElsewhere(let device, let characteristic, let detail):
            return "another program already uses \(device)'s data channel through BlueZ (\(characteristic): \(detail)): "
                + "close it (a Home Assistant integration, bluetoothctl's gatt menu, another nearby) or disconnect it "
                + "(`bluetoothctl disconnect \(device)`), then try again"
        case .failed(let call, let name, let message):
            return "bluetoothd refused \(call): \(name)\(message.isEmpty ? "" : " (\(message))")"
        case .daemonGone(let detail):
            return "bluetoothd went away (\(detail)): check `systemctl status bluetooth`; run again once it is back"
        }
    }
}
