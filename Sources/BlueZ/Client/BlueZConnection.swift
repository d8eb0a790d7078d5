#if canImport(Glibc)
import Glibc
#endif
import Foundation
public import Logging
public import LowEnergy
import NearbySupport
import Synchronization

/// One D-Bus connection to bluetoothd and one of its adapters: bluetoothd's objects, kept
/// current by its `InterfacesAdded` / `InterfacesRemoved` / `PropertiesChanged` signals (as
/// Bleak's BlueZ manager does), calls with errors mapped to `BlueZError`.
public final class BlueZConnection: Sendable {
    /// The D-Bus connection.
    public let dbus: DBusConnection
    /// The adapter's object path (`/org/bluez/hci0`).
    public let adapterPath: String
    /// The adapter's name (`hci0`).
    public let adapterName: String
    /// The adapter's address (BlueZ's `Address`).
    public let adapterAddress: BluetoothAddress?
    /// The BlueZ version from the adapter's default Device ID (`Modalias` `usb:v1D6Bp0246dVVVV`:
    /// major and minor of bluetoothd), `nil` when main.conf sets another DeviceID.
    public let version: BlueZVersion?
    let logger: Logger
    private let cache: ObjectCache
    private let broadcaster = Broadcaster<BlueZChange>(bufferingNewest: 8192)

    /// bluetoothd's objects: path → interface → property → value.
    final class ObjectCache: Sendable {
        let objects = Mutex<[String: [String: [String: DBusValue]]]>([:])
    }

    private init(dbus: DBusConnection, adapterPath: String, cache: ObjectCache,
                 adapterAddress: BluetoothAddress?, version: BlueZVersion?, logger: Logger) {
        self.dbus = dbus
        self.adapterPath = adapterPath
        self.adapterName = String(adapterPath.split(separator: "/").last ?? "")
        self.adapterAddress = adapterAddress
        self.version = version
        self.cache = cache
        self.logger = logger
    }

    /// The backend's name for messages: `bluez (hci0)`.
    public var backendName: String { "bluez (\(adapterName))" }

    /// Connects to bluetoothd on `bus` and picks `adapter` (`hci0`; `nil`: the first BlueZ lists).
    /// - Parameters:
    ///   - adapter: the adapter's name (`hci0`); `nil`: the first one BlueZ lists.
    ///   - bus: the D-Bus bus bluetoothd is on (the system bus).
    ///   - requirePowered: fail with `BlueZError.poweredOff(adapter:blocked:)` when the adapter
    ///     is off.
    ///   - logger: where the connection logs.
    /// - Throws: `BluetoothError.bluez(_:)`: no system bus, bluetoothd not running,
    ///   access denied by the bus policy, no such adapter, adapter powered off.
    public static func open(adapter: String?, bus: DBusConnection.Bus = .system, requirePowered: Bool = true,
                            logger: Logger = Logger(label: "nearby.bluez")) async throws(BluetoothError) -> BlueZConnection {
        let dbus: DBusConnection
        do {
            dbus = try await DBusConnection.open(bus)
        } catch where error.name == DBusError.libraryMissing {
            throw .bluez(.libraryMissing(detail: error.message))
        } catch {
            throw .bluez(.noSystemBus(bus: "\(bus)", detail: error.message))
        }
        let cache = ObjectCache()
        let box = ConnectionBox()
        do throws(DBusError) {
            try await subscribe(dbus, cache: cache, box: box)
        } catch {
            dbus.close()
            throw map(error, call: "AddMatch", bus: bus)
        }
        let reply: [DBusValue]
        do throws(DBusError) {
            reply = try await dbus.call(BlueZName.service, "/", BlueZName.objectManager, "GetManagedObjects", timeout: .seconds(10))
        } catch {
            dbus.close()
            throw map(error, call: "GetManagedObjects on org.bluez", bus: bus)
        }
        let snapshot = parseManagedObjects(reply.first)
        cache.objects.withLock { current in
            for (path, interfaces) in snapshot { current[path, default: [:]].merge(interfaces) { _, new in new } }
        }
        let adapters = snapshot.filter { $0.value[BlueZName.adapter] != nil }.keys.sorted()
        let names = adapters.map { String($0.split(separator: "/").last ?? "") }
        let chosen: String
        if let adapter {
            guard let path = adapters.first(where: { $0.hasSuffix("/" + adapter) }) else {
                dbus.close()
                throw .bluez(.noAdapter(requested: adapter, available: names))
            }
            chosen = path
        } else {
            guard let first = adapters.first else {
                dbus.close()
                throw .bluez(.noAdapter(requested: nil, available: []))
            }
            chosen = first
        }
        let properties = snapshot[chosen]?[BlueZName.adapter] ?? [:]
        let name = String(chosen.split(separator: "/").last ?? "")
        if requirePowered, properties["Powered"]?.bool != true {
            dbus.close()
            throw .bluez(.poweredOff(adapter: name, blocked: properties["PowerState"]?.string == "off-blocked"))
        }
        let connection = BlueZConnection(
            dbus: dbus, adapterPath: chosen, cache: cache,
            adapterAddress: properties["Address"]?.string.flatMap(BluetoothAddress.init),
            version: properties["Modalias"]?.string.flatMap(BlueZVersion.init(modalias:)), logger: logger)
        box.connection.withLock { $0 = connection }
        dbus.onClose { [weak connection] error in connection?.broadcaster.yield(BlueZChange.gone(error.message)) }
        logger.debug("BlueZ\(connection.version.map { " \($0)" } ?? ""): adapter \(name) (\(connection.adapterAddress?.description ?? "?")) on \(bus)")
        return connection
    }

