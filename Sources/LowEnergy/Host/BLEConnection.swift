import Logging
import NearbySupport
import Synchronization

/// Something that happened on a connection.
public enum ConnectionEvent: Sendable, Hashable {
    /// The connection ended; `reason` as the controller reported it (0x08 link lost, 0x13 the
    /// accessory closed it, 0x16 this host closed it, ...).
    case disconnected(reason: HCIStatus)
    /// The link-layer parameters changed (interval in 1.25 ms units, latency in events,
    /// supervision timeout in 10 ms units).
    case parametersUpdated(interval: UInt16, latency: UInt16, supervisionTimeout: UInt16)
    /// The ATT_MTU changed.
    case mtuChanged(Int)
    /// The accessory sent a Security Request (this host encrypts or pairs, per its policy).
    case securityRequested
    /// Pairing completed (keys stored if bonding was agreed).
    case paired(method: PairingMethod, keySize: Int, secureConnections: Bool)
    /// The link was encrypted with a stored bond.
    case encryptionChanged(level: SecurityLevel, keySize: Int)
    /// Pairing or encryption failed (e.g. ``SecurityError/keyMissing(peer:)``).
    case securityFailed(SecurityError)
}

/// One LE connection: its L2CAP fixed channels, its GATT client, its Security Manager and its
/// events.
///
/// Created by ``BLEHost/connect(to:type:timeout:options:)`` (this host is the central) or, with
/// ``BLEHostConfiguration/acceptsPeripheralConnections``, when a central connects to this host.
/// Inbound L2CAP traffic is demultiplexed here: ATT (channel 4) to ``gatt``, LE signaling (5:
/// connection parameter updates are answered), Security Manager (6) to ``security``.
///
/// An ATT request refused for Insufficient Authentication / Encryption / Encryption Key Size
/// makes ``security`` encrypt (bonded) or pair, then the request is retried once. An ATT
/// transaction timeout ends the link (Vol 3 Part F 3.3.3), so a data channel reconnects
/// instead of staying stuck.
public actor BLEConnection {
    /// The HCI connection handle.
    public nonisolated let handle: UInt16
    /// The accessory's address.
    public nonisolated let peerAddress: BluetoothAddress
    /// The accessory's address type.
    public nonisolated let peerAddressType: BluetoothAddressType
    /// The GATT client.
    public nonisolated let gatt: GATTClient
    /// This host's role on the connection.
    public nonisolated let role: ConnectionRole
    /// Pairing and encryption.
    public nonisolated let security: SecurityManager

    /// Connection interval, 1.25 ms units.
    public private(set) var interval: UInt16
    /// Peripheral latency, connection events.
    public private(set) var latency: UInt16
    /// Supervision timeout, 10 ms units.
    public private(set) var supervisionTimeout: UInt16

    private let hci: HCIHost
    private let logger: Logger
    private let bearer: ATTBearer
    private let broadcaster: Broadcaster<ConnectionEvent>
    private let endReason = Mutex<HCIStatus?>(nil)
    private var readerTask: Task<Void, Never>?
    /// The GATT server that answers the peer's ATT client, if the host serves attributes.
    private let attributeServer: GATTServer?
    /// Work to run once the reply to the ATT request being handled has gone out.
    private let afterReply = Mutex<[@Sendable () async -> Void]>([])

    init(complete: LEConnectionComplete, hci: HCIHost, localMTU: UInt16, attTimeout: Duration, localAddress: IdentityAddress,
         securityContext: SecurityContext, attributeServer: GATTServer? = nil, logger: Logger) {
        self.attributeServer = attributeServer
        self.handle = complete.handle
        self.role = complete.role == 0 ? .central : .peripheral
        self.peerAddress = complete.peerAddress
        self.peerAddressType = complete.peerAddressType
        self.interval = complete.interval
        self.latency = complete.latency
        self.supervisionTimeout = complete.supervisionTimeout
        self.hci = hci
        var logger = logger
        logger[metadataKey: "connection"] = "0x\(hex(complete.handle)) \(complete.peerAddress)"
        self.logger = logger
        let handle = complete.handle
        let bearer = ATTBearer(localMTU: localMTU, transactionTimeout: attTimeout, logger: logger) { pdu throws(BluetoothError) in
            try await hci.sendACL(handle: handle, pdu: L2CAPFrame(channel: L2CAPFrame.attributeProtocolChannel, payload: pdu).bytes)
        }
        self.bearer = bearer
        self.gatt = GATTClient(bearer: bearer)
        let broadcaster = Broadcaster<ConnectionEvent>()
        self.broadcaster = broadcaster
        let smpLogger = logger
        self.security = SecurityManager(
            role: complete.role == 0 ? .central : .peripheral, handle: handle, localAddress: localAddress,
            peerAddress: IdentityAddress(address: complete.peerAddress, type: complete.peerAddressType), hci: hci,
            context: securityContext, logger: logger,
            send: { pdu in
                do {
                    try await hci.sendACL(handle: handle, pdu: L2CAPFrame(channel: L2CAPFrame.securityManagerChannel, payload: pdu).bytes)
                } catch {
                    smpLogger.debug("could not send on the SMP channel: \(error)")
                }
            },
            report: { event in broadcaster.yield(event) })
    }

    /// The current ATT_MTU, bytes.
    public nonisolated var mtu: Int { gatt.mtu }

    /// The reason the connection ended, or `nil` while it is up.
    public nonisolated var disconnectionReason: HCIStatus? { endReason.withLock { $0 } }

    /// `true` while the connection is up.
    public nonisolated var isConnected: Bool { disconnectionReason == nil }

    /// Connection events from now on. If the connection already ended, the stream delivers
    /// that ``ConnectionEvent/disconnected(reason:)`` and finishes.
    public nonisolated func events() -> AsyncStream<ConnectionEvent> {
        let stream = broadcaster.subscribe()
        if let reason = disconnectionReason {
            return AsyncStream { continuation in
                continuation.yield(.disconnected(reason: reason))
                continuation.finish()
            }
        }
        return stream
    }

    /// Starts demultiplexing the connection's inbound L2CAP PDUs; wires ATT to the Security
    /// Manager (raise security on refusals) and to the link (a transaction timeout ends it).
    func activate(inbound: AsyncStream<[UInt8]>) {
        guard readerTask == nil else { return }
        let security = security
        bearer.setSecurityHandler { code throws(BluetoothError) in
            do throws(SecurityError) {
                return try await security.secure(for: code)
            } catch {
                throw .security(error)
            }
        }
        bearer.setTimeoutHandler { [weak self] in
            Task { await self?.attTimedOut() }
        }
        readerTask = Task {
            for await pdu in inbound {
                await self.receive(pdu)
            }
        }
    }

    private func receive(_ pdu: [UInt8]) async {
        let frame: L2CAPFrame
        do {
            frame = try L2CAPFrame(decoding: pdu)
        } catch {
            logger.warning("\(error)")
            return
        }
        switch frame.channel {
        case L2CAPFrame.attributeProtocolChannel:
            if let server = attributeServer, let opcode = frame.payload.first, GATTServer.handles(opcode: opcode) {
                // The peer's client asks this host's server.
                if let reply = await server.handle(frame.payload, from: self) {
                    await send(channel: L2CAPFrame.attributeProtocolChannel, reply)
                }
                let deferred = afterReply.withLock { queue -> [@Sendable () async -> Void] in
                    let all = queue
                    queue.removeAll()
                    return all
                }
                for work in deferred { await work() }
                return
            }
            let mtu = gatt.mtu
            if let reply = bearer.receive(frame.payload) {
                await send(channel: L2CAPFrame.attributeProtocolChannel, reply)
            }
            if gatt.mtu != mtu { broadcaster.yield(.mtuChanged(gatt.mtu)) }
        case L2CAPFrame.leSignalingChannel:
            await handleSignaling(frame.payload)
        case L2CAPFrame.securityManagerChannel:
            await security.receive(frame.payload)
        default:
            logger.debug("dropping L2CAP frame on channel 0x\(hex(frame.channel)) (\(frame.payload.count) bytes)")
        }
    }

    private func handleSignaling(_ payload: [UInt8]) async {
        switch LESignaling.handle(payload) {
        case .reply(let reply):
            await send(channel: L2CAPFrame.leSignalingChannel, reply)
        case .acceptParameters(let reply, let parameters):
            logger.info("accepting the accessory's connection parameters: \(parameters)")
            await send(channel: L2CAPFrame.leSignalingChannel, reply)
            let hci = hci
            let handle = handle
            let logger = logger
            Task {
                do {
                    try await hci.execute(.leConnectionUpdate(handle: handle, parameters: parameters))
                } catch {
                    logger.warning("LE Connection Update after the accessory's request failed: \(error)")
                }
            }
        case .ignore(let note):
            logger.debug("\(note)")
        }
    }

    private func send(channel: UInt16, _ payload: [UInt8]) async {
        do {
            try await hci.sendACL(handle: handle, pdu: L2CAPFrame(channel: channel, payload: payload).bytes)
        } catch {
            logger.debug("could not answer on L2CAP channel 0x\(hex(channel)): \(error)")
        }
    }

    /// Sends one ATT PDU from this host's server (a notification or indication).
    /// - Throws: ``BluetoothError/disconnected(reason:)`` once the link is down, transport errors.
    /// Runs `work` on the connection's reader right after the reply to the ATT request being
    /// handled now has been sent (called from a GATT server handler): a notification a client
    /// configuration write enabled goes out after that write's response, never before it.
    nonisolated func runAfterReply(_ work: @escaping @Sendable () async -> Void) {
        afterReply.withLock { $0.append(work) }
    }

    nonisolated func sendAttributePDU(_ pdu: [UInt8]) async throws(BluetoothError) {
        if let reason = disconnectionReason { throw .disconnected(reason: reason) }
        try await hci.sendACL(handle: handle, pdu: L2CAPFrame(channel: L2CAPFrame.attributeProtocolChannel, payload: pdu).bytes)
    }

    /// Exchanges MTUs (``GATTClient/exchangeMTU()``) and reports the change as an event.
    /// - Returns: the negotiated ATT_MTU.
    /// - Throws: as ``GATTClient/exchangeMTU()``.
    @discardableResult
    public func exchangeMTU() async throws(BluetoothError) -> Int {
        let before = gatt.mtu
        let mtu = try await gatt.exchangeMTU()
        if mtu != before { broadcaster.yield(.mtuChanged(mtu)) }
        return mtu
    }

    /// Disconnects (HCI Disconnect) and waits for the controller's Disconnection Complete.
    /// - Parameters:
    ///   - reason: sent to the accessory (0x13 Remote User Terminated Connection by default).
    ///   - timeout: how long to wait for Disconnection Complete.
    /// - Returns: the reason the controller reported: 0x16 (terminated by local host) on real
    ///   controllers; some emulators report the reason sent. If already disconnected, that reason.
    /// - Throws: ``BluetoothError/timeout(operation:timeout:hint:)`` if the controller never reports the
    ///   disconnection; transport errors.
    @discardableResult
    public func disconnect(reason: HCIStatus = .remoteUserTerminatedConnection,
                           timeout: Duration = .seconds(5)) async throws(BluetoothError) -> HCIStatus {
        if let reason = disconnectionReason { return reason }
        // Right after pairing, give the accessory a moment to file the bond.
        await security.settle()
        let events = events()
        do {
            try await hci.execute(.disconnect(handle: handle, reason: reason))
        } catch .commandFailed(_, let status) where status == .unknownConnectionIdentifier || status == .commandDisallowed {
            // Already gone (its Disconnection Complete is on the way) or being disconnected.
            logger.debug("Disconnect answered \(status); waiting for the disconnection event")
        }
        return try await waitForDisconnection(events, timeout: timeout)
    }

    /// Waits until the connection ends.
    /// - Returns: the reason.
    /// - Throws: ``BluetoothError/timeout(operation:timeout:hint:)`` after `timeout`.
    public func waitForDisconnection(timeout: Duration) async throws(BluetoothError) -> HCIStatus {
        try await waitForDisconnection(events(), timeout: timeout)
    }

    private func waitForDisconnection(_ events: AsyncStream<ConnectionEvent>, timeout: Duration) async throws(BluetoothError) -> HCIStatus {
        if let reason = disconnectionReason { return reason }
        let operation = "waiting for the disconnection of 0x\(hex(handle)) (\(peerAddress))"
        do {
            return try await withTimeout(timeout, operation: operation) {
                for await event in events {
                    if case .disconnected(let reason) = event { return reason }
                }
                throw CancellationError()
            }
        } catch is TimeoutError {
            throw .timeout(operation: operation, timeout: timeout)
        } catch {
            if let reason = disconnectionReason { return reason }
            throw .cancelled(operation: operation)
        }
    }

    /// Pairs with the peer (see ``SecurityManager/pair()``).
    /// - Throws: ``BluetoothError/security(_:)``.
    @discardableResult
    public func pair() async throws(BluetoothError) -> Bond {
        do {
            return try await security.pair()
        } catch {
            throw .security(error)
        }
    }

    /// Encrypts with the stored bond (see ``SecurityManager/encrypt()``).
    /// - Throws: ``BluetoothError/security(_:)``.
    public func encrypt() async throws(BluetoothError) {
        do {
            try await security.encrypt()
        } catch {
            throw .security(error)
        }
    }

    private func attTimedOut() async {
        guard isConnected else { return }
        logger.warning("ATT transaction timed out: ending the link (Core Vol 3 Part F 3.3.3) so it can be reconnected")
        _ = try? await disconnect(reason: .remoteUserTerminatedConnection, timeout: .seconds(5))
    }

    // MARK: - Called by BLEHost

    func didDisconnect(reason: HCIStatus) {
        let first = endReason.withLock { state -> Bool in
            if state != nil { return false }
            state = reason
            return true
        }
        guard first else { return }
        logger.info("disconnected: \(reason)")
        let security = security
        Task { await security.connectionEnded(reason: reason) }
        if let server = attributeServer {
            Task { await server.connectionEnded(self, reason: reason) }
        }
        bearer.fail(.disconnected(reason: reason))
        broadcaster.yield(.disconnected(reason: reason))
        broadcaster.finish()
        readerTask?.cancel()
    }

    func didUpdateParameters(interval: UInt16, latency: UInt16, supervisionTimeout: UInt16) {
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
        broadcaster.yield(.parametersUpdated(interval: interval, latency: latency, supervisionTimeout: supervisionTimeout))
    }
}
