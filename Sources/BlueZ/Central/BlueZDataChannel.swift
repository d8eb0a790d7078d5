import Logging
public import LowEnergy
import NearbySupport

/// A `DataChannel` through bluetoothd: the accessory's RX written through a socket
/// from `GattCharacteristic1.AcquireWrite` (each packet one ATT Write Command), TX's
/// notifications read from a socket from `AcquireNotify` (doc/org.bluez.GattCharacteristic.rst):
/// no D-Bus round trip per message. Where BlueZ does not offer them (before 5.48, or RX without
/// write-without-response) it falls back to `WriteValue` (a Write Request) and `StartNotify`
/// with the `Value` property's changes. The MTU is BlueZ's: the one the acquire calls return,
/// else the characteristic's `MTU` property (BlueZ 5.62+), else 23.
///
/// Link loss: `Device1.Connected` false (and BlueZ hangs up the sockets) ⇒ ``events`` reports
/// `DataChannelEvent.disconnected(reason:)`; ``reconnect(timeout:)`` connects and
/// acquires again (new sockets: the old ones died with the link, so nothing is delivered twice).
public actor BlueZDataChannel: DataChannel {
    /// The accessory's address.
    public nonisolated let address: BluetoothAddress
    /// Messages from the accessory, one per notification. Single consumer; finishes on ``close()``.
    public nonisolated let messages: AsyncStream<[UInt8]>
    /// Link events. Single consumer; finishes on ``close()``.
    public nonisolated let events: AsyncStream<DataChannelEvent>
    private let messageContinuation: AsyncStream<[UInt8]>.Continuation
    private let eventContinuation: AsyncStream<DataChannelEvent>.Continuation

    /// The service in use (set once open).
    public private(set) var service: DataChannelService?
    /// How the channel writes: through an `AcquireWrite` socket, else `WriteValue`.
    public private(set) var writesThroughSocket = false
    /// How the channel receives: through an `AcquireNotify` socket, else `StartNotify`.
    public private(set) var notifiesThroughSocket = false
    /// The ATT MTU BlueZ reported.
    public private(set) var mtu = 23

    private let central: BlueZCentral
    private let device: BlueZDevice
    private let services: [DataChannelService]
    private let logger: Logger
    private var rxPath: String?
    private var txPath: String?
    private var writeType = "request"
    private var writer: PacketSocket?
    private var notifier: PacketSocket?
    private var forwardTask: Task<Void, Never>?
    private var watchTask: Task<Void, Never>?
    private var connected = false
    private var lastReason: HCIStatus?
    private var closed = false
    private let reconnectLock = AsyncLock()

    private init(central: BlueZCentral, device: BlueZDevice, services: [DataChannelService], logger: Logger) {
        self.central = central
        self.device = device
        self.address = device.address
        self.services = services
        self.logger = logger
        (messages, messageContinuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .unbounded)
        (events, eventContinuation) = AsyncStream<DataChannelEvent>.makeStream(bufferingPolicy: .unbounded)
    }

    /// Connects to the accessory through BlueZ and opens the channel.
    /// - Throws: connection errors, `BluetoothError.notFound(detail:)` (none of
    ///   `services`, or no RX / TX), `BlueZError.inUseElsewhere(device:characteristic:detail:)`;
    ///   the device is disconnected again on failure.
    static func open(central: BlueZCentral, address: BluetoothAddress, timeout: Duration, services: [DataChannelService],
                     logger: Logger) async throws(BluetoothError) -> BlueZDataChannel {
        let device = BlueZDevice(bluez: central.bluez, address: address)
        let channel = BlueZDataChannel(central: central, device: device, services: services, logger: logger)
        do {
            try await channel.setUp(timeout: timeout)
        } catch {
            await channel.release()
            await device.disconnect()
            throw error
        }
        return channel
    }

    /// Through the AcquireWrite socket ATT_MTU - 3 (each packet one Write Command), at most 512:
    /// bluetoothd reads the socket into a 512-byte buffer (src/gatt-client.c `sock_read`), so a
    /// longer packet would be cut; with `WriteValue` 512 (the longest attribute value), which
    /// BlueZ turns into a long write when it does not fit one request.
    public var maximumMessageLength: Int { writesThroughSocket || rxPath == nil ? min(mtu - 3, 512) : 512 }

    public func send(_ message: [UInt8]) async throws(BluetoothError) {
        guard !closed else { throw .notReady(detail: "the data channel to \(address) is closed") }
        guard connected, let rxPath else { throw .disconnected(reason: lastReason ?? .unspecifiedError) }
        let maximum = maximumMessageLength
        guard message.count <= maximum else { throw .messageTooLong(length: message.count, maximum: maximum) }
        if let writer {
            try await writer.send(message)
            return
        }
        let options: [String: DBusValue] = ["type": .string(writeType)]
        do {
            _ = try await device.bluez.rawCall(rxPath, BlueZName.gattCharacteristic, "WriteValue", [.bytes(message), .properties(options)],
                                               timeout: .seconds(30))
        } catch {
            if !device.isConnected { throw .disconnected(reason: lastReason ?? .unspecifiedError) }
            throw BlueZConnection.map(error, call: "GattCharacteristic1.WriteValue on \(address)", bus: device.bluez.dbus.bus,
                                      adapter: device.bluez.adapterName)
        }
    }

    public func reconnect(timeout: Duration) async throws(BluetoothError) {
        guard !closed else { throw .notReady(detail: "the data channel to \(address) is closed") }
        do {
            try await reconnectLock.lock()
        } catch {
            throw .cancelled(operation: "reconnecting to \(address)")
        }
        defer { reconnectLock.unlock() }
        guard !closed else { throw .notReady(detail: "the data channel to \(address) is closed") }
        if connected && device.isConnected { return }
        await release()
        do {
            try await setUp(timeout: timeout)
        } catch {
            await release()
            await device.disconnect()
            throw error
        }
        eventContinuation.yield(.reconnected(maximumMessageLength: maximumMessageLength))
    }

    public func close() async {
        guard !closed else { return }
        closed = true
        watchTask?.cancel()
        await release()
        await device.disconnect()
        forwardTask?.cancel()
        messageContinuation.finish()
        eventContinuation.finish()
    }

    // MARK: Setting up

    private func setUp(timeout: Duration) async throws(BluetoothError) {
        try await device.ensureKnown(central: central, timeout: timeout)
        try await device.connect(timeout: timeout, logger: logger)
        guard let (definition, servicePath) = device.firstOffered(among: services) else {
            throw .notFound(detail: "\(address) offers none of the data-channel services \(services.map(\.description).joined(separator: ", "))")
        }
        let characteristics = device.characteristics(of: servicePath)
        guard let rx = characteristics.first(where: { $0.uuid == definition.rx }) else {
            throw .notFound(detail: "\(definition.name) on \(address) has no RX characteristic \(definition.rx)")
        }
        guard let tx = characteristics.first(where: { $0.uuid == definition.tx }) else {
            throw .notFound(detail: "\(definition.name) on \(address) has no TX characteristic \(definition.tx)")
        }
        let rxFlags = Set(rx.properties["Flags"]?.strings ?? [])
        let txFlags = Set(tx.properties["Flags"]?.strings ?? [])
        guard !rxFlags.isDisjoint(with: ["write", "write-without-response"]) else {
            throw .notFound(detail: "\(definition.name) on \(address) has no writable RX characteristic \(definition.rx)")
        }
        guard !txFlags.isDisjoint(with: ["notify", "indicate"]) else {
            throw .notFound(detail: "\(definition.name) on \(address) has no notifying TX characteristic \(definition.tx)")
        }
        // Watch the link before acquiring, so a loss right after is seen.
        connected = true
        watch(txPath: tx.path)
        var reportedMTU: Int?
        try await openNotifications(tx: tx.path, flags: txFlags, acquirable: tx.properties["NotifyAcquired"] != nil, mtu: &reportedMTU)
        try await openWrites(rx: rx.path, flags: rxFlags, acquirable: rx.properties["WriteAcquired"] != nil, mtu: &reportedMTU)
        mtu = reportedMTU ?? tx.properties["MTU"]?.integer ?? rx.properties["MTU"]?.integer ?? 23
        service = definition
        rxPath = rx.path
        txPath = tx.path
        let writes = writesThroughSocket ? "AcquireWrite" : "WriteValue (\(writeType))"
        let notifications = notifiesThroughSocket ? "AcquireNotify" : "StartNotify"
        logger.info("\(definition.name) data channel to \(address) through \(device.bluez.backendName): \(writes) / \(notifications), ATT_MTU \(mtu)")
    }

    private func openNotifications(tx: String, flags: Set<String>, acquirable: Bool, mtu: inout Int?) async throws(BluetoothError) {
        let bluez = device.bluez
        if acquirable && flags.contains("notify") {
            do {
                let reply = try await bluez.rawCall(tx, BlueZName.gattCharacteristic, "AcquireNotify", [.properties([:])], timeout: .seconds(30))
                guard case .unixFD(let fd)? = reply.first else {
                    DBusMessageCodec.closeDescriptors(reply)
                    throw BluetoothError.invalidResponse(detail: "AcquireNotify returned \(reply.map(\.signature).joined())")
                }
                mtu = reply.dropFirst().first?.integer
                let socket = PacketSocket(fd: fd, name: "the notifications of \(address)")
                notifier = socket
                notifiesThroughSocket = true
                forward(socket.packets)
                return
            } catch let error as DBusError {
                if let conflict = conflict(error, characteristic: "AcquireNotify") { throw conflict }
                guard error.isUnknownMethod || error.name == "org.bluez.Error.NotSupported" else {
                    throw BlueZConnection.map(error, call: "GattCharacteristic1.AcquireNotify on \(address)", bus: bluez.dbus.bus, adapter: bluez.adapterName)
                }
                logger.warning("\(BlueZError.tooOld(feature: "AcquireNotify", needed: "5.48", running: bluez.version?.description)); using StartNotify (each message a D-Bus signal)")
            } catch let error as BluetoothError {
                throw error
            } catch {
                throw .invalidResponse(detail: "\(error)")
            }
        } else if flags.contains("notify") {
            logger.warning("BlueZ\(bluez.version.map { " \($0)" } ?? "") offers no AcquireNotify for \(address)'s TX (it needs BlueZ 5.48 or newer); using StartNotify")
        }
        do {
            _ = try await bluez.rawCall(tx, BlueZName.gattCharacteristic, "StartNotify", timeout: .seconds(30))
        } catch {
            if let conflict = conflict(error, characteristic: "StartNotify") { throw conflict }
            throw BlueZConnection.map(error, call: "GattCharacteristic1.StartNotify on \(address)", bus: bluez.dbus.bus, adapter: bluez.adapterName)
        }
        notifiesThroughSocket = false
    }

    private func openWrites(rx: String, flags: Set<String>, acquirable: Bool, mtu: inout Int?) async throws(BluetoothError) {
        let bluez = device.bluez
        writeType = flags.contains("write") ? "request" : "command"
        guard acquirable, flags.contains("write-without-response") else { return }
        do {
            let reply = try await bluez.rawCall(rx, BlueZName.gattCharacteristic, "AcquireWrite", [.properties([:])], timeout: .seconds(30))
            guard case .unixFD(let fd)? = reply.first else {
                DBusMessageCodec.closeDescriptors(reply)
                throw BluetoothError.invalidResponse(detail: "AcquireWrite returned \(reply.map(\.signature).joined())")
            }
            if let reported = reply.dropFirst().first?.integer { mtu = min(mtu ?? reported, reported) }
            writer = PacketSocket(fd: fd, name: "the writes to \(address)")
            writesThroughSocket = true
        } catch let error as DBusError {
            if let conflict = conflict(error, characteristic: "AcquireWrite") { throw conflict }
            guard error.isUnknownMethod || error.name == "org.bluez.Error.NotSupported" else {
                throw BlueZConnection.map(error, call: "GattCharacteristic1.AcquireWrite on \(address)", bus: bluez.dbus.bus, adapter: bluez.adapterName)
            }
            logger.info("no AcquireWrite for \(address)'s RX (\(error.name)); writing with WriteValue")
        } catch let error as BluetoothError {
            throw error
        } catch {
            throw .invalidResponse(detail: "\(error)")
        }
    }

    /// Another program holding the characteristic: `NotPermitted` ("Notify acquired", "Write
    /// acquired") or `InProgress` (someone's StartNotify), src/gatt-client.c.
    private func conflict(_ error: DBusError, characteristic: String) -> BluetoothError? {
        guard error.name == "org.bluez.Error.NotPermitted" || (error.name == "org.bluez.Error.InProgress" && characteristic == "AcquireNotify") else {
            return nil
        }
        return .bluez(.inUseElsewhere(device: address, characteristic: characteristic, detail: "\(error.name): \(error.message)"))
    }

    private func forward(_ packets: AsyncStream<[UInt8]>) {
        let previous = forwardTask
        let messages = messageContinuation
        forwardTask = Task {
            await previous?.value
            for await packet in packets { messages.yield(packet) }
        }
    }

    /// Watches the device's connection and, without a notify socket, TX's `Value`.
    private func watch(txPath: String) {
        watchTask?.cancel()
        let changes = device.bluez.changes()
        let devicePath = device.path
        let messages = messageContinuation
        watchTask = Task { [weak self] in
            for await change in changes {
                switch change {
                case .changed(let path, BlueZName.gattCharacteristic, let properties, _) where path == txPath:
                    guard let self, await !self.notifiesThroughSocket, let value = properties["Value"]?.byteArray else { continue }
                    messages.yield(value)
                case .changed(devicePath, BlueZName.device, let properties, _):
                    if properties["Connected"]?.bool == false { await self?.linkLost(nil) }
                case .disconnected(devicePath, let reason):
                    await self?.noteReason(reason)
                case .removed(devicePath, let interfaces) where interfaces.contains(BlueZName.device):
                    await self?.linkLost(nil)
                case .gone(let detail):
                    await self?.linkLost(detail)
                    return
                default:
                    continue
                }
            }
        }
    }

    private var pendingReason: HCIStatus?

    /// `Device1.Disconnected`'s reason (BlueZ 5.72+) for the loss reported next.
    private func noteReason(_ reason: String) {
        pendingReason = switch reason {
        case "org.bluez.Reason.Timeout": .connectionTimeout
        case "org.bluez.Reason.Local": .connectionTerminatedByLocalHost
        case "org.bluez.Reason.Remote": .remoteUserTerminatedConnection
        case "org.bluez.Reason.Authentication": .authenticationFailure
        default: .unspecifiedError
        }
    }

    private func linkLost(_ detail: String?) async {
        guard connected, !closed else { return }
        connected = false
        // BlueZ before 5.72 does not say why a link ended.
        let reason = pendingReason ?? .unspecifiedError
        pendingReason = nil
        lastReason = reason
        if let detail { logger.warning("\(address): \(detail)") }
        await release()
        eventContinuation.yield(.disconnected(reason: reason))
    }

    /// Gives the acquired sockets back and stops notifications started with StartNotify.
    private func release() async {
        writer?.close()
        writer = nil
        notifier?.close()
        notifier = nil
        writesThroughSocket = false
        if !notifiesThroughSocket, let txPath, device.isConnected {
            _ = try? await device.bluez.rawCall(txPath, BlueZName.gattCharacteristic, "StopNotify", timeout: .seconds(5))
        }
        notifiesThroughSocket = false
        rxPath = nil
        txPath = nil
    }
}
