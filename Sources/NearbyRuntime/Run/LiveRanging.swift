public import Accessories
public import Logging
public import LowEnergy
import NIProtocol
public import NearbyInteraction
public import Simulation
import Synchronization
public import UWBDevice

/// Live ranging with real accessories (`nearby range`): the dev kit, the BLE central (this
/// program's own host or BlueZ), one NI session per accessory on a shared
/// `NearbySessionManager`; feed ``manager``'s events to a ``RangingRun``.
///
/// ```swift
/// let live = try await LiveRanging.open(uwb: nil, hci: .bluez(adapter: nil), settings: settings)
/// let run = RangingRun(context: context, outputs: outputs, hooks: settings.hookRunner())
/// let consumer = Task { await run.consume(live.manager.events, droppedUpdates: { live.manager.droppedUpdates }) }
/// await live.connect(targets) { print($0) }
/// // ... until done:
/// await live.close(); await consumer.value; let summary = await run.finish(interrupted: true)
/// ```
public final class LiveRanging: Sendable {
    /// The dev kit's UCI client (open).
    public let client: UCIClient
    /// The BLE central (open): this program's own host or BlueZ.
    public let central: any BLECentral
    /// The sessions.
    public let manager: NearbySessionManager
    /// Answers "is it still near?" while a data channel is down (advertising heard recently).
    public let monitor: AdvertisingMonitor
    private let settings: RunSettings
    private let channels = Mutex<[any DataChannel]>([])

    private init(client: UCIClient, central: any BLECentral, settings: RunSettings, logger: Logger) {
        self.client = client
        self.central = central
        self.settings = settings
        self.manager = NearbySessionManager(client: client, configuration: settings.session, logger: logger)
        self.monitor = AdvertisingMonitor(central: central, logger: logger)
    }

    /// Opens the dev kit first (without it there is nothing to range with), then the controller.
    /// - Parameters:
    ///   - uwb: the dev kit; `nil`: the only known kit on USB. `sim` is an in-process virtual
    ///     UWBS of the shared simulated world.
    ///   - hci: the Bluetooth backend: this program's own host on a controller, or BlueZ.
    ///   - hostConfiguration: the own host's address and command set (`--own-address`,
    ///     `--hci-legacy`).
    ///   - security: bonds and the host's identity (the accessory store's), so bonded accessories
    ///     are encrypted with their stored keys and see the central they paired with.
    ///   - settings: the sessions' settings (dialect, filter, zones, retry) and hooks.
    ///   - uciCapture: where every UCI packet is recorded (`--uci-log`), `nil` for nowhere.
    ///   - hciCapture: where every HCI packet is recorded (`--hci-log`), `nil` for nowhere.
    ///   - logger: where the run logs.
    /// - Throws: ``LiveRangingError`` saying which device failed and what to do.
    public static func open(
        uwb: UWBDeviceTarget?, hci: BluetoothBackendSpec, host hostConfiguration: BLEHostConfiguration = BLEHostConfiguration(),
        security: SecurityContext = SecurityContext(), settings: RunSettings, uciCapture: UCICaptureLog? = nil,
        hciCapture: HCICaptureLog? = nil, logger: Logger = Logger(label: "nearby")
    ) async throws(LiveRangingError) -> LiveRanging {
        let client: UCIClient
        do {
            let target = try uwb ?? .device(onlyDevKit())
            let transport = target.makeTransport(world: .shared, logger: logger)
            client = UCIClient(transport: uciCapture.map { transport.capturing(to: $0) } ?? transport, logger: logger)
            try await client.open()
        } catch let error as LiveRangingError {
            throw error
        } catch {
            throw LiveRangingError(device: .devKit, description: "\(error)")
        }
        let central: any BLECentral
        do {
            central = try await BluetoothBackends.openCentral(
                hci, host: hostConfiguration, security: security, capture: hciCapture, logger: logger)
        } catch {
            await client.close()
            throw LiveRangingError(device: .controller, description: "--hci \(hci): \(error)")
        }
        return LiveRanging(client: client, central: central, settings: settings, logger: logger)
    }