    /// Lets signal handlers installed before the connection object exists reach it.
    final class ConnectionBox: Sendable {
        let connection = Mutex<BlueZConnection?>(nil)
    }

    private static func subscribe(_ dbus: DBusConnection, cache: ObjectCache, box: ConnectionBox) async throws(DBusError) {
        let objects = cache
        let handler: @Sendable (DBusMessageInfo) -> Void = { message in
            let change: BlueZChange?
            switch (message.interface, message.member) {
            case (BlueZName.objectManager, "InterfacesAdded"):
                guard let path = message.arguments.first?.string else { return }
                let interfaces = parseInterfaces(message.arguments.dropFirst().first)
                objects.objects.withLock { $0[path, default: [:]].merge(interfaces) { _, new in new } }
                change = .added(path: path, interfaces: interfaces)
            case (BlueZName.objectManager, "InterfacesRemoved"):
                guard let path = message.arguments.first?.string else { return }
                let removed = message.arguments.dropFirst().first?.strings ?? []
                objects.objects.withLock { current in
                    for interface in removed { current[path]?[interface] = nil }
                    if current[path]?.isEmpty ?? false { current[path] = nil }
                }
                change = .removed(path: path, interfaces: removed)
            case (BlueZName.properties, "PropertiesChanged"):
                guard let interface = message.arguments.first?.string else { return }
                let changed = message.arguments.dropFirst().first?.stringKeyed ?? [:]
                let invalidated = message.arguments.dropFirst(2).first?.strings ?? []
                objects.objects.withLock { current in
                    guard current[message.path]?[interface] != nil || !changed.isEmpty else { return }
                    for (key, value) in changed { current[message.path, default: [:]][interface, default: [:]][key] = value.unwrapped }
                    for key in invalidated { current[message.path]?[interface]?[key] = nil }
                }
                change = .changed(path: message.path, interface: interface, changed: changed.mapValues(\.unwrapped), invalidated: invalidated)
            case (BlueZName.device, "Disconnected"):
                change = .disconnected(path: message.path, reason: message.arguments.first?.string ?? "")
            case ("org.freedesktop.DBus", "NameOwnerChanged"):
                guard message.arguments.count >= 3, message.arguments[2].string?.isEmpty == true else { return }
                change = .gone("bluetoothd left the bus")
            default:
                change = nil
            }
            if let change, let connection = box.connection.withLock({ $0 }) {
                connection.broadcaster.yield(change)
            }
        }
        try await dbus.subscribe("type='signal',sender='org.bluez',interface='org.freedesktop.DBus.ObjectManager'", handler: handler)
        try await dbus.subscribe("type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'", handler: handler)
        try await dbus.subscribe("type='signal',sender='org.bluez',interface='org.bluez.Device1',member='Disconnected'", handler: handler)
        try await dbus.subscribe(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.bluez'",
            handler: handler)
    }

    static func parseInterfaces(_ value: DBusValue?) -> [String: [String: DBusValue]] {
        var result: [String: [String: DBusValue]] = [:]
        for (interface, properties) in value?.stringKeyed ?? [:] {
            result[interface] = (properties.stringKeyed ?? [:]).mapValues(\.unwrapped)
        }
        return result
    }

    static func parseManagedObjects(_ value: DBusValue?) -> [String: [String: [String: DBusValue]]] {
        var result: [String: [String: [String: DBusValue]]] = [:]
        for entry in value?.entries ?? [] {
            guard let path = entry.key.string else { continue }
            result[path] = parseInterfaces(entry.value)
        }
        return result
    }

    // MARK: Objects

    /// The properties of `interface` on `path`, as last reported.
    public func properties(_ path: String, _ interface: String) -> [String: DBusValue]? {
        cache.objects.withLock { $0[path]?[interface] }
    }

