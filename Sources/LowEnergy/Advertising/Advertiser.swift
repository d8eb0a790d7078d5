public import Logging
import NearbySupport

/// Something an ``Advertiser`` did.
public enum AdvertiserEvent: Sendable, Hashable, CustomStringConvertible {
    /// Advertising is on (`connections` centrals connected).
    case advertising(connections: Int)
    /// Advertising paused: `connections` centrals are connected, the configured maximum.
    case paused(connections: Int)
    /// The controller would not advertise while `connections` centrals are connected (e.g.
    /// 0x0C Command Disallowed: it cannot advertise in the peripheral role); advertising
    /// resumes when one disconnects.
    case refused(connections: Int, status: HCIStatus)

    /// `advertising (1 connected)`, ...
    public var description: String {
        switch self {
        case .advertising(let count): "advertising (\(count) connected)"
        case .paused(let count): "advertising paused: \(count) connected, the maximum"
        case .refused(let count, let status): "the controller does not advertise with \(count) connected (\(status)); waiting for a disconnection"
        }
    }
}

/// Makes a ``BLEHost`` a connectable peripheral: advertises (``AdvertisingConfiguration``),
/// accepts centrals, and keeps advertising for more of them while connected, up to
/// ``AdvertisingConfiguration/maximumConnections``, when the controller allows; resumes after a
/// disconnection. Sets ``BLEHostConfiguration/acceptsPeripheralConnections`` semantics: create
/// the host with it, or centrals' links are dropped.
///
/// Commands follow the host's command set (never mixed): LE Set Extended Advertising
/// Parameters / Random Address / Data / Scan Response Data / Enable (legacy PDUs, set 0) when
/// the host uses the extended commands, else LE Set Advertising Parameters / Data / Scan
/// Response Data / Enable. Controllers stop advertising when a central connects (an extended
/// set reports Advertising Set Terminated); the advertiser enables it again.
///
/// ```swift
/// let advertiser = Advertiser(host: host, configuration: .accessory(service: DataChannelService.qorvoNI.service, name: "nearby"))
/// try await advertiser.start()
/// ```
public actor Advertiser {
    /// The host advertising.
    public nonisolated let host: BLEHost
    /// What is advertised.
    public nonisolated let configuration: AdvertisingConfiguration
    private let logger: Logger
    private let broadcaster = Broadcaster<AdvertiserEvent>()
    /// `true` while this advertiser believes the controller advertises.
    public private(set) var isAdvertising = false
    /// How many times advertising was enabled (the first start and every resume).
    public private(set) var enableCount = 0
    private var started = false
    private var extended = false
    private var peripheralHandles = Set<UInt16>()
    private var watcher: Task<Void, Never>?
    private static let setHandle: UInt8 = 0

    /// Creates an advertiser (nothing is sent until ``start()``).
    public init(host: BLEHost, configuration: AdvertisingConfiguration, logger: Logger = Logger(label: "nearby.lowenergy.advertiser")) {
        self.host = host
        self.configuration = configuration
        self.logger = logger
    }

    /// What the advertiser does from now on (advertising, paused, refused).
    public nonisolated func events() -> AsyncStream<AdvertiserEvent> { broadcaster.subscribe() }

    /// The centrals connected to the host now.
    public var connectionCount: Int { peripheralHandles.count }

    /// Configures advertising and turns it on; from then on resumes it after connections and
    /// disconnections.
    /// - Throws: ``BluetoothError/invalidArgument(detail:)`` for data that does not fit,
    ///   ``BluetoothError/notReady(detail:)`` before the host started, HCI errors of the
    ///   advertising commands.
    public func start() async throws(BluetoothError) {
        guard !started else { return }
        if let problem = configuration.validationProblem { throw .invalidArgument(detail: problem) }
        guard let own = await host.ownAddress else { throw .notReady(detail: "start the host before advertising") }
        let ownType = await host.ownAddressType
        extended = await host.usesExtendedCommands
        let units = configuration.intervalUnits
        let hci = host.hci
        if extended {
            do {
                try await hci.execute(.leSetExtendedAdvertisingParameters(
                    handle: Self.setHandle, intervalMin: units, intervalMax: units, ownAddressType: ownType))
            } catch .commandFailed(let command, let status) where BLEHost.isRefusal(status) {
                logger.warning("\(command) refused (\(status)): advertising with the legacy commands")
                extended = false
            }
        }
        if extended {
            if ownType == .random {
                try await hci.execute(.leSetAdvertisingSetRandomAddress(handle: Self.setHandle, address: own))
            }
            try await hci.execute(.leSetExtendedAdvertisingData(handle: Self.setHandle, configuration.advertisingData.encoded))
            try await hci.execute(.leSetExtendedScanResponseData(handle: Self.setHandle, configuration.scanResponseData.encoded))
        } else {
            try await hci.execute(.leSetAdvertisingParameters(intervalMin: units, intervalMax: units, ownAddressType: ownType))
            try await hci.execute(.leSetAdvertisingData(configuration.advertisingData.encoded))
            try await hci.execute(.leSetScanResponseData(configuration.scanResponseData.encoded))
        }
        started = true
        peripheralHandles = Set(await host.activeConnections.filter { $0.role == .peripheral }.map(\.handle))
        let events = host.events()
        watcher = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(event)
            }
        }
        logger.info("advertising as \(own) (\(ownType)) every \(configuration.intervalMilliseconds) ms, \(extended ? "extended" : "legacy") commands: \(configuration.advertisingData.encoded.count) + \(configuration.scanResponseData.encoded.count) bytes")
        try await enableIfRoom()
    }

    /// Turns advertising off (the connections stay).
    public func stop() async {
        guard started else { return }
        started = false
        watcher?.cancel()
        watcher = nil
        if isAdvertising {
            isAdvertising = false
            do {
                try await host.hci.execute(extended ? .leSetExtendedAdvertisingEnable(false, handle: Self.setHandle) : .leSetAdvertisingEnable(false))
            } catch {
                logger.debug("disabling advertising: \(error)")
            }
        }
    }

    private func handle(_ event: BLEHostEvent) async {
        switch event {
        case .connected(let connection) where connection.role == .peripheral:
            peripheralHandles.insert(connection.handle)
            // The controller stopped advertising when the central connected.
            isAdvertising = false
            logger.info("\(connection.peerAddress) connected (\(peripheralHandles.count) of \(configuration.maximumConnections))")
        case .disconnected(let address, let handle, let reason):
            guard peripheralHandles.remove(handle) != nil else { return }
            logger.info("\(address) disconnected (\(reason)); \(peripheralHandles.count) connected")
        case .transportClosed:
            started = false
            isAdvertising = false
            return
        default:
            return
        }
        guard started else { return }
        do {
            try await enableIfRoom()
        } catch {
            logger.warning("could not resume advertising: \(error)")
        }
    }

    /// Enables advertising unless it is on or the maximum of connections is reached.
    private func enableIfRoom() async throws(BluetoothError) {
        let count = peripheralHandles.count
        guard count < configuration.maximumConnections else {
            if isAdvertising {
                // A controller may keep advertising after a connection: stop at the limit.
                _ = try? await host.hci.execute(extended ? .leSetExtendedAdvertisingEnable(false, handle: Self.setHandle) : .leSetAdvertisingEnable(false))
                isAdvertising = false
            }
            logger.info("\(count) centrals connected, the maximum: advertising paused")
            broadcaster.yield(.paused(connections: count))
            return
        }
        guard !isAdvertising else { return }
        do {
            try await host.hci.execute(extended ? .leSetExtendedAdvertisingEnable(true, handle: Self.setHandle) : .leSetAdvertisingEnable(true))
        } catch .commandFailed(_, let status) where count > 0 && (status == .commandDisallowed || BLEHost.isRefusal(status) || status.rawValue == 0x12) {
            logger.info("the controller does not advertise while \(count) central(s) are connected (\(status)); advertising resumes after a disconnection")
            broadcaster.yield(.refused(connections: count, status: status))
            return
        }
        isAdvertising = true
        enableCount += 1
        broadcaster.yield(.advertising(connections: count))
    }
}
