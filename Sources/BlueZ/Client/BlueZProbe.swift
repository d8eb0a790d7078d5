import LowEnergy

/// What bluetoothd looks like from here, without changing anything: for choosing the default
/// backend and for `nearby doctor`.
public enum BlueZProbe: Sendable, Hashable {
    /// No system bus (`detail`: the connect error).
    case noBus(detail: String)
    /// libsystemd (sd-bus) is not installed, so bluetoothd cannot be asked (`detail`: which
    /// library, which package).
    case libraryMissing(detail: String)
    /// The bus is there but nobody owns `org.bluez`.
    case notRunning
    /// The bus policy refuses this user (`detail`: the error).
    case accessDenied(user: String, detail: String)
    /// bluetoothd answers: its adapters and version.
    case running(adapters: [Adapter], version: BlueZVersion?)
    /// Something else failed.
    case failed(detail: String)

    /// One of bluetoothd's adapters.
    public struct Adapter: Sendable, Hashable {
        /// `hci0`.
        public var name: String
        /// `Powered`.
        public var powered: Bool
        /// `PowerState` is `off-blocked` (rfkill).
        public var blocked: Bool
        /// Its address.
        public var address: String?
        /// It offers `LEAdvertisingManager1` and `GattManager1` (the accessory role).
        public var canServe: Bool

        /// Creates an adapter description.
        public init(name: String, powered: Bool, blocked: Bool, address: String?, canServe: Bool) {
            self.name = name
            self.powered = powered
            self.blocked = blocked
            self.address = address
            self.canServe = canServe
        }
    }

    /// Asks bluetoothd (GetManagedObjects) on `bus`.
    public static func probe(bus: DBusConnection.Bus = .system) async -> BlueZProbe {
        let dbus: DBusConnection
        do {
            dbus = try await DBusConnection.open(bus)
        } catch where error.name == DBusError.libraryMissing {
            return .libraryMissing(detail: error.message)
        } catch {
            return .noBus(detail: error.message)
        }
        defer { dbus.close() }
        let reply: [DBusValue]
        do {
            reply = try await dbus.call(BlueZName.service, "/", BlueZName.objectManager, "GetManagedObjects", timeout: .seconds(5))
        } catch {
            switch error.name {
            case DBusError.serviceUnknown, "org.freedesktop.DBus.Error.NameHasNoOwner": return .notRunning
            case DBusError.accessDenied: return .accessDenied(user: BlueZConnection.currentUser(), detail: error.message)
            default: return .failed(detail: error.description)
            }
        }
        let objects = BlueZConnection.parseManagedObjects(reply.first)
        var version: BlueZVersion?
        let adapters = objects.keys.sorted().compactMap { path -> Adapter? in
            guard let interfaces = objects[path], let properties = interfaces[BlueZName.adapter] else { return nil }
            version = version ?? properties["Modalias"]?.string.flatMap(BlueZVersion.init(modalias:))
            return Adapter(
                name: String(path.split(separator: "/").last ?? ""), powered: properties["Powered"]?.bool == true,
                blocked: properties["PowerState"]?.string == "off-blocked", address: properties["Address"]?.string,
                canServe: interfaces[BlueZName.gattManager] != nil && interfaces[BlueZName.advertisingManager] != nil)
        }
        return .running(adapters: adapters, version: version)
    }
}
