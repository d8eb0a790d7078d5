import Logging
import LowEnergy
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The accessory role's GATT application and advertisement, exported on this program's D-Bus
/// connection for bluetoothd (doc/org.bluez.GattManager.rst, GattService.rst,
/// GattCharacteristic.rst, LEAdvertisement.rst):
///
/// ```
/// /org/nearby/gatt                   org.freedesktop.DBus.ObjectManager (GetManagedObjects)
/// /org/nearby/gatt/service0          org.bluez.GattService1 (UUID, Primary)
/// /org/nearby/gatt/service0/char0    org.bluez.GattCharacteristic1 (UUID, Service, Flags, NotifyAcquired)
/// /org/nearby/advertisement0         org.bluez.LEAdvertisement1 (Type, ServiceUUIDs, LocalName, ...)
/// ```
///
/// RX characteristics are written with `WriteValue` (its options name the phone's device
/// object and the MTU: the write is that phone's); TX characteristics offer `AcquireNotify`
/// (a socket: one write = one notification) and `StartNotify` + `Value` changes.
final class BlueZApplication: Sendable {
    static let root = "/org/nearby/gatt"
    static let advertisementPath = "/org/nearby/advertisement0"

    struct Characteristic: Sendable {
        enum Role: Sendable {
            case rx(DataChannelService)
            case tx(DataChannelService)
            case value([UInt8])
        }

        let path: String
        let servicePath: String
        let uuid: BluetoothUUID
        let flags: [String]
        let role: Role
    }

    struct Service: Sendable {
        let path: String
        let uuid: BluetoothUUID
    }

    private let services: [Service]
    private let characteristics: [Characteristic]
    private let configuration: PeripheralServices
    /// How long an answer to a phone that has not subscribed yet waits (``PeripheralServices/pendingAnswerLifetime``).
    var pendingAnswerLifetime: Duration { configuration.pendingAnswerLifetime }
    private let bluez: BlueZConnection
    private let logger: Logger
    private let route: @Sendable (String?) -> BlueZServerChannel?
    private let notifierSlot = NotifierSlot()

    /// The AcquireNotify socket's end this program writes notifications to.
    final class NotifierSlot: Sendable {
        let socket = Mutex<PacketSocket?>(nil)
    }
    private let startNotified = Mutex<Set<String>>([])

    /// Builds the objects for `configuration`; `route` finds the phone's channel from a call's
    /// `device` option (`nil` when BlueZ gives none).
    init(configuration: PeripheralServices, bluez: BlueZConnection, logger: Logger,
         route: @escaping @Sendable (String?) -> BlueZServerChannel?) {
        self.configuration = configuration
        self.bluez = bluez
        self.logger = logger
        self.route = route
        var services: [Service] = []
        var characteristics: [Characteristic] = []
        func add(_ uuid: BluetoothUUID, _ entries: [(BluetoothUUID, [String], Characteristic.Role)]) {
            let servicePath = "\(Self.root)/service\(services.count)"
            services.append(Service(path: servicePath, uuid: uuid))
            for (index, entry) in entries.enumerated() {
                characteristics.append(Characteristic(
                    path: "\(servicePath)/char\(index)", servicePath: servicePath, uuid: entry.0, flags: entry.1, role: entry.2))
            }
        }
        for channel in configuration.dataChannels {
            var entries: [(BluetoothUUID, [String], Characteristic.Role)] = [
                (channel.rx, ["write", "write-without-response"], .rx(channel)),
                (channel.tx, ["notify"], .tx(channel)),
            ]
            if channel.service == DataChannelService.qorvoNI.service {
                // Qorvo's SEC characteristic: reading it on an unencrypted link makes the phone pair.
                entries.insert((DataChannelServer.qorvoSecurityCharacteristic, ["encrypt-read"], .value(Array("Qorvo".utf8))), at: 0)
            }
            add(channel.service, entries)
        }
        if let data = configuration.appleConfigurationData {
            add(AppleNearbyInteractionService.service, [(AppleNearbyInteractionService.singleConfiguration, ["encrypt-read"], .value(data))])
        }
        self.services = services
        self.characteristics = characteristics
    }

    // MARK: Objects

