public import Accessories
import BlueZ
public import Logging
public import LowEnergy
public import NIProtocol
public import NearbyInteraction
public import Simulation
import Synchronization
import UCI
public import UWBDevice
public import UWBDevice

/// What the accessory role serves and announces (`nearby accessory`'s flags, the
/// `[accessory]` section of the configuration file).
public struct AccessoryRoleSettings: Sendable, Hashable {
    /// A service a phone can find and use.
    public enum Service: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Qorvo's QNIS data channel (Qorvo's firmware advertises it; Qorvo's Nearby
        /// Interaction app looks for it or Nordic UART).
        case qnis
        /// Nordic UART (what Apple's sample app looks for, the only service it scans for; Qorvo's
        /// app finds it too).
        case nus
        /// Apple's Nearby Interaction service: the accessory configuration data, readable on a
        /// paired link (iOS reads it for background sessions); needs a data channel beside it.
        case apple

        /// `qnis`, `nus` or `apple`.
        public var description: String { rawValue }
    }

    /// The name advertised (scan response) and in the GAP service.
    public var name: String
    /// The services (default ``defaultServices``): every data channel named is served; the
    /// first is advertised in the advertising data, the next in the scan response when it fits
    /// beside the name.
    public var services: [Service]
    /// The UWB config data layout: 1.0 or 1.1 (default).
    public var layout: ConfigurationDataVersion
    /// The role announced (default responder).
    public var role: NIRangingRole
    /// A fixed UWB short MAC; `nil`: the one stored for the kit (made on first use).
    public var address: UInt16?
    /// Phones connected at once (advertising pauses at the limit). Default 1: one UWB radio
    /// serves one phone's rounds without collisions (specs/accessory-role.md §6).
    public var maximumPhones: Int
    /// The advertising interval, ms. Default 100.
    public var advertisingIntervalMilliseconds: Double
    /// How VENDOR_ID and the STS IV go to UCI (iPhones: vendor-first).
    public var keyByteOrder: UWBKeyByteOrder

    /// The default services: Nordic UART advertised (Apple's sample app and Qorvo's app find it),
    /// Qorvo's QNIS in the scan response and served.
    public static let defaultServices: [Service] = [.nus, .qnis]

    /// Creates settings; every parameter has the default documented on its property.
    public init(name: String = "nearby", services: [Service] = Self.defaultServices, layout: ConfigurationDataVersion = .v1_1,
                role: NIRangingRole = .responder, address: UInt16? = nil, maximumPhones: Int = 1,
                advertisingIntervalMilliseconds: Double = 100, keyByteOrder: UWBKeyByteOrder = .vendorFirst) {
        self.name = name
        self.services = services
        self.layout = layout
        self.role = role
        self.address = address
        self.maximumPhones = maximumPhones
        self.advertisingIntervalMilliseconds = advertisingIntervalMilliseconds
        self.keyByteOrder = keyByteOrder
    }

    /// The data channels served, in order (Qorvo NI if only Apple's service was asked for).
    /// Each is listed once.
    public var dataChannels: [DataChannelService] {
        let channels = services.compactMap { service -> DataChannelService? in
            switch service {
            case .qnis: .qorvoNI
            case .nus: .nordicUART
            case .apple: nil
            }
        }
        var unique: [DataChannelService] = []
        for channel in channels where !unique.contains(channel) { unique.append(channel) }
        return unique.isEmpty ? [.qorvoNI] : unique
    }

    /// What this program's own host advertises for these settings (`PeripheralServices.advertising`:
    /// the first data channel in the advertising data, the next beside the name in the scan response).
    public var advertising: AdvertisingConfiguration {
        PeripheralServices(name: name, dataChannels: dataChannels, advertisingIntervalMilliseconds: advertisingIntervalMilliseconds,
                           maximumConnections: maximumPhones).advertising
    }
}

