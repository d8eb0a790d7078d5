public import Logging
public import LowEnergy
import Synchronization

/// The accessory role through bluetoothd (`BLEPeripheral`): the NI data channels as
/// a GATT application (`GattManager1.RegisterApplication`), advertised with
/// `LEAdvertisingManager1.RegisterAdvertisement` (doc/org.bluez.GattManager.rst,
/// doc/org.bluez.LEAdvertisingManager.rst), one ``BlueZServerChannel`` per phone.
///
/// One phone at a time: BlueZ before 5.76 sends an external application's notifications to
/// every subscribed device alike (src/gatt-database.c `send_notification_to_devices`; per-device
/// sockets came in 5.69 and per-device notifications in 5.76), so a second phone would receive
/// the first one's NI messages. The advertisement is withdrawn while a phone is connected and
/// registered again when it leaves.
public final class BlueZPeripheral: BLEPeripheral {
    /// bluetoothd and the adapter.
    public let bluez: BlueZConnection
    private let logger: Logger

    private struct State {
        var application: BlueZApplication?
        var channels: [String: BlueZServerChannel] = [:]
        /// Device paths whose channel was handed out as a `PeripheralLink`.
        var announced: Set<String> = []
        var continuation: AsyncStream<PeripheralLink>.Continuation?
        var advertising = false
        var stopped = false
        var gone = false
        var watcher: Task<Void, Never>?
    }

    private let state = Mutex(State())

    init(bluez: BlueZConnection, logger: Logger) {
        self.bluez = bluez
        self.logger = logger
    }

    /// Connects to bluetoothd and its adapter `adapter` (`hci0`; `nil`: BlueZ's first).
    /// - Throws: `BluetoothError.bluez(_:)`.
    public static func open(adapter: String?, bus: DBusConnection.Bus = .system,
                            logger: Logger = Logger(label: "nearby.bluez")) async throws(BluetoothError) -> BlueZPeripheral {
        BlueZPeripheral(bluez: try await BlueZConnection.open(adapter: adapter, bus: bus, logger: logger), logger: logger)
    }

    public var backendName: String { bluez.backendName }

    /// One phone at a time (see the type's documentation).
    public var maximumConnections: Int { 1 }

    public var isClosed: Bool { state.withLock { $0.gone } }

    /// The adapter's address (what phones see unless BlueZ uses a private address).
    public func advertisedAddress() async -> BluetoothAddress? { bluez.adapterAddress }

    public func start(_ services: PeripheralServices) async throws(BluetoothError) -> AsyncStream<PeripheralLink> {
        guard !services.dataChannels.isEmpty else { throw .invalidArgument(detail: "no data-channel service to serve") }
        let adapter = bluez.adapterPath
        let version = bluez.version?.description
        guard bluez.properties(adapter, BlueZName.gattManager) != nil else {
            throw .bluez(.tooOld(feature: "GattManager1 (GATT server applications)", needed: "5.43", running: version))
        }
        guard bluez.properties(adapter, BlueZName.advertisingManager) != nil else {
            throw .bluez(.tooOld(feature: "LEAdvertisingManager1 (advertising)", needed: "5.43", running: version))
        }
        let application = BlueZApplication(configuration: services, bluez: bluez, logger: logger) { [weak self] device in
            self?.channel(for: device)
        }
        let (links, continuation) = AsyncStream<PeripheralLink>.makeStream(bufferingPolicy: .unbounded)
        state.withLock {
            $0.application = application
            $0.continuation = continuation
        }
        do {
            try await bluez.dbus.export(BlueZApplication.root) { call in application.handle(call) }
            try await bluez.dbus.export(BlueZApplication.advertisementPath) { call in application.handle(call) }
        } catch {
            throw .bluez(.failed(call: "exporting the GATT application", name: error.name, message: error.message))
        }
        watch()
        _ = try await bluez.call(adapter, BlueZName.gattManager, "RegisterApplication",
                                 [.objectPath(BlueZApplication.root), .properties([:])], timeout: .seconds(20),
                                 what: "GattManager1.RegisterApplication on \(bluez.adapterName)")
        try await advertise(true)
        logger.info("serving \(services.dataChannels.map(\.name).joined(separator: ", ")) through \(bluez.backendName); advertising \"\(services.name)\"")
        return links
    }

    private func advertise(_ on: Bool) async throws(BluetoothError) {
        let change = state.withLock { state -> Bool in
            guard state.advertising != on, !state.stopped || !on else { return false }
            state.advertising = on
            return true
        }
        guard change else { return }
        if on {
            do {
                _ = try await bluez.rawCall(bluez.adapterPath, BlueZName.advertisingManager, "RegisterAdvertisement",
                                            [.objectPath(BlueZApplication.advertisementPath), .properties([:])], timeout: .seconds(20))
                logger.debug("advertising")
            } catch {
                state.withLock { $0.advertising = false }
                throw BlueZConnection.map(error, call: "LEAdvertisingManager1.RegisterAdvertisement on \(bluez.adapterName)",
                                          bus: bluez.dbus.bus, adapter: bluez.adapterName)
            }
        } else {
            _ = try? await bluez.rawCall(bluez.adapterPath, BlueZName.advertisingManager, "UnregisterAdvertisement",
                                         [.objectPath(BlueZApplication.advertisementPath)], timeout: .seconds(10))
            logger.debug("advertising paused")
        }
    }