    private func serviceProperties(_ service: Service) -> [String: DBusValue] {
        ["UUID": .string(BlueZName.uuid(service.uuid)), "Primary": .boolean(true)]
    }

    private func characteristicProperties(_ characteristic: Characteristic) -> [String: DBusValue] {
        var properties: [String: DBusValue] = [
            "UUID": .string(BlueZName.uuid(characteristic.uuid)),
            "Service": .objectPath(characteristic.servicePath),
            "Flags": .array(element: "s", characteristic.flags.map { .string($0) }),
        ]
        if case .tx = characteristic.role {
            // Its presence tells BlueZ that AcquireNotify is supported (doc/org.bluez.GattCharacteristic.rst).
            properties["NotifyAcquired"] = .boolean(notifierSlot.socket.withLock { $0 != nil })
        }
        return properties
    }

    private var managedObjects: DBusValue {
        var entries: [DBusDictionaryEntry] = []
        func interfaces(_ name: String, _ properties: [String: DBusValue]) -> DBusValue {
            .dictionary(key: "s", value: "a{sv}", [DBusDictionaryEntry(.string(name), .properties(properties))])
        }
        for service in services {
            entries.append(DBusDictionaryEntry(.objectPath(service.path), interfaces(BlueZName.gattService, serviceProperties(service))))
        }
        for characteristic in characteristics {
            entries.append(DBusDictionaryEntry(
                .objectPath(characteristic.path), interfaces(BlueZName.gattCharacteristic, characteristicProperties(characteristic))))
        }
        return .dictionary(key: "o", value: "a{sa{sv}}", entries)
    }

    var advertisementProperties: [String: DBusValue] {
        let interval = UInt32(max(20, min(10_485_000, configuration.advertisingIntervalMilliseconds.rounded())))
        return [
            "Type": .string("peripheral"),
            "ServiceUUIDs": .array(element: "s", [.string(BlueZName.uuid(configuration.dataChannels[0].service))]),
            "LocalName": .string(configuration.name),
            "Discoverable": .boolean(true),
            "MinInterval": .uint32(interval),
            "MaxInterval": .uint32(interval),
        ]
    }

    // MARK: Calls from bluetoothd

    /// Answers a call to the application or the advertisement.
    func handle(_ call: DBusIncomingCall) {
        let info = call.info
        if info.path == Self.advertisementPath {
            switch (info.interface, info.member) {
            case (BlueZName.properties, "GetAll"):
                return call.reply([.properties(advertisementProperties)])
            case (BlueZName.properties, "Get"):
                guard let name = info.arguments.dropFirst().first?.string, let value = advertisementProperties[name] else {
                    return call.fail("org.freedesktop.DBus.Error.InvalidArgs", "no such property")
                }
                return call.reply([.variant(value)])
            case (BlueZName.advertisement, "Release"):
                logger.info("BlueZ released the advertisement")
                return call.reply()
            default:
                return call.fail(DBusError.unknownMethod, "\(info.interface).\(info.member)")
            }
        }
        if info.path == Self.root {
            if info.interface == BlueZName.objectManager && info.member == "GetManagedObjects" {
                return call.reply([managedObjects])
            }
            return call.fail(DBusError.unknownMethod, "\(info.interface).\(info.member)")
        }
        if let service = services.first(where: { $0.path == info.path }) {
            return properties(call, interface: BlueZName.gattService, serviceProperties(service))
        }
        guard let characteristic = characteristics.first(where: { $0.path == info.path }) else {
            return call.fail(DBusError.unknownObject, "no object \(info.path)")
        }
        if info.interface == BlueZName.properties {
            return properties(call, interface: BlueZName.gattCharacteristic, characteristicProperties(characteristic))
        }
        guard info.interface == BlueZName.gattCharacteristic else {
            return call.fail(DBusError.unknownMethod, "\(info.interface).\(info.member)")
        }
        let options = info.arguments.last?.stringKeyed ?? [:]
        let device = options["device"]?.string
        let mtu = options["mtu"]?.integer
        switch (info.member, characteristic.role) {
        case ("ReadValue", .value(let value)):
            let offset = options["offset"]?.integer ?? 0
            guard offset <= value.count else { return call.fail("org.bluez.Error.InvalidOffset", "offset \(offset) past \(value.count) bytes") }
            call.reply([.bytes(Array(value[offset...]))])
        case ("WriteValue", .rx(let service)):
            let value = info.arguments.first?.byteArray ?? []
            guard let channel = route(device) else {
                logger.warning("a write to \(service.name) RX from \(device ?? "an unknown device") with no phone connected: refused")
                return call.fail("org.bluez.Error.NotPermitted", "no phone")
            }
            if channel.received(value, mtu: mtu) {
                logger.info("\(channel.peerAddress) wrote \(value.count) bytes to \(service.name) RX before subscribing to TX: the answer waits for its subscription")
            }
            call.reply()
        case ("AcquireNotify", .tx):
            acquireNotify(call, device: device, mtu: mtu)
        case ("StartNotify", .tx):
            startNotified.withLock { _ = $0.insert(characteristic.path) }
            call.reply()
            route(device)?.subscribed(true, mtu: mtu)
        case ("StopNotify", .tx):
            startNotified.withLock { _ = $0.remove(characteristic.path) }
            route(device)?.subscribed(false, mtu: nil)
            call.reply()
        case ("Confirm", .tx):
            call.reply()
        case ("ReadValue", _), ("WriteValue", _):
            call.fail("org.bluez.Error.NotPermitted", "\(info.member) is not permitted on \(characteristic.uuid)")
        default:
            call.fail("org.bluez.Error.NotSupported", "\(info.member) on \(characteristic.uuid)")
        }
    }