    /// The dev kit when exactly one known kit is on USB.
    /// - Throws: ``LiveRangingError`` when there is none or several (naming them).
    public static func onlyDevKit() throws(LiveRangingError) -> UWBDeviceSpec {
        let kits: [AttachedUSBDevice]
        do {
            kits = try UWBDeviceDiscovery.usbDevices()
        } catch {
            throw LiveRangingError(device: .devKit, description: "\(error)")
        }
        guard kits.count == 1, let kit = kits.first else {
            throw LiveRangingError(
                device: .devKit,
                description: kits.isEmpty
                    ? "no UWB dev kit found on USB; plug one in or name it with --uwb (nearby uwb list shows what is there)"
                    : "\(kits.count) dev kits found (\(kits.map(\.spec.description).joined(separator: ", "))); choose one with --uwb")
        }
        return kit.spec
    }

    /// Advertisers of an NI data-channel service heard within `seconds` (for `--all` when no
    /// accessory is set up).
    public func scanForAccessories(seconds: Double) async -> [Advertisement] {
        let services = DataChannelService.known.map(\.service)
        let found = Mutex<[Advertisement]>([])
        // BlueZ filters by the advertised UUID lists below us; the own host reports everything.
        guard let stream = try? await central.scan(ScanParameters(serviceUUIDs: services)) else { return [] }
        let scanning = Task {
            for await advertisement in stream where advertisement.data.serviceUUIDs.contains(where: services.contains) {
                found.withLock { $0.append(advertisement) }
            }
        }
        try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
        scanning.cancel()
        await central.stopScanning()
        return found.withLock { $0 }
    }

    /// Connects each target's data channel and starts its session; while a channel is down, a
    /// reconnection is tried only if the accessory advertises. A target that cannot be
    /// connected is reported through `report` and skipped; the others go on.
    public func connect(_ targets: [RangeTarget], report: (String) -> Void) async {
        for target in targets {
            do {
                let channel = try await central.openDataChannel(
                    to: target.address, type: target.addressType, timeout: .seconds(10), services: target.services)
                channels.withLock { $0.append(channel) }
                var configuration = settings.session
                let address = target.address
                let monitor = monitor
                configuration.advertisingSeenRecently = { await monitor.seenRecently(address) }
                try await manager.add(target.identity, channel: channel, configuration: configuration)
            } catch {
                report("error: \(target.identity): cannot connect: \(error)")
            }
        }
    }

    /// `true` once every session ended by itself (stopped or failed).
    public var allSessionsEnded: Bool {
        get async {
            for session in await manager.allSessions where await !session.state.isFinal { return false }
            return true
        }
    }

    /// Stops every session (stop 0x0C to each accessory, SESSION_STOP / DEINIT), then closes the
    /// data channels, the controller and the dev kit. The manager's events end.
    ///
    /// The channels close together: through BlueZ each close waits for bluetoothd, which ends a
    /// link 2 s after `Device1.Disconnect`, so one after another would take 2 s per accessory.
    public func close() async {
        await manager.stop()
        await withTaskGroup(of: Void.self) { group in
            for channel in channels.withLock({ $0 }) {
                group.addTask { await channel.close() }
            }
        }
        await central.close()
        await client.close()
    }
}

/// Live ranging could not start: which device and why (with what to do).
public struct LiveRangingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which device.
    public enum Device: Sendable, Hashable {
        /// The UWB dev kit (`--uwb`).
        case devKit
        /// The BLE controller (`--hci`).
        case controller
    }

    /// Which device failed.
    public var device: Device
    /// What happened and what to do.
    public var description: String
}

/// Updates a set-up accessory's last-seen time in the store once its session ranges.
public final class StoreTouchOutput: RunOutput, @unchecked Sendable {
    private let store: AccessoryStore
    private let recordIDs: [String: String]
    private var touched = Set<String>()

    /// - Parameters:
    ///   - store: the accessory store.
    ///   - targets: the targets; those with a store record are touched.
    public init(store: AccessoryStore, targets: [RangeTarget]) {
        self.store = store
        self.recordIDs = Dictionary(targets.compactMap { t in t.recordID.map { (t.identity.id, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    public func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        guard case .state(.ranging) = event.kind, let id = event.accessory?.id, let recordID = recordIDs[id],
            touched.insert(id).inserted
        else { return }
        let store = store
        Task { _ = try? await store.touch(recordID) }
    }
}
