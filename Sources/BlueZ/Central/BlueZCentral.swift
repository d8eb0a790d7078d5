public import Logging
public import LowEnergy
import NearbySupport

/// The central role through bluetoothd (`BLECentral`): discovery with
/// `Adapter1.SetDiscoveryFilter` + `StartDiscovery` (doc/org.bluez.Adapter.rst), devices from
/// `Device1` objects, data channels over `GattCharacteristic1.AcquireWrite` / `AcquireNotify`,
/// pairing with `Device1.Pair` and this program's agent.
///
/// ```swift
/// let central = try await BlueZCentral.open(adapter: nil, security: context)
/// for await advertisement in try await central.scan() { ... }
/// let channel = try await central.openDataChannel(to: address, type: .random, timeout: .seconds(10), services: DataChannelService.known)
/// ```
public actor BlueZCentral: BLECentral {
    /// bluetoothd and the adapter.
    public nonisolated let bluez: BlueZConnection
    /// Pairing policy and prompts (the agent's capability and answers).
    public nonisolated let security: SecurityContext
    let logger: Logger

    private var scanContinuations: [UInt64: AsyncStream<Advertisement>.Continuation] = [:]
    private var holds: [UInt64: [BluetoothUUID]] = [:]
    private var nextID: UInt64 = 0
    private var discovering = false
    private var activeFilter: [BluetoothUUID]?
    private var forwarder: Task<Void, Never>?
    private var agent: BlueZAgent?
    private var closed = false

    init(bluez: BlueZConnection, security: SecurityContext, logger: Logger) {
        self.bluez = bluez
        self.security = security
        self.logger = logger
    }

    /// Connects to bluetoothd and its adapter `adapter` (`hci0`; `nil`: BlueZ's first).
    /// - Throws: `BluetoothError.bluez(_:)` (bluetoothd not running, no adapter,
    ///   powered off, not allowed by the bus policy, ...).
    public static func open(adapter: String?, bus: DBusConnection.Bus = .system, security: SecurityContext = SecurityContext(),
                            logger: Logger = Logger(label: "nearby.bluez")) async throws(BluetoothError) -> BlueZCentral {
        let bluez = try await BlueZConnection.open(adapter: adapter, bus: bus, logger: logger)
        return BlueZCentral(bluez: bluez, security: security, logger: logger)
    }

    public nonisolated var backendName: String { bluez.backendName }

    // MARK: Discovery

    public func scan(_ parameters: ScanParameters) async throws(BluetoothError) -> AsyncStream<Advertisement> {
        let id = try await holdDiscovery(serviceUUIDs: parameters.serviceUUIDs)
        let (stream, continuation) = AsyncStream<Advertisement>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        continuation.onTermination = { [weak self] _ in
            Task { await self?.scannerEnded(id) }
        }
        scanContinuations[id] = continuation
        return stream
    }

    public func stopScanning() async {
        let continuations = scanContinuations
        scanContinuations.removeAll()
        for (id, continuation) in continuations {
            holds[id] = nil
            continuation.finish()
        }
        await updateDiscovery()
    }

    private func scannerEnded(_ id: UInt64) async {
        guard scanContinuations.removeValue(forKey: id) != nil else { return }
        await releaseDiscovery(id)
    }

    /// Keeps discovery running (for a scan, or to find a device BlueZ has not seen) until
    /// ``releaseDiscovery(_:)``.
    func holdDiscovery(serviceUUIDs: [BluetoothUUID]) async throws(BluetoothError) -> UInt64 {
        guard !closed else { throw .notReady(detail: "the BlueZ central is closed") }
        let id = nextID
        nextID += 1
        holds[id] = serviceUUIDs
        do {
            try await applyDiscovery()
        } catch {
            holds[id] = nil
            throw error
        }
        return id
    }

    /// Ends a hold of ``holdDiscovery(serviceUUIDs:)``; discovery stops with the last one.
    func releaseDiscovery(_ id: UInt64) async {
        holds[id] = nil
        await updateDiscovery()
    }

    private func updateDiscovery() async {
        do {
            try await applyDiscovery()
        } catch {
            logger.warning("\(error)")
        }
    }

    /// Sets the filter every hold needs (the union of their UUIDs; empty if any wants all) and
    /// starts or stops discovery.
    private func applyDiscovery() async throws(BluetoothError) {
        if holds.isEmpty {
            guard discovering else { return }
            discovering = false
            activeFilter = nil
            forwarder?.cancel()
            forwarder = nil
            do {
                _ = try await bluez.rawCall(bluez.adapterPath, BlueZName.adapter, "StopDiscovery", timeout: .seconds(10))
            } catch {
                logger.debug("StopDiscovery: \(error)")
            }
            logger.debug("discovery stopped")
            return
        }
        let wanted: [BluetoothUUID] = holds.values.contains { $0.isEmpty } ? [] : Array(Set(holds.values.flatMap { $0 })).sorted()
        if activeFilter != wanted {
            // LE only, every advertisement reported (no duplicate filtering: RSSI and data changes
            // stay visible), the UUIDs a scan asked for; doc/org.bluez.Adapter.rst SetDiscoveryFilter.
            var filter: [String: DBusValue] = ["Transport": .string("le"), "DuplicateData": .boolean(true)]
            if !wanted.isEmpty { filter["UUIDs"] = .array(element: "s", wanted.map { .string(BlueZName.uuid($0)) }) }
            _ = try await bluez.call(bluez.adapterPath, BlueZName.adapter, "SetDiscoveryFilter", [.properties(filter)],
                                     timeout: .seconds(10), what: "Adapter1.SetDiscoveryFilter on \(bluez.adapterName)")
            activeFilter = wanted
        }
        guard !discovering else { return }
        if forwarder == nil { startForwarding() }
        do {
            _ = try await bluez.rawCall(bluez.adapterPath, BlueZName.adapter, "StartDiscovery", timeout: .seconds(10))
        } catch where error.name == "org.bluez.Error.InProgress" {
            // This connection's discovery session runs already.
        } catch {
            forwarder?.cancel()
            forwarder = nil
            throw BlueZConnection.map(error, call: "Adapter1.StartDiscovery on \(bluez.adapterName)", bus: bluez.dbus.bus, adapter: bluez.adapterName)
        }
        discovering = true
        logger.debug("discovering\(wanted.isEmpty ? "" : " \(wanted.map(\.description).joined(separator: ", "))")")
    }

    /// Device objects appearing, and advertising properties changing, become advertisements for
    /// every scan stream.
    private func startForwarding() {
        let changes = bluez.changes()
        let prefix = bluez.adapterPath + "/dev_"
        let bluez = bluez
        forwarder = Task { [weak self] in
            for await change in changes {
                let path: String
                switch change {
                case .added(let added, let interfaces):
                    guard added.hasPrefix(prefix), interfaces[BlueZName.device]?["RSSI"] != nil else { continue }
                    path = added
                case .changed(let changed, let interface, let properties, _):
                    guard interface == BlueZName.device, changed.hasPrefix(prefix), !changed.dropFirst(prefix.count).contains("/"),
                          !BlueZAdvertisementMapper.advertisingProperties.isDisjoint(with: properties.keys) else { continue }
                    path = changed
                case .gone:
                    await self?.daemonGone()
                    return
                default:
                    continue
                }
                guard let properties = bluez.properties(path, BlueZName.device),
                      let advertisement = BlueZAdvertisementMapper.advertisement(properties: properties, at: .now) else { continue }
                await self?.deliver(advertisement)
            }
        }
    }

    private func deliver(_ advertisement: Advertisement) {
        for continuation in scanContinuations.values { continuation.yield(advertisement) }
    }

    private func daemonGone() {
        for continuation in scanContinuations.values { continuation.finish() }
        scanContinuations.removeAll()
        holds.removeAll()
        discovering = false
        activeFilter = nil
    }

    // MARK: Connections

    public func openDataChannel(to address: BluetoothAddress, type: BluetoothAddressType, timeout: Duration,
                                services: [DataChannelService]) async throws(BluetoothError) -> any DataChannel {
        try await BlueZDataChannel.open(central: self, address: address, timeout: timeout, services: services, logger: logger)
    }

    public func connectForSetup(to address: BluetoothAddress, type: BluetoothAddressType,
                                timeout: Duration) async throws(BluetoothError) -> any SetupLink {
        let device = BlueZDevice(bluez: bluez, address: address)
        try await device.ensureKnown(central: self, timeout: timeout)
        try await device.connect(timeout: timeout, logger: logger)
        return BlueZSetupLink(central: self, device: device)
    }

    /// The agent, registered on first use.
    func pairingAgent() async throws(BluetoothError) -> BlueZAgent {
        if let agent { return agent }
        let registered = try await BlueZAgent.register(
            on: bluez, delegate: security.delegate, capability: security.configuration.ioCapability, logger: logger)
        agent = registered
        return registered
    }

    /// Removes `address`'s device from BlueZ (`Adapter1.RemoveDevice`: its bond and cached
    /// data go too). `false` if BlueZ had no such device.
    /// - Throws: the call's `BluetoothError`.
    @discardableResult
    public func removeDevice(_ address: BluetoothAddress) async throws(BluetoothError) -> Bool {
        let device = BlueZDevice(bluez: bluez, address: address)
        guard device.exists else { return false }
        do {
            _ = try await bluez.rawCall(bluez.adapterPath, BlueZName.adapter, "RemoveDevice", [.objectPath(device.path)], timeout: .seconds(10))
        } catch where error.name == "org.bluez.Error.DoesNotExist" {
            return false
        } catch {
            throw BlueZConnection.map(error, call: "Adapter1.RemoveDevice \(address)", bus: bluez.dbus.bus, adapter: bluez.adapterName)
        }
        return true
    }

    public func close() async {
        guard !closed else { return }
        await stopScanning()
        closed = true
        forwarder?.cancel()
        bluez.close()
    }
}