    private func properties(_ call: DBusIncomingCall, interface: String, _ properties: [String: DBusValue]) {
        let info = call.info
        switch info.member {
        case "GetAll":
            call.reply([.properties(info.arguments.first?.string == interface ? properties : [:])])
        case "Get":
            guard let name = info.arguments.dropFirst().first?.string, let value = properties[name] else {
                return call.fail("org.freedesktop.DBus.Error.InvalidArgs", "no such property")
            }
            call.reply([.variant(value)])
        default:
            call.fail(DBusError.unknownMethod, "\(info.interface).\(info.member)")
        }
    }

    /// A socket pair: BlueZ gets one end, notifications are written to the other
    /// (src/gatt-database.c `acquire_notify_reply`, `sock_io_read`).
    private func acquireNotify(_ call: DBusIncomingCall, device: String?, mtu: Int?) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            return call.fail("org.bluez.Error.Failed", "socketpair: \(String(cString: strerror(errno)))")
        }
        let socket = PacketSocket(fd: fds[0], name: "notifications to the phone")
        let previous = notifierSlot.socket.withLock { current -> PacketSocket? in
            defer { current = socket }
            return current
        }
        previous?.close()
        let channel = route(device)
        channel?.subscribed(true, mtu: mtu)
        let reported = UInt16(clamping: mtu ?? 23)
        // sd-bus duplicates BlueZ's end into the reply; this copy is closed then.
        call.reply([.unixFD(fds[1]), .uint16(reported)], thenClose: [fds[1]])
        let logger = logger
        let slot = notifierSlot
        Task {
            for await _ in socket.packets {}
            // BlueZ closed its end: notifications disabled (or the phone left).
            let current = slot.socket.withLock { current -> Bool in
                guard current === socket else { return false }
                current = nil
                return true
            }
            if current {
                logger.debug("BlueZ released the notification socket")
                channel?.subscribed(false, mtu: nil)
            }
        }
    }

    /// Sends `message` to the subscribed phone: through the AcquireNotify socket, else as a
    /// `Value` change of the TX characteristic (after StartNotify).
    func notify(_ message: [UInt8]) async throws(BluetoothError) {
        if let socket = notifierSlot.socket.withLock({ $0 }) {
            try await socket.send(message)
            return
        }
        let started = startNotified.withLock { $0 }
        guard let tx = characteristics.first(where: { started.contains($0.path) }) else {
            throw .notReady(detail: "no phone subscribed to the data channel's TX characteristic")
        }
        bluez.dbus.emit(path: tx.path, interface: BlueZName.properties, member: "PropertiesChanged", [
            .string(BlueZName.gattCharacteristic), .properties(["Value": .bytes(message)]), .array(element: "s", []),
        ])
    }

    /// Releases the notification socket.
    func stop() {
        notifierSlot.socket.withLock { $0 }?.close()
    }
}