    /// Every object below `prefix` with `interface`, with its properties, by path.
    public func objects(with interface: String, under prefix: String) -> [(path: String, properties: [String: DBusValue])] {
        cache.objects.withLock { current in
            current.compactMap { path, interfaces in
                guard path.hasPrefix(prefix + "/"), let properties = interfaces[interface] else { return nil }
                return (path, properties)
            }.sorted { $0.path < $1.path }
        }
    }

    /// Changes from now on.
    public func changes() -> AsyncStream<BlueZChange> { broadcaster.subscribe() }

    /// Waits until `condition` holds (checked now and after every change), at most `timeout`.
    /// - Returns: `false` on timeout or when bluetoothd goes away.
    public func wait(timeout: Duration, until condition: @escaping @Sendable () -> Bool) async -> Bool {
        let changes = changes()
        if condition() { return true }
        let result = try? await withTimeout(timeout, operation: "waiting for BlueZ") {
            for await change in changes {
                if case .gone = change { return false }
                if condition() { return true }
            }
            return false
        }
        return result ?? false
    }

    // MARK: Calls

    /// Calls bluetoothd.
    /// - Parameters:
    ///   - path: the object path (`/org/bluez/hci0/dev_F0_F1_F2_F3_F4_F5`).
    ///   - interface: the interface (`org.bluez.Device1`).
    ///   - member: the method (`Connect`).
    ///   - arguments: the method's arguments.
    ///   - timeout: how long to wait for the reply.
    ///   - what: what is being done, for messages (`Device1.Connect on F0:...`).
    /// - Throws: `BluetoothError` (`BlueZError` mapped from the error reply).
    public func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
                     timeout: Duration = .seconds(25), what: String? = nil) async throws(BluetoothError) -> [DBusValue] {
        do {
            return try await dbus.call(BlueZName.service, path, interface, member, arguments, timeout: timeout)
        } catch {
            throw Self.map(error, call: what ?? "\(interface).\(member)", bus: dbus.bus, adapter: adapterName, timeout: timeout)
        }
    }

    /// Calls bluetoothd, keeping the D-Bus error (callers that handle particular names).
    public func rawCall(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
                        timeout: Duration = .seconds(25)) async throws(DBusError) -> [DBusValue] {
        try await dbus.call(BlueZName.service, path, interface, member, arguments, timeout: timeout)
    }

    /// The typed error for a failed call.
    static func map(_ error: DBusError, call: String, bus: DBusConnection.Bus, adapter: String? = nil,
                    timeout: Duration? = nil) -> BluetoothError {
        switch error.name {
        case DBusError.accessDenied:
            return .bluez(.accessDenied(call: call, user: currentUser(), detail: error.message))
        case DBusError.serviceUnknown, "org.freedesktop.DBus.Error.NameHasNoOwner":
            return .bluez(.notRunning(bus: "\(bus)"))
        case DBusError.noReply, DBusError.timeout:
            if error.message.contains("terminated") || error.message.contains("disconnected") {
                return .bluez(.daemonGone(detail: error.message))
            }
            return .timeout(operation: call, timeout: timeout ?? .seconds(25), hint: "bluetoothd did not answer")
        case DBusError.closed:
            return .bluez(.daemonGone(detail: error.message))
        case "org.bluez.Error.NotReady":
            return .bluez(.poweredOff(adapter: adapter ?? "the adapter", blocked: false))
        case DBusError.local:
            return .bluez(.noSystemBus(bus: "\(bus)", detail: error.message))
        default:
            return .bluez(.failed(call: call, name: error.name, message: error.message))
        }
    }

    static func currentUser() -> String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return "uid \(geteuid())"
    }

    /// Closes the D-Bus connection (bluetoothd drops this program's agent, discovery session,
    /// GATT applications and advertisements when it leaves the bus).
    public func close() {
        dbus.close()
    }
}

/// A BlueZ version, `major.minor`.
public struct BlueZVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version (5).
    public var major: Int
    /// The minor version (66).
    public var minor: Int

    /// Creates a version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// From BlueZ's default Device ID modalias (`usb:v1D6Bp0246d0542`: Linux Foundation, BlueZ,
    /// version 0x0542 = 5.66; bluetoothd's main.c sets it when main.conf has no DeviceID).
    public init?(modalias: String) {
        let lowered = modalias.lowercased()
        guard let range = lowered.range(of: "v1d6bp0246d") else { return nil }
        let digits = lowered[range.upperBound...].prefix(4)
        guard digits.count == 4, let value = Int(digits, radix: 16) else { return nil }
        self.init(major: value >> 8, minor: value & 0xFF)
    }

    public static func < (lhs: BlueZVersion, rhs: BlueZVersion) -> Bool { (lhs.major, lhs.minor) < (rhs.major, rhs.minor) }

    /// `5.66`.
    public var description: String { "\(major).\(minor)" }
}