    /// Phones connecting and leaving: BlueZ's device objects under the adapter.
    private func watch() {
        let changes = bluez.changes()
        let prefix = bluez.adapterPath + "/dev_"
        let bluez = bluez
        let task = Task { [weak self] in
            // Phones connected before the watch began.
            for device in bluez.objects(with: BlueZName.device, under: bluez.adapterPath) where device.properties["Connected"]?.bool == true {
                await self?.connected(device.path)
            }
            for await change in changes {
                switch change {
                case .changed(let path, BlueZName.device, let properties, _) where path.hasPrefix(prefix):
                    if properties["Connected"]?.bool == true { await self?.connected(path) }
                    if properties["Connected"]?.bool == false { await self?.disconnected(path) }
                case .added(let path, let interfaces) where path.hasPrefix(prefix):
                    if interfaces[BlueZName.device]?["Connected"]?.bool == true { await self?.connected(path) }
                case .removed(let path, let interfaces) where interfaces.contains(BlueZName.device):
                    await self?.disconnected(path)
                case .gone(let detail):
                    self?.daemonGone(detail)
                    return
                default:
                    continue
                }
            }
        }
        state.withLock { $0.watcher = task }
    }

    /// The channel of the phone at `device` (the only one when BlueZ names none).
    ///
    /// bluetoothd signals `Connected` before it calls the application for that phone
    /// (`AcquireNotify` when it subscribes, `WriteValue`), but the signal is handled by the
    /// watcher task and the call on the D-Bus thread, so the call can come first. The channel is
    /// then made here, from the object cache (updated on the D-Bus thread in the messages'
    /// order, so it already says the phone is connected); the watcher hands it out. Without
    /// this, a subscription that came first was lost and the phone never got an answer (seen
    /// once in 7 runs through a real bluetoothd, `make test-bluez`).
    private func channel(for device: String?) -> BlueZServerChannel? {
        guard let device else {
            return state.withLock { $0.channels.count == 1 ? $0.channels.first?.value : nil }
        }
        if let channel = state.withLock({ $0.channels[device] }) { return channel }
        guard bluez.properties(device, BlueZName.device)?["Connected"]?.bool == true else { return nil }
        return makeChannel(device)
    }

    /// The phone's channel, made once per connection (by the watcher or by an early call).
    private func makeChannel(_ path: String) -> BlueZServerChannel? {
        guard let application = state.withLock({ $0.application }) else { return nil }
        let properties = bluez.properties(path, BlueZName.device) ?? [:]
        guard let address = properties["Address"]?.string.flatMap(BluetoothAddress.init) else { return nil }
        return state.withLock { state in
            if let existing = state.channels[path] { return existing }
            guard !state.stopped else { return nil }
            let channel = BlueZServerChannel(peerAddress: address, devicePath: path, application: application, bluez: bluez,
                                             pendingLifetime: application.pendingAnswerLifetime)
            state.channels[path] = channel
            return channel
        }
    }

    /// From the watcher: the phone's link is handed out once, in the order of the signals.
    private func connected(_ path: String) async {
        guard let channel = makeChannel(path) else { return }
        let first = state.withLock { state -> Bool in
            guard state.channels[path] === channel else { return false }
            return state.announced.insert(path).inserted
        }
        guard first else { return }
        logger.info("\(channel.peerAddress) connected (\(bluez.backendName))")
        try? await advertise(false)
        state.withLock { $0.continuation }?.yield(PeripheralLink(channel: channel, peer: channel.peerAddress.description))
    }

    private func disconnected(_ path: String) async {
        let channel = state.withLock { state -> BlueZServerChannel? in
            state.announced.remove(path)
            return state.channels.removeValue(forKey: path)
        }
        guard let channel else { return }
        logger.info("\(channel.peerAddress) disconnected")
        channel.linkEnded(reason: .unspecifiedError)
        let idle = state.withLock { $0.channels.isEmpty && !$0.stopped }
        if idle {
            do {
                try await advertise(true)
            } catch {
                logger.warning("advertising again failed: \(error)")
            }
        }
    }

    private func daemonGone(_ detail: String) {
        let (channels, continuation) = state.withLock { state in
            state.gone = true
            defer {
                state.channels.removeAll()
                state.announced.removeAll()
            }
            return (Array(state.channels.values), state.continuation)
        }
        logger.error("\(BlueZError.daemonGone(detail: detail))")
        for channel in channels { channel.linkEnded(reason: .unspecifiedError) }
        continuation?.finish()
    }

    public func stop() async {
        let (application, continuation) = state.withLock { state in
            state.stopped = true
            return (state.application, state.continuation)
        }
        continuation?.finish()
        try? await advertise(false)
        _ = try? await bluez.rawCall(bluez.adapterPath, BlueZName.gattManager, "UnregisterApplication",
                                     [.objectPath(BlueZApplication.root)], timeout: .seconds(10))
        application?.stop()
    }

    public func close() async {
        await stop()
        let channels = state.withLock { state in
            state.watcher?.cancel()
            return Array(state.channels.values)
        }
        for channel in channels { await channel.close() }
        bluez.close()
    }
}
