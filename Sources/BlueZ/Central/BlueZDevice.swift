import Logging
import LowEnergy

/// One remote device in BlueZ (`org.bluez.Device1`) and its GATT objects.
struct BlueZDevice: Sendable {
    let bluez: BlueZConnection
    let address: BluetoothAddress
    let path: String

    init(bluez: BlueZConnection, address: BluetoothAddress) {
        self.bluez = bluez
        self.address = address
        self.path = BlueZName.devicePath(adapter: bluez.adapterPath, address: address)
    }

    var properties: [String: DBusValue]? { bluez.properties(path, BlueZName.device) }
    var exists: Bool { properties != nil }
    var isConnected: Bool { properties?["Connected"]?.bool == true }
    var servicesResolved: Bool { properties?["ServicesResolved"]?.bool == true }

    /// Makes sure BlueZ has an object for the device: BlueZ creates it only when it hears the
    /// device advertise (or knows it from a bond), so an unknown address is looked for with a
    /// discovery of at most `timeout`, as Bleak does before connecting by address.
    func ensureKnown(central: BlueZCentral, timeout: Duration) async throws(BluetoothError) {
        if exists { return }
        let token = try await central.holdDiscovery(serviceUUIDs: [])
        let found = await bluez.wait(timeout: timeout) { self.exists }
        await central.releaseDiscovery(token)
        if !found {
            throw .timeout(operation: "finding \(address) through BlueZ", timeout: timeout,
                           hint: "BlueZ has not heard it advertise: is it advertising, in range, and not connected to another device?")
        }
    }

    /// Connects (`Device1.Connect`) and waits for `ServicesResolved` (BlueZ discovers every
    /// service on connecting). On timeout the attempt is cancelled (`Device1.Disconnect`, which
    /// "can be also used to cancel a preceding Connect call").
    func connect(timeout: Duration, logger: Logger) async throws(BluetoothError) {
        let clock = ContinuousClock()
        let start = clock.now
        if !(isConnected && servicesResolved) {
            do {
                _ = try await bluez.rawCall(path, BlueZName.device, "Connect", timeout: timeout)
            } catch where error.name == "org.bluez.Error.AlreadyConnected" {
                // Connected already (by another program or an earlier attempt): use it.
            } catch where error.name == "org.bluez.Error.InProgress" {
                if !(await bluez.wait(timeout: timeout) { self.isConnected }) {
                    throw .timeout(operation: "connecting to \(address) through BlueZ", timeout: timeout,
                                   hint: "another connection attempt to it is in progress")
                }
            } catch where error.name == DBusError.noReply || error.name == DBusError.timeout {
                _ = try? await bluez.rawCall(path, BlueZName.device, "Disconnect", timeout: .seconds(5))
                throw .timeout(operation: "connecting to \(address) through BlueZ", timeout: timeout,
                               hint: "the accessory did not answer: is it advertising, in range, and not connected to another device?")
            } catch {
                throw Self.connectError(error, address: address, bluez: bluez)
            }
        }
        let remaining = max(.seconds(1), timeout - (clock.now - start))
        guard await bluez.wait(timeout: remaining, until: { self.servicesResolved || !self.isConnected }) else {
            throw .timeout(operation: "discovering the services of \(address) through BlueZ", timeout: timeout, hint: nil)
        }
        guard isConnected else { throw .disconnected(reason: .unspecifiedError) }
        logger.info("connected to \(address) through \(bluez.backendName)")
    }

    static func connectError(_ error: DBusError, address: BluetoothAddress, bluez: BlueZConnection) -> BluetoothError {
        if error.name == "org.bluez.Error.Failed" {
            // Connection failures carry the kernel's reason as text: "le-connection-abort-by-local",
            // "Software caused connection abort", "Host is down", "Page Timeout".
            return .commandFailed(command: "Device1.Connect to \(address) (\(error.message))", status: .connectionFailedToBeEstablished)
        }
        return BlueZConnection.map(error, call: "Device1.Connect to \(address)", bus: bluez.dbus.bus, adapter: bluez.adapterName)
    }

    /// Disconnects (best effort; `NotConnected` is fine).
    func disconnect() async {
        _ = try? await bluez.rawCall(path, BlueZName.device, "Disconnect", timeout: .seconds(10))
    }

    /// The device's primary services: object path and UUID.
    var services: [(path: String, uuid: BluetoothUUID)] {
        bluez.objects(with: BlueZName.gattService, under: path).compactMap { object in
            guard let uuid = object.properties["UUID"]?.string.flatMap(BluetoothUUID.init) else { return nil }
            return (object.path, uuid)
        }
    }

    /// The characteristics of the service at `servicePath`.
    func characteristics(of servicePath: String) -> [(path: String, uuid: BluetoothUUID, properties: [String: DBusValue])] {
        bluez.objects(with: BlueZName.gattCharacteristic, under: servicePath).compactMap { object in
            guard let uuid = object.properties["UUID"]?.string.flatMap(BluetoothUUID.init) else { return nil }
            return (object.path, uuid, object.properties)
        }
    }

    /// The first of `services` the device offers, with its service object path.
    func firstOffered(among wanted: [DataChannelService]) -> (DataChannelService, String)? {
        let offered = services
        for candidate in wanted {
            if let match = offered.first(where: { $0.uuid == candidate.service }) { return (candidate, match.path) }
        }
        return nil
    }
}