/// The accessory role live (`nearby accessory`): the kit, the Bluetooth backend as an
/// advertising peripheral serving the data channels (this program's own host with its GATT
/// server, or BlueZ with a GATT application), one `AccessoryRoleSession`
/// per connected phone on an `AccessoryRoleManager`; feed ``manager``'s
/// events to a ``RangingRun`` (the phones are its "accessories": hooks get the phone's ID).
///
/// ```swift
/// let live = try await AccessoryRanging.open(uwb: nil, hci: .bluez(adapter: nil),
///                                            role: AccessoryRoleSettings(name: "door"), settings: settings)
/// let run = RangingRun(context: context, outputs: outputs, hooks: settings.hookRunner())
/// let consumer = Task { await run.consume(live.manager.events, droppedUpdates: { live.manager.droppedUpdates }) }
/// // ... until done:
/// await live.close(); await consumer.value; _ = await run.finish(interrupted: true)
/// ```
public final class AccessoryRanging: Sendable {
    /// The kit's UCI client (open).
    public let client: UCIClient
    /// The peripheral (serving, advertising).
    public let peripheral: any BLEPeripheral
    /// The phones' sessions.
    public let manager: AccessoryRoleManager
    /// What the accessory announces.
    public let profile: AccessoryRoleProfile
    /// Phones served at once: `--max-phones`, at most what the backend can serve.
    public let maximumPhones: Int
    private let acceptor = Mutex<Task<Void, Never>?>(nil)

    private init(client: UCIClient, peripheral: any BLEPeripheral, manager: AccessoryRoleManager, profile: AccessoryRoleProfile,
                 maximumPhones: Int) {
        self.client = client
        self.peripheral = peripheral
        self.manager = manager
        self.profile = profile
        self.maximumPhones = maximumPhones
    }

    /// Opens the kit (its device info makes the accessory configuration data), then the
    /// Bluetooth backend; serves the data channels, starts advertising and answering phones.
    /// - Parameters:
    ///   - uwb: the kit; `nil`: the only known kit on USB.
    ///   - hci: the Bluetooth backend: this program's own host on a controller, or BlueZ.
    ///   - role: what is served and announced.
    ///   - addresses: where the kit's stable UWB MAC is kept (unless `role.address` is set);
    ///     `nil`: a random one for this run.
    ///   - hostConfiguration: this program's own host's settings (own host only).
    ///   - security: pairing and bonds (phones pair Just Works to read encrypted characteristics).
    ///   - settings: the pipeline (filter, zones, lost-after) and hooks.
    ///   - uciCapture: where every UCI packet is recorded (`--uci-log`), `nil` for nowhere.
    ///   - hciCapture: where every HCI packet is recorded (`--hci-log`, own host only), `nil` for nowhere.
    ///   - logger: where the run logs.
    /// - Throws: ``LiveRangingError`` naming the device that failed and what to do.
    public static func open(
        uwb: UWBDeviceTarget?, hci: BluetoothBackendSpec, role: AccessoryRoleSettings, addresses: UWBAddressStore? = nil,
        host hostConfiguration: BLEHostConfiguration = BLEHostConfiguration(), security: SecurityContext = SecurityContext(),
        settings: RunSettings, uciCapture: UCICaptureLog? = nil, hciCapture: HCICaptureLog? = nil,
        logger: Logger = Logger(label: "nearby")
    ) async throws(LiveRangingError) -> AccessoryRanging {
        let target: UWBDeviceTarget
        let client: UCIClient
        let info: UCIDeviceInfo
        do {
            target = try uwb ?? .device(LiveRanging.onlyDevKit())
            let transport = target.makeTransport(world: .shared, logger: logger)
            client = UCIClient(transport: uciCapture.map { transport.capturing(to: $0) } ?? transport, logger: logger)
            info = try await client.open()
        } catch let error as LiveRangingError {
            throw error
        } catch {
            throw LiveRangingError(device: .devKit, description: "\(error)")
        }
        var address = role.address ?? UInt16.random(in: 1...0xFFFE)
        if role.address == nil, let addresses {
            do {
                address = try addresses.address(forKit: kitKey(target))
            } catch {
                await client.close()
                throw LiveRangingError(device: .devKit, description: "the kit's UWB address: \(error)")
            }
        }
        let profile = AccessoryRoleProfile(
            deviceInfo: info, vendor: vendor(of: target), address: address, role: role.role, layout: role.layout,
            keyByteOrder: role.keyByteOrder)
        let peripheral: any BLEPeripheral
        do {
            peripheral = try await BluetoothBackends.openPeripheral(
                hci, host: hostConfiguration, security: security, capture: hciCapture, logger: logger)
        } catch {
            await client.close()
            throw LiveRangingError(device: .controller, description: "--hci \(hci): \(error)")
        }
        let limit = min(role.maximumPhones, peripheral.maximumConnections)
        if limit < role.maximumPhones {
            logger.notice("\(peripheral.backendName) serves \(limit) phone\(limit == 1 ? "" : "s") at a time (--max-phones \(role.maximumPhones))")
        }
        do {
            let services = PeripheralServices(
                name: role.name, dataChannels: role.dataChannels,
                appleConfigurationData: role.services.contains(.apple) ? profile.accessoryConfigurationData().encoded() : nil,
                advertisingIntervalMilliseconds: role.advertisingIntervalMilliseconds, maximumConnections: limit,
                pendingAnswerLifetime: settings.session.configurationTimeout)
            let manager = AccessoryRoleManager(
                client: client, configuration: AccessoryRoleConfiguration(profile: profile, ranging: settings.session), logger: logger)
            let live = AccessoryRanging(client: client, peripheral: peripheral, manager: manager, profile: profile, maximumPhones: limit)
            let links = try await peripheral.start(services)
            live.accept(links, logger: logger)
            return live
        } catch {
            await peripheral.close()
            await client.close()
            throw LiveRangingError(device: .controller, description: "--hci \(hci): \(error)")
        }
    }

