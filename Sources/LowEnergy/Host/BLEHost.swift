public import Logging
import NearbySupport
import NearbyBase

/// Something that happened on the host.
public enum BLEHostEvent: Sendable {
    /// A connection was established.
    case connected(BLEConnection)
    /// A connection ended.
    case disconnected(address: BluetoothAddress, handle: UInt16, reason: HCIStatus)
    /// The controller reported a hardware error (`code` is vendor-specific); reset or replug it.
    case hardwareError(code: UInt8)
    /// The transport closed; the host is unusable (`error` says why).
    case transportClosed(BluetoothError)
}

/// The BLE central: drives one controller through ``HCIHost`` and offers scanning and
/// connections (the GAP role "central").
///
/// ```swift
/// let host = try await BLEHost.open(try HCITransportSpec(parsing: "tcp:127.0.0.1:5000"))
/// for await advertisement in try await host.scan() { ... }
/// let connection = try await host.connect(to: address, type: .random)
/// ```
///
/// ``start()`` resets and configures the controller for hardware, not only for emulators: event
/// masks (LE meta events incl. Enhanced Connection Complete and Extended Advertising Report), a
/// random static own address set before it is used, legacy or extended commands consistently
/// (never mixed), the LE buffer size for ACL flow control.
public actor BLEHost {
    /// The HCI layer (for raw commands and diagnostics).
    public nonisolated let hci: HCIHost
    /// The configuration.
    public nonisolated let configuration: BLEHostConfiguration
    private let logger: Logger

    /// What ``start()`` learned about the controller (`nil` before).
    public private(set) var controller: ControllerInfo?
    /// The own address used for scanning and connecting (`nil` before ``start()``).
    public private(set) var ownAddress: BluetoothAddress?
    /// The own address type (random unless configured public).
    public private(set) var ownAddressType: BluetoothAddressType = .random
    /// `true` if the host uses the extended (Bluetooth 5) scan and connect commands.
    public private(set) var usesExtendedCommands = false

    /// Pairing policy, bond store, pairing delegate and identity for every connection.
    public private(set) var security: SecurityContext
    private var eventTask: Task<Void, Never>?
    private let hostEvents = Broadcaster<BLEHostEvent>()
    private var closedError: BluetoothError?

    // Scanning
    private var scanContinuations: [UInt64: AsyncStream<Advertisement>.Continuation] = [:]
    private var nextScanID: UInt64 = 0
    private var isScanning = false
    private let scanLock = AsyncLock()
    private var accumulator = AdvertisementAccumulator()
    /// IRKs of bonded devices, to resolve private addresses in reports (host-side `ah`).
    private var resolvingKeys: [ResolvingKey] = []
    private var resolved: [BluetoothAddress: IdentityAddress] = [:]
    private var unresolvable: Set<BluetoothAddress> = []
    /// The latest resolvable private address heard from each bonded identity.
    private var privateAddresses: [BluetoothAddress: (address: BluetoothAddress, at: ContinuousClock.Instant)] = [:]

    // Connections
    private enum ConnectOutcome: Sendable {
        case connected(BLEConnection)
        case failed(HCIStatus)
    }
    private struct PendingConnect {
        let address: BluetoothAddress
        let options: ConnectionOptions
        let completion: Promise<ConnectOutcome>
        var afterAbort: Promise<ConnectOutcome>?
        var cancelRequested = false
    }
    private var pendingConnect: PendingConnect?
    private var connections: [UInt16: BLEConnection] = [:]
    /// The GATT server every new connection's client is answered by (`nil`: none).
    private var gattServer: GATTServer?

    /// Creates a host over an opened transport. Call ``start()`` before anything else.
    /// - Parameters:
    ///   - transport: the opened HCI transport (the host owns it from now on).
    ///   - configuration: timeouts, scan and connection parameters.
    ///   - security: how connections pair and where bonds live (default: Just Works only, bonds
    ///     in memory, a fresh identity).
    ///   - logger: where the host logs (label it; the CLI configures the level).
    public init(transport: any HCITransport, configuration: BLEHostConfiguration = BLEHostConfiguration(),
                security: SecurityContext = SecurityContext(), logger: Logger = Logger(label: "nearby.lowenergy")) {
        self.configuration = configuration
        self.security = security
        self.logger = logger
        self.hci = HCIHost(transport: transport, commandTimeout: configuration.commandTimeout, logger: logger)
    }

    /// Opens the transport `spec` names and starts a host on it.
    /// - Parameters:
    ///   - spec: the controller: `hci:N`, `serial:PATH[@BAUD]` or `tcp:HOST:PORT`.
    ///   - configuration: timeouts, scan and connection parameters.
    ///   - security: how connections pair and where bonds live.
    ///   - capture: where every HCI packet is recorded (`--hci-log`), `nil` for nowhere.
    ///   - logger: where the host logs.
    /// - Throws: the transport's ``BluetoothError`` (with the fix for permissions, bluetoothd, ...)
    ///   or any error of ``start()``; the transport is closed again on failure.
    public static func open(_ spec: HCITransportSpec, configuration: BLEHostConfiguration = BLEHostConfiguration(),
                            security: SecurityContext = SecurityContext(), capture: HCICaptureLog? = nil,
                            logger: Logger = Logger(label: "nearby.lowenergy")) async throws(BluetoothError) -> BLEHost {
        let opened = try await spec.open()
        let transport = capture.map { opened.capturing(to: $0) } ?? opened
        let host = BLEHost(transport: transport, configuration: configuration, security: security, logger: logger)
        do {
            try await host.start()
        } catch {
            await host.close()
            throw error
        }
        return host
    }

    /// Host events from now on (connections, disconnections, controller failures).
    public nonisolated func events() -> AsyncStream<BLEHostEvent> {
        hostEvents.subscribe()
    }

    /// The connections that are up.
    public var activeConnections: [BLEConnection] { Array(connections.values) }

    /// Serves `server`'s attributes to the ATT client of every connection made from now on
    /// (`nil`: none; requests then get errors). Set it before advertising.
    public func setGATTServer(_ server: GATTServer?) {
        gattServer = server
    }

    /// Replaces the security context for connections made from now on.
    public func setSecurity(_ context: SecurityContext) {
        security = context
    }

    // MARK: - Start

    /// Resets and configures the controller. Idempotent (returns the same info once started).
    ///
    /// Sequence: Reset, Read Local Version Information, Read Local Supported Commands, Read
    /// BD_ADDR, LE Read Local Supported Features, LE Read Buffer Size (Read Buffer Size if the LE
    /// buffers are shared), Set Event Mask, LE Set Event Mask (the controller version's events),
    /// LE Set Random Address.
    /// - Throws: ``BluetoothError/timeout(operation:timeout:hint:)`` naming a command the controller
    ///   never answered, ``BluetoothError/commandFailed(command:status:)``, transport errors.
    @discardableResult
    public func start() async throws(BluetoothError) -> ControllerInfo {
        if let controller { return controller }
        if let closedError { throw closedError }
        await hci.start()
        if eventTask == nil {
            let events = hci.events
            eventTask = Task {
                for await event in events {
                    await self.handle(event)
                }
                await self.hciEventsEnded()
            }
        }
        // Every command of the start sequence gets the longer start timeout (Linux's
        // HCI_INIT_TIMEOUT); the commands after it get commandTimeout.
        let starting = configuration.resetTimeout
        try await hci.execute(.reset, timeout: starting)
        var reader = ByteReader(try await hci.execute(.readLocalVersionInformation, timeout: starting))
        guard let hciVersion = reader.u8(), let hciRevision = reader.u16(), let lmpVersion = reader.u8(),
              let manufacturer = reader.u16(), let lmpSubversion = reader.u16() else {
            throw .malformedPacket(detail: "short Read Local Version Information response")
        }
        // Which commands the controller has (some claim extended advertising but refuse the
        // extended scan / connect commands); controllers before 1.2 may not answer it at all.
        var supportedCommands: SupportedCommands?
        do {
            let octets = try await hci.execute(.readLocalSupportedCommands, timeout: starting)
            supportedCommands = octets.count >= 64 ? SupportedCommands(octets: octets) : nil
        } catch .commandFailed {
            supportedCommands = nil
        }
        await hci.configureSupportedCommands(supportedCommands)
        reader = ByteReader(try await hci.execute(.readBDADDR, timeout: starting))
        guard let publicAddress = reader.address() else { throw .malformedPacket(detail: "short Read BD_ADDR response") }
        reader = ByteReader(try await hci.execute(.leReadLocalSupportedFeatures, timeout: starting))
        guard let featureBits = reader.u64() else { throw .malformedPacket(detail: "short LE Read Local Supported Features response") }
        let features = LEFeatures(rawValue: featureBits)
        reader = ByteReader(try await hci.execute(.leReadBufferSize, timeout: starting))
        guard var packetLength = reader.u16().map(Int.init), var packetCount = reader.u8().map(Int.init) else {
            throw .malformedPacket(detail: "short LE Read Buffer Size response")
        }
        if packetLength == 0 || packetCount == 0 {
            // LE shares the BR/EDR buffers.
            reader = ByteReader(try await hci.execute(.readBufferSize, timeout: starting))
            guard let length = reader.u16(), reader.u8() != nil, let count = reader.u16() else {
                throw .malformedPacket(detail: "short Read Buffer Size response")
            }
            packetLength = Int(length)
            packetCount = Int(count)
        }
        await hci.configureACL(packetLength: packetLength, packetCount: packetCount)
        try await hci.execute(.setEventMask(Self.eventMask), timeout: starting)
        let leMask = Self.leEventMask(hciVersion: hciVersion)
        do {
            try await hci.execute(.leSetEventMask(leMask), timeout: starting)
        } catch .commandFailed(_, let status) where status == .invalidParameters && leMask != Self.leEventMask40 {
            // An old controller that rejects bits it does not know (Bumble's host falls back the same way).
            logger.info("the controller refused LE event mask 0x\(String(leMask, radix: 16)); using the Bluetooth 4.0 mask")
            try await hci.execute(.leSetEventMask(Self.leEventMask40), timeout: starting)
        }

        var identity = security.identity
        if let provider = security.identityProvider {
            do {
                identity = try await provider.identity(controller: publicAddress, usePublicAddress: configuration.ownAddress == .public)
            } catch {
                throw .security(error)
            }
        }
        switch configuration.ownAddress {
        case .randomStatic(let fixed):
            let stored = identity.flatMap { $0.address.type == .random ? $0.address.address : nil }
            let address = fixed ?? stored ?? BluetoothAddress.randomStatic()
            guard address.randomAddressKind == .staticAddress else {
                throw .invalidArgument(detail: "own address \(address) is not a random static address (its two top bits must be 11, e.g. C0:...)")
            }
            try await hci.execute(.leSetRandomAddress(address), timeout: starting)
            ownAddress = address
            ownAddressType = .random
        case .public:
            ownAddress = publicAddress
            ownAddressType = .public
        }
        // The identity distributed when pairing: the own address, with a stored or fresh IRK.
        let ownIdentity = IdentityAddress(address: ownAddress ?? publicAddress, type: ownAddressType)
        security.identity = LocalIdentity(address: ownIdentity, irk: identity?.irk ?? .random())
        switch configuration.commandSet {
        case .automatic:
            usesExtendedCommands = features.contains(.extendedAdvertising) && (supportedCommands?.hasExtendedScanAndConnect ?? true)
        case .legacy: usesExtendedCommands = false
        case .extended: usesExtendedCommands = true
        }
        let info = ControllerInfo(
            hciVersion: hciVersion, hciRevision: hciRevision, lmpVersion: lmpVersion, manufacturer: manufacturer,
            lmpSubversion: lmpSubversion, publicAddress: publicAddress, leFeatures: features,
            aclPacketLength: packetLength, aclPacketCount: packetCount)
        controller = info
        await refreshResolvingKeys()
        logger.info("\(info); own address \(ownAddress.map(\.description) ?? "?") (\(ownAddressType)), \(usesExtendedCommands ? "extended" : "legacy") commands")
        return info
    }

    /// Disconnection Complete, Encryption Change, Hardware Error, Data Buffer Overflow,
    /// Encryption Key Refresh Complete, LE Meta.
    static let eventMask: UInt64 = 1 << 4 | 1 << 7 | 1 << 15 | 1 << 25 | 1 << 47 | 1 << 61
    /// LE Connection Complete, Advertising Report, Connection Update Complete, Read Remote
    /// Features Complete, Long Term Key Request, Remote Connection Parameter Request, Data
    /// Length Change, Enhanced Connection Complete, PHY Update Complete, Extended Advertising Report.
    static let leEventMask: UInt64 = 0x7F | 1 << 9 | 1 << 11 | 1 << 12
    /// The five LE events of Bluetooth 4.0 (Connection Complete ... Long Term Key Request).
    static let leEventMask40: UInt64 = 0x1F

    /// The LE events the controller's version defines (a CSR8510 or an old Raspberry Pi
    /// controller rejects unknown bits): 4.0 five events, 4.1 + Remote Connection Parameter
    /// Request, 4.2 + Data Length Change and Enhanced Connection Complete, 5.0 and later all.
    public static func leEventMask(hciVersion: UInt8) -> UInt64 {
        switch hciVersion {
        case ..<7: return leEventMask40
        case 7: return 0x3F
        case 8: return 0x7F | 1 << 9
        default: return leEventMask
        }
    }

    /// A status meaning "this controller does not do that command" (not a state problem).
    static func isRefusal(_ status: HCIStatus) -> Bool {
        status == .unknownCommand || status.rawValue == 0x11
    }

    private func requireStarted() throws(BluetoothError) {
        if let closedError { throw closedError }
        guard controller != nil else { throw .notReady(detail: "call start() first") }
    }

    // MARK: - Scanning

    /// Starts scanning (if not already) and returns a stream of every advertising report from
    /// now on; no duplicate filtering. Scanning stops when every returned stream has ended
    /// (the consumer stopped iterating or ``stopScanning()``).
    ///
    /// A second caller while scanning joins the running scan (its parameters win). The stream
    /// keeps the newest 1024 reports if its consumer falls behind.
    /// - Throws: ``BluetoothError/invalidArgument(detail:)`` for bad parameters, HCI errors
    ///   from the scan commands, ``BluetoothError/notReady(detail:)`` before ``start()``.
    public func scan(_ parameters: ScanParameters = ScanParameters()) async throws(BluetoothError) -> AsyncStream<Advertisement> {
        try requireStarted()
        if let problem = parameters.validationProblem { throw .invalidArgument(detail: problem) }
        do {
            try await scanLock.lock()
        } catch {
            throw .cancelled(operation: "starting a scan")
        }
        defer { scanLock.unlock() }
        if !isScanning {
            accumulator.reset()
            await refreshResolvingKeys()
            if usesExtendedCommands {
                do {
                    try await hci.execute(.leSetExtendedScanParameters(
                        active: parameters.active, interval: parameters.interval, window: parameters.window, ownAddressType: ownAddressType))
                } catch .commandFailed(let command, let status) where Self.isRefusal(status) {
                    logger.warning("\(command) refused (\(status)): falling back to the legacy scan and connect commands")
                    usesExtendedCommands = false
                }
            }
            if usesExtendedCommands {
                try await hci.execute(.leSetExtendedScanEnable(true, filterDuplicates: parameters.controllerFiltersDuplicates))
            } else {
                try await hci.execute(.leSetScanParameters(
                    active: parameters.active, interval: parameters.interval, window: parameters.window, ownAddressType: ownAddressType))
                try await hci.execute(.leSetScanEnable(true, filterDuplicates: parameters.controllerFiltersDuplicates))
            }
            isScanning = true
            logger.debug("scanning (\(parameters.active ? "active" : "passive"))")
        }
        let id = nextScanID
        nextScanID += 1
        let (stream, continuation) = AsyncStream<Advertisement>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        continuation.onTermination = { [weak self] _ in
            Task { await self?.scannerEnded(id) }
        }
        scanContinuations[id] = continuation
        return stream
    }

    /// `true` while the controller scans.
    public var scanning: Bool { isScanning }

    /// Ends every scan stream and stops scanning.
    public func stopScanning() async {
        let continuations = scanContinuations.values
        scanContinuations.removeAll()
        for continuation in continuations { continuation.finish() }
        await disableScanIfIdle()
    }

    private func scannerEnded(_ id: UInt64) async {
        scanContinuations[id] = nil
        await disableScanIfIdle()
    }

    /// Enables or disables scanning at the controller without touching the scan streams (a
    /// pause while connecting). Returns `true` if the command went through.
    private func setScanEnabled(_ enable: Bool) async -> Bool {
        guard isScanning, closedError == nil else { return false }
        do {
            if usesExtendedCommands {
                try await hci.execute(.leSetExtendedScanEnable(enable))
            } else {
                try await hci.execute(.leSetScanEnable(enable))
            }
            logger.debug("scanning \(enable ? "resumed" : "paused")")
            return true
        } catch {
            logger.warning("could not \(enable ? "resume" : "pause") scanning: \(error)")
            return false
        }
    }

    private func disableScanIfIdle() async {
        do {
            try await scanLock.lock()
        } catch {
            return
        }
        defer { scanLock.unlock() }
        guard isScanning, scanContinuations.isEmpty, closedError == nil else { return }
        do {
            if usesExtendedCommands {
                try await hci.execute(.leSetExtendedScanEnable(false))
            } else {
                try await hci.execute(.leSetScanEnable(false))
            }
        } catch {
            logger.warning("could not stop scanning: \(error)")
        }
        isScanning = false
        logger.debug("scanning stopped")
    }

    private func handleReports(_ reports: [AdvertisingReport]) {
        guard isScanning, !scanContinuations.isEmpty else { return }
        let now = ContinuousClock.now
        for report in reports {
            var advertisement: Advertisement
            switch accumulator.add(report, at: now) {
            case .pending:
                continue
            case .truncated(let complete):
                logger.debug("truncated extended advertising data from \(report.address)")
                advertisement = complete
            case .advertisement(let complete):
                advertisement = complete
            }
            if report.addressType == .publicIdentity || report.addressType == .randomIdentity {
                // Resolved by the controller (a resolving list someone else set up).
                advertisement.identity = IdentityAddress(address: report.address, type: report.addressType.connectable)
            } else {
                advertisement.identity = identity(of: report.address)
            }
            if let identity = advertisement.identity {
                privateAddresses[identity.address] = (report.address, now)
            }
            if !advertisement.reportData.problems.isEmpty {
                logger.debug("malformed advertising data from \(report.address): \(advertisement.reportData.problems.joined(separator: "; "))")
            }
            for continuation in scanContinuations.values { continuation.yield(advertisement) }
        }
    }

    /// The identity a stored IRK resolves `address` to (resolvable private addresses only).
    private func identity(of address: BluetoothAddress) -> IdentityAddress? {
        guard !resolvingKeys.isEmpty, address.randomAddressKind == .resolvablePrivate else { return nil }
        if let known = resolved[address] { return known }
        if unresolvable.contains(address) { return nil }
        if resolved.count + unresolvable.count >= 4096 {
            resolved.removeAll()
            unresolvable.removeAll()
        }
        if let identity = ResolvablePrivateAddress.resolve(address, among: resolvingKeys) {
            resolved[address] = identity
            return identity
        }
        unresolvable.insert(address)
        return nil
    }

    /// The address a bonded device with a resolvable private address advertises from now:
    /// the latest one heard (within 15 s), else one found by a short scan (at most `within`,
    /// ending as soon as the device is heard under either address). `nil` if `identity` has
    /// no stored IRK or was not heard.
    private func currentPrivateAddress(of identity: BluetoothAddress, within: Duration) async -> BluetoothAddress? {
        guard resolvingKeys.contains(where: { $0.identity.address == identity }) else { return nil }
        if let seen = privateAddresses[identity], seen.at.duration(to: .now) < .seconds(15) { return seen.address }
        guard let stream = try? await scan() else { return nil }
        let found = try? await withTimeout(within, operation: "looking for \(identity)") {
            for await advertisement in stream {
                // Heard under a private address, or under the identity itself (no privacy).
                if advertisement.identity?.address == identity || advertisement.address == identity { return advertisement.address }
            }
            return nil as BluetoothAddress?
        }
        return found ?? nil
    }

    /// Reloads the IRKs of bonded devices from the bond store (done at start, at every scan
    /// start and after pairing), so reports from their resolvable private addresses carry
    /// ``Advertisement/identity``.
    public func refreshResolvingKeys() async {
        resolvingKeys = await security.bonds.resolvingKeys()
        resolved.removeAll()
        unresolvable.removeAll()
    }

    // MARK: - Connecting

    /// Connects to the accessory at `address` (this host becomes the central), then exchanges
    /// MTUs (``ConnectionOptions/preferredMTU``).
    ///
    /// Idempotent: an existing connection to `address` is returned. One attempt at a time per
    /// controller (an HCI rule): a second concurrent call fails with ``BluetoothError/busy(detail:)``.
    /// On timeout or task cancellation the attempt is cancelled at the controller (LE Create
    /// Connection Cancel) before this returns, so the next attempt is not refused.
    /// - Parameters:
    ///   - address: the accessory's address.
    ///   - type: the address type from the advertisement (identity types map to their base).
    ///   - timeout: how long to wait for the accessory to answer.
    ///   - options: the MTU to ask for and the connection parameters.
    /// - Throws: ``BluetoothError/timeout(operation:timeout:hint:)`` (accessory not answering),
    ///   ``BluetoothError/connectionCancelled(address:)`` (``cancelConnect()`` or task
    ///   cancellation), ``BluetoothError/commandFailed(command:status:)`` (e.g. 0x3E Connection
    ///   Failed to be Established), ``BluetoothError/busy(detail:)``, transport errors.
    public func connect(to address: BluetoothAddress, type: BluetoothAddressType, timeout: Duration = .seconds(10),
                        options: ConnectionOptions = ConnectionOptions()) async throws(BluetoothError) -> BLEConnection {
        try requireStarted()
        if let existing = connections.values.first(where: { $0.peerAddress == address && $0.isConnected }) {
            return existing
        }
        if let pending = pendingConnect {
            throw .busy(detail: "a connection attempt to \(pending.address) is in progress; wait for it or call cancelConnect()")
        }
        if let problem = options.parameters.validationProblem { throw .invalidArgument(detail: problem) }
        // A bonded accessory that uses resolvable private addresses is reached at its current one.
        var address = address
        var type = type
        if let current = await currentPrivateAddress(of: address, within: .seconds(3)), current != address {
            logger.info("\(address) advertises as \(current) (resolved with its IRK); connecting there")
            address = current
            type = .random
            if let existing = connections.values.first(where: { $0.peerAddress == address && $0.isConnected }) {
                return existing
            }
        }
        let completion = Promise<ConnectOutcome>()
        pendingConnect = PendingConnect(address: address, options: options, completion: completion)
        defer { pendingConnect = nil }
        let peerType = type.connectable
        let command: HCICommand = usesExtendedCommands
            ? .leExtendedCreateConnection(peer: address, peerType: peerType, ownAddressType: ownAddressType, parameters: options.parameters)
            : .leCreateConnection(peer: address, peerType: peerType, ownAddressType: ownAddressType, parameters: options.parameters)
        logger.debug("connecting to \(address) (\(peerType))")
        var pausedScan = false
        do {
            try await hci.execute(command)
        } catch .commandFailed(let name, let status) where usesExtendedCommands && Self.isRefusal(status) {
            // Claims extended advertising but refuses the extended command: legacy from now on.
            logger.warning("\(name) refused (\(status)): falling back to the legacy scan and connect commands")
            usesExtendedCommands = false
            try await hci.execute(.leCreateConnection(peer: address, peerType: peerType, ownAddressType: ownAddressType, parameters: options.parameters))
        } catch .commandFailed(_, let status) where status == .commandDisallowed && isScanning {
            // Some controllers cannot scan and initiate at once: pause the scan while connecting.
            logger.info("the controller cannot connect while scanning: pausing the scan")
            pausedScan = await setScanEnabled(false)
            try await hci.execute(command)
        }
        defer {
            if pausedScan { Task { _ = await self.setScanEnabled(true) } }
        }

        let outcome: ConnectOutcome
        do {
            outcome = try await completion.value(timeout: timeout, operation: "connecting to \(address)")
        } catch let error as BluetoothError {
            throw error
        } catch {
            // Timed out, or the caller's task was cancelled: cancel at the controller, uninterrupted.
            let late = await Task { await self.abortPendingConnect() }.value
            if case .connected(let connection)? = late {
                logger.info("the connection to \(address) completed while being cancelled; disconnecting it")
                _ = try? await connection.disconnect()
            }
            if error is TimeoutError {
                throw .timeout(
                    operation: "connecting to \(address) (\(peerType))", timeout: timeout,
                    hint: "the accessory did not answer: is it advertising, in range, and not connected to another device?")
            }
            throw .connectionCancelled(address: address)
        }
        switch outcome {
        case .failed(let status):
            if status == .unknownConnectionIdentifier && pendingConnect?.cancelRequested == true {
                throw .connectionCancelled(address: address)
            }
            throw .commandFailed(command: "LE Create Connection to \(address)", status: status)
        case .connected(let connection):
            if pendingConnect?.cancelRequested == true {
                _ = try? await connection.disconnect()
                throw .connectionCancelled(address: address)
            }
            if options.preferredMTU != nil {
                do {
                    try await connection.exchangeMTU()
                } catch .attError(let code, _, _) {
                    logger.info("the accessory refused the MTU exchange (\(code)); ATT_MTU stays 23")
                } catch {
                    _ = try? await connection.disconnect()
                    throw error
                }
            }
            logger.info("connected to \(address): handle 0x\(hex(connection.handle)), ATT_MTU \(connection.mtu)")
            if security.configuration.encryptWhenBonded, await connection.security.storedBond()?.peerLongTermKey != nil {
                do {
                    try await connection.encrypt()
                    logger.info("encrypted the link to \(address) with the stored bond")
                } catch {
                    // Reported on the connection (securityFailed); ATT requests that need
                    // encryption then fail with this error instead of pairing again.
                    logger.warning("\(error)")
                }
            }
            return connection
        }
    }

    /// Cancels the connection attempt in progress, if any; its ``connect(to:type:timeout:options:)``
    /// throws ``BluetoothError/connectionCancelled(address:)``. Idempotent.
    public func cancelConnect() async {
        guard let pending = pendingConnect, !pending.cancelRequested else { return }
        pendingConnect?.cancelRequested = true
        do {
            try await hci.execute(.leCreateConnectionCancel)
        } catch {
            // 0x0C: nothing pending at the controller any more (the attempt just completed).
            logger.debug("LE Create Connection Cancel: \(error)")
        }
        // The controller reports the cancelled attempt (Connection Complete, status 0x02), which
        // settles connect(). Some emulators never do: settle it ourselves after a grace period.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(2))
        while !pending.completion.isSettled && clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if pending.completion.fail(BluetoothError.connectionCancelled(address: pending.address)) {
            logger.warning("the controller did not report the cancelled connection attempt; its state may be stale (reset it if the next connect is refused)")
        }
    }

    /// Sends LE Create Connection Cancel for a timed-out or cancelled attempt and waits (up to
    /// 2 s) for the controller's report of it. Returns that report, if any.
    private func abortPendingConnect() async -> ConnectOutcome? {
        guard pendingConnect != nil else { return nil }
        let afterAbort = Promise<ConnectOutcome>()
        pendingConnect?.afterAbort = afterAbort
        do {
            try await hci.execute(.leCreateConnectionCancel)
        } catch {
            logger.debug("LE Create Connection Cancel: \(error)")
        }
        return try? await afterAbort.value(timeout: .seconds(2), operation: "the report of the cancelled connection attempt")
    }

    // MARK: - Events

    private func handle(_ event: HCIEvent) async {
        switch event {
        case .le(.advertisingReports(let reports)):
            handleReports(reports)
        case .le(.connectionComplete(let complete)):
            await handleConnectionComplete(complete)
        case .disconnectionComplete(let status, let handle, let reason):
            guard status == .success else {
                logger.warning("disconnecting 0x\(hex(handle)) failed: \(status)")
                return
            }
            guard let connection = connections.removeValue(forKey: handle) else { return }
            await connection.didDisconnect(reason: reason)
            hostEvents.yield(.disconnected(address: connection.peerAddress, handle: handle, reason: reason))
        case .le(.connectionUpdateComplete(let status, let handle, let interval, let latency, let timeout)):
            guard status == .success, let connection = connections[handle] else { return }
            await connection.didUpdateParameters(interval: interval, latency: latency, supervisionTimeout: timeout)
        case .le(.remoteConnectionParameterRequest(let handle, let low, let high, let latency, let timeout)):
            let parameters = ConnectionParameters(intervalMin: low, intervalMax: high, latency: latency, supervisionTimeout: timeout)
            let command: HCICommand = parameters.validationProblem == nil
                ? .leRemoteConnectionParameterRequestReply(handle: handle, parameters: parameters)
                : .leRemoteConnectionParameterRequestNegativeReply(handle: handle, reason: .unacceptableConnectionParameters)
            do {
                try await hci.execute(command)
            } catch {
                logger.warning("answering the connection parameter request of 0x\(hex(handle)) failed: \(error)")
            }
        case .hardwareError(let code):
            logger.error("the controller reports hardware error 0x\(hex(code)); reset or replug it")
            hostEvents.yield(.hardwareError(code: code))
        case .encryptionChange(let status, let handle, let enabled):
            logger.info("encryption on 0x\(hex(handle)): \(enabled != 0 ? "on" : "off") (\(status))")
            await connections[handle]?.security.encryptionChanged(status: status, enabled: enabled != 0)
        case .encryptionKeyRefreshComplete(let status, let handle):
            logger.info("encryption key refreshed on 0x\(hex(handle)) (\(status))")
            await connections[handle]?.security.encryptionChanged(status: status, enabled: status == .success)
        case .le(.longTermKeyRequest(let handle, let rand, let ediv)):
            let key = await connections[handle]?.security.longTermKey(rand: rand, ediv: ediv)
            let command: HCICommand = key.map { .leLongTermKeyRequestReply(handle: handle, key: $0) }
                ?? .leLongTermKeyRequestNegativeReply(handle: handle)
            do {
                try await hci.execute(command)
            } catch {
                logger.warning("answering the Long Term Key Request of 0x\(hex(handle)) failed: \(error)")
            }
        default:
            logger.trace("event \(event)")
        }
    }

    private func handleConnectionComplete(_ complete: LEConnectionComplete) async {
        let outcome: ConnectOutcome
        if complete.status == .success {
            guard complete.role == 0 || configuration.acceptsPeripheralConnections else {
                // Not advertising for connections: a peripheral-role link is not ours to keep.
                logger.warning("unexpected peripheral-role connection from \(complete.peerAddress); disconnecting")
                let hci = hci
                Task { _ = try? await hci.execute(.disconnect(handle: complete.handle, reason: .remoteUserTerminatedConnection)) }
                return
            }
            // A central connecting to this host offers the peripheral MTU; our own attempts theirs.
            let options = complete.role == 0 ? pendingConnect?.options ?? ConnectionOptions() : ConnectionOptions()
            let localMTU = complete.role == 0 ? options.preferredMTU ?? UInt16(attDefaultMTU) : configuration.peripheralMTU
            let local = IdentityAddress(address: ownAddress ?? .zero, type: ownAddressType)
            let connection = BLEConnection(
                complete: complete, hci: hci, localMTU: localMTU, attTimeout: options.attTimeout, localAddress: local,
                securityContext: security, attributeServer: gattServer, logger: logger)
            connections[complete.handle] = connection
            if let inbound = await hci.inboundPDUs(handle: complete.handle) {
                await connection.activate(inbound: inbound)
            }
            hostEvents.yield(.connected(connection))
            // A central connected to this host: nobody's connect() waits for it.
            if complete.role != 0 { return }
            outcome = .connected(connection)
        } else {
            outcome = .failed(complete.status)
        }
        if let pending = pendingConnect {
            if pending.completion.fulfill(outcome) { return }
            if pending.afterAbort?.fulfill(outcome) == true { return }
        }
        if case .connected(let connection) = outcome {
            logger.warning("connection to \(complete.peerAddress) completed with no attempt waiting for it; disconnecting")
            // Not awaited here: its Disconnection Complete is handled by this very event loop.
            Task { _ = try? await connection.disconnect() }
        }
    }

    private func hciEventsEnded() async {
        let error = await hci.closeReason ?? .transportClosed(transport: hci.transport.name, reason: "closed")
        closedError = error
        for continuation in scanContinuations.values { continuation.finish() }
        scanContinuations.removeAll()
        isScanning = false
        pendingConnect?.completion.fail(error)
        pendingConnect?.afterAbort?.fail(error)
        for (handle, connection) in connections {
            await connection.didDisconnect(reason: .connectionTerminatedByLocalHost)
            hostEvents.yield(.disconnected(address: connection.peerAddress, handle: handle, reason: .connectionTerminatedByLocalHost))
        }
        connections.removeAll()
        hostEvents.yield(.transportClosed(error))
        hostEvents.finish()
    }

    // MARK: - Close

    /// Stops scanning, disconnects every connection (briefly waiting for each) and closes the
    /// transport. The host cannot be used afterwards.
    public func close() async {
        if closedError == nil, controller != nil {
            await stopScanning()
            for connection in connections.values {
                _ = try? await connection.disconnect(timeout: .seconds(1))
            }
        }
        await hci.close()
        if let eventTask { await eventTask.value }
    }
}