    /// Gives every phone that connects its session (its identity: its bonded identity address,
    /// else the address it connected from); one beyond the limit is disconnected.
    private func accept(_ links: AsyncStream<PeripheralLink>, logger: Logger) {
        let manager = manager
        let limit = maximumPhones
        let task = Task {
            for await link in links {
                let id = link.peer
                // Phones still connected count; the same phone connecting again replaces its own
                // session, and a session whose link is gone is only closing (not counted).
                var running = 0
                for session in await manager.allSessions where session.phone.id != id {
                    if Self.linkUp(session.channel), await !session.state.isFinal { running += 1 }
                }
                guard running < limit else {
                    logger.warning("\(link.peer) connected beyond the limit of \(limit) phone\(limit == 1 ? "" : "s"): disconnecting it")
                    await link.channel.close()
                    continue
                }
                do {
                    try await manager.add(AccessoryIdentity(id: link.peer), channel: link.channel)
                } catch {
                    logger.warning("\(error)")
                    await link.channel.close()
                }
            }
        }
        acceptor.withLock { $0 = task }
    }

    /// `false` once a phone's link is gone (its session is then only closing).
    static func linkUp(_ channel: any DataChannel) -> Bool {
        switch channel {
        case let channel as GATTServerDataChannel: channel.connection.isConnected
        case let channel as BlueZServerChannel: channel.isConnected
        default: true
        }
    }

    /// `true` once the BLE controller (or bluetoothd) is gone: nothing more can happen.
    public var controllerClosed: Bool { peripheral.isClosed }

    /// Stops advertising, stops every phone's session (0x03 to each, SESSION_STOP / DEINIT),
    /// disconnects, closes the backend and the kit. The manager's events end.
    public func close() async {
        acceptor.withLock { $0?.cancel() }
        await peripheral.stop()
        await manager.stop()
        await peripheral.close()
        await client.close()
    }

    /// The key the kit's UWB address is stored under: `usb:VID:PID` (not the bus position,
    /// which changes when it is replugged), the serial path, the TCP address, or `sim`.
    static func kitKey(_ target: UWBDeviceTarget) -> String {
        switch target {
        case .simulator: "sim"
        case .device(.usb(let vendor, let product, _, _)): UWBDeviceSpec.usb(vendorID: vendor, productID: product, bus: nil, address: nil).description
        case .device(let spec): spec.description
        }
    }

    /// Whose IDs the configuration data carries: NXP for an NXP kit of the catalogue, else Qorvo.
    static func vendor(of target: UWBDeviceTarget) -> AccessoryRoleProfile.Vendor {
        if case .device(.usb(let vendor, let product, _, _)) = target, DevKit.matching(vendorID: vendor, productID: product) == .sr150evk {
            return .nxp
        }
        return .qorvo
    }
}
