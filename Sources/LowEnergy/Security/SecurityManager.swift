import Logging
import NearbySupport

/// What a ``SecurityManager`` needs from its host: the policy, where bonds live, who answers the
/// user-facing questions, and this host's identity.
public struct SecurityContext: Sendable {
    /// The pairing policy.
    public var configuration: SecurityConfiguration
    /// Where bonds are kept.
    public var bonds: any BondStore
    /// Who shows passkeys and asks the user.
    public var delegate: any PairingDelegate
    /// This host's identity (distributed during pairing). ``BLEHost/start()`` sets it: from
    /// ``identityProvider``, else the own address with a fresh IRK.
    public var identity: LocalIdentity?
    /// Where the identity (own address and IRK) is kept per controller, so accessories see the
    /// same central every time; `nil`: a fresh identity per run.
    public var identityProvider: (any LocalIdentityProvider)?

    /// Creates a context. The default: Just Works only, bonds in memory, no identity.
    public init(configuration: SecurityConfiguration = SecurityConfiguration(), bonds: any BondStore = InMemoryBondStore(),
                delegate: any PairingDelegate = UnattendedPairingDelegate(), identity: LocalIdentity? = nil,
                identityProvider: (any LocalIdentityProvider)? = nil) {
        self.configuration = configuration
        self.bonds = bonds
        self.delegate = delegate
        self.identity = identity
        self.identityProvider = identityProvider
    }
}

/// Keeps this host's identity (a random static own address and an IRK) per controller.
public protocol LocalIdentityProvider: Sendable {
    /// This host's identity on the controller whose public address is `controller`: the stored
    /// one, or a new one (random static address, random IRK) stored now.
    /// - Parameter usePublicAddress: the identity address is `controller` itself (the IRK is
    ///   still stored per controller).
    /// - Throws: ``SecurityError/storageFailed(detail:)``.
    func identity(controller: BluetoothAddress, usePublicAddress: Bool) async throws(SecurityError) -> LocalIdentity
}

/// How secure a link is (or must be).
public enum SecurityLevel: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Not encrypted.
    case none = 0
    /// Encrypted with an unauthenticated key (Just Works).
    case encrypted = 1
    /// Encrypted with an authenticated key (numeric comparison or passkey).
    case authenticated = 2

    /// Orders by strength.
    public static func < (lhs: SecurityLevel, rhs: SecurityLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `"none"`, `"encrypted"`, `"authenticated"`.
    public var description: String {
        switch self {
        case .none: return "none"
        case .encrypted: return "encrypted"
        case .authenticated: return "authenticated"
        }
    }
}

/// The Security Manager of one connection (L2CAP channel 6, Vol 3 Part H), in either role.
///
/// Central: ``pair()``, ``encrypt()`` with a stored bond (LE Enable Encryption), answers the
/// peripheral's Security Request (encrypt when bonded, else pair), and ``secure(for:)`` raises
/// security when an ATT request fails with Insufficient Authentication / Encryption / Key Size.
/// Peripheral: answers Pairing Requests and gives the key when the central encrypts (LE Long
/// Term Key Request); ``pair()`` sends a Security Request. Keys never reach the log.
///
/// Never loops: a connection pairs automatically at most once, and "PIN or Key Missing" (the
/// accessory forgot the bond) is reported (``SecurityError/keyMissing(peer:)``) rather than
/// answered with a new pairing, which would also be what an impostor wants.
public actor SecurityManager {
    /// The connection's role.
    public nonisolated let role: ConnectionRole
    /// The peer's address on this connection.
    public nonisolated let peerAddress: IdentityAddress
    private let localAddress: IdentityAddress
    private let handle: UInt16
    private let hci: HCIHost
    private let context: SecurityContext
    private nonisolated let logger: Logger
    private let sendPDU: @Sendable ([UInt8]) async -> Void
    private let report: @Sendable (ConnectionEvent) -> Void

    private var session: PairingSession?
    private var pairingWaiters: [Promise<Bond>] = []
    private var encryptionWaiters: [Promise<HCIStatus>] = []
    private var pendingKey: LongTermKey?
    private var timeoutTask: Task<Void, Never>?
    private var smpClosed = false
    private var automaticPairingUsed = false
    private var elevation: Task<Void, any Error>?

    /// The current security of the link.
    public private(set) var level = SecurityLevel.none
    /// The encryption key size in use, bytes (`nil` while not encrypted).
    public private(set) var keySize: Int?
    /// The bond with the peer (stored or just made), if any.
    public private(set) var bond: Bond?
    /// The last security failure on this connection (e.g. ``SecurityError/keyMissing(peer:)``).
    public private(set) var lastError: SecurityError?

    /// SMP transaction timeout (Vol 3 Part H 3.4).
    static let smpTimeout = Duration.seconds(30)
    /// How long the link stays up after this host sent its last keys: the accessory files the
    /// bond only once it has processed them, and some drop it when the link ends first.
    static let settleTime = Duration.milliseconds(500)
    private var pairedAt: ContinuousClock.Instant?

    init(role: ConnectionRole, handle: UInt16, localAddress: IdentityAddress, peerAddress: IdentityAddress, hci: HCIHost,
         context: SecurityContext, logger: Logger, send: @escaping @Sendable ([UInt8]) async -> Void,
         report: @escaping @Sendable (ConnectionEvent) -> Void) {
        self.role = role
        self.handle = handle
        self.localAddress = localAddress
        self.peerAddress = peerAddress
        self.hci = hci
        self.context = context
        self.logger = logger
        self.sendPDU = send
        self.report = report
    }

    /// `true` once the link is encrypted.
    public var isEncrypted: Bool { level >= .encrypted }

    // MARK: - Bonds

    /// The stored bond with the peer: by its address, or by resolving its private address with
    /// the stored IRKs.
    public func storedBond() async -> Bond? {
        if let bond { return bond }
        if let found = await context.bonds.bond(for: peerAddress) {
            bond = found
            return found
        }
        let keys = await context.bonds.resolvingKeys()
        if let identity = ResolvablePrivateAddress.resolve(peerAddress.address, among: keys),
           let found = await context.bonds.bond(for: identity) {
            bond = found
            return found
        }
        return nil
    }

    // MARK: - Public operations

    /// Pairs (central: sends a Pairing Request; peripheral: sends a Security Request and waits
    /// for the central's pairing). Joins a pairing already running.
    /// - Returns: the new bond (stored if bonding was agreed).
    /// - Throws: ``SecurityError``: refused by the accessory, wrong passkey, rejected comparison,
    ///   impossible security, timeout, disconnection.
    @discardableResult
    public func pair() async throws(SecurityError) -> Bond {
        if smpClosed { throw .timeout(step: "an earlier pairing on this connection") }
        let promise = Promise<Bond>()
        pairingWaiters.append(promise)
        if session?.isActive != true {
            switch role {
            case .central:
                startSession()
            case .peripheral:
                await send(.securityRequest(context.configuration.authentication))
            }
        }
        do {
            return try await promise.value(timeout: Self.smpTimeout * 3, operation: "pairing with \(peerAddress.address)")
        } catch let error as SecurityError {
            throw error
        } catch is TimeoutError {
            throw .timeout(step: "waiting for the pairing to finish")
        } catch {
            throw .disconnected(reason: .connectionTerminatedByLocalHost)
        }
    }

    /// Central: encrypts the link with the stored bond's key (LE Enable Encryption), waiting
    /// for Encryption Change (or Key Refresh Complete).
    /// - Throws: ``SecurityError/notBonded(peer:)`` with no stored key,
    ///   ``SecurityError/keyMissing(peer:)`` if the accessory forgot the bond (0x06),
    ///   ``SecurityError/encryptionFailed(status:)`` otherwise.
    public func encrypt() async throws(SecurityError) {
        guard role == .central else { throw .encryptionFailed(status: .commandDisallowed) }
        guard let bond = await storedBond(), let key = bond.peerLongTermKey else {
            throw .notBonded(peer: peerAddress.address)
        }
        let status = try await startEncryption(with: key)
        guard status == .success else {
            let error: SecurityError = status.rawValue == 0x06 ? .keyMissing(peer: peerAddress.address) : .encryptionFailed(status: status)
            lastError = error
            report(.securityFailed(error))
            throw error
        }
        level = bond.authenticated ? .authenticated : .encrypted
        keySize = bond.keySize
        report(.encryptionChanged(level: level, keySize: bond.keySize))
    }

    /// Makes the link at least as secure as an ATT error says it must be, once per
    /// connection: encrypt with a stored bond, else pair (with MITM for Insufficient
    /// Authentication on an already encrypted link).
    /// - Returns: `true` if security was raised (retry the request), `false` if there is
    ///   nothing to do (retrying would fail the same way).
    /// - Throws: the ``SecurityError`` that prevented it (e.g. ``SecurityError/keyMissing(peer:)``).
    public func secure(for code: ATTErrorCode) async throws(SecurityError) -> Bool {
        guard role == .central, context.configuration.pairWhenRequired else { return false }
        if let lastError, case .keyMissing = lastError { throw lastError }
        let bonded = await storedBond()
        if !isEncrypted, bonded?.peerLongTermKey != nil {
            try await encrypt()
            return true
        }
        guard !automaticPairingUsed else { return false }
        if isEncrypted && code != .insufficientAuthentication && code != .encryptionKeySizeTooShort { return false }
        automaticPairingUsed = true
        try await pair()
        return true
    }

    // MARK: - Inbound

    /// Handles one SMP PDU from the peer.
    func receive(_ payload: [UInt8]) async {
        guard !smpClosed else { return }
        let pdu: SMPPDU
        do {
            pdu = try SMPPDU(decoding: payload)
        } catch {
            logger.warning("\(error)")
            let reason: PairingFailureReason = payload.isEmpty || (1...0x0E).contains(payload[0]) ? .invalidParameters : .commandNotSupported
            await send(.pairingFailed(reason))
            if session?.isActive == true { await perform(session!.abort(error)) }
            return
        }
        logger.debug("SMP ← \(pdu)")
        switch (role, pdu) {
        case (.central, .securityRequest(let authentication)):
            await securityRequested(authentication)
            return
        case (.peripheral, .pairingRequest):
            if session?.isActive != true {
                guard await context.delegate.acceptPairing(peer: peerAddress.address) else {
                    await send(.pairingFailed(.pairingNotSupported))
                    return
                }
                session = makeSession(role: .responder)
            }
        default:
            break
        }
        guard var current = session, !current.isFinished else {
            switch pdu {
            case .pairingFailed, .keypressNotification:
                return
            case .pairingRequest:
                // A central does not answer Pairing Requests (the peer is not the initiator).
                await send(.pairingFailed(.commandNotSupported))
            default:
                await send(.pairingFailed(.unspecifiedReason))
            }
            return
        }
        restartTimeout()
        let actions = current.receive(pdu)
        session = current
        await perform(actions)
    }

    private func securityRequested(_: AuthenticationRequirements) async {
        report(.securityRequested)
        guard context.configuration.pairOnSecurityRequest, elevation == nil, session?.isActive != true else { return }
        elevation = Task {
            defer { self.elevationFinished() }
            do throws(SecurityError) {
                // Bonded: encrypt (an accessory wanting more says so with an ATT error later).
                if let bond = await self.storedBond(), bond.peerLongTermKey != nil {
                    if !self.isEncrypted { try await self.encrypt() }
                    return
                }
                guard await self.context.delegate.acceptPairing(peer: self.peerAddress.address) else {
                    await self.send(.pairingFailed(.pairingNotSupported))
                    return
                }
                try await self.pair()
            } catch {
                self.logger.warning("answering the accessory's Security Request: \(error)")
            }
        }
    }

    private func elevationFinished() { elevation = nil }

    /// Encryption Change or Encryption Key Refresh Complete for this connection.
    func encryptionChanged(status: HCIStatus, enabled: Bool) async {
        let waiters = encryptionWaiters
        encryptionWaiters.removeAll()
        for waiter in waiters { waiter.fulfill(status) }
        if status == .success && enabled {
            if level == .none { level = .encrypted }
        } else if status != .success {
            logger.warning("encryption failed: \(status)")
        } else {
            level = .none
            keySize = nil
        }
        guard session?.isActive == true else { return }
        let reported = status == .success && enabled ? await readKeySize() : nil
        // Taken after the await: PDUs handled meanwhile changed the session.
        guard var current = session, current.isActive else { return }
        let actions = current.encryptionChanged(success: status == .success && enabled, keySize: reported)
        session = current
        await perform(actions)
    }

    /// The key for the controller's LE Long Term Key Request (peripheral role): the pairing's
    /// STK / LTK while pairing, else the bond's key matching `ediv` and `rand`.
    func longTermKey(rand: UInt64, ediv: UInt16) async -> SecurityKey? {
        if let pendingKey, rand == 0, ediv == 0 { return pendingKey.key }
        guard let bond = await storedBond(), let key = bond.localLongTermKey, key.rand == rand, key.ediv == ediv else {
            logger.info("no key for the central's encryption request: it must pair again")
            return nil
        }
        keySize = bond.keySize
        level = bond.authenticated ? .authenticated : .encrypted
        return key.key
    }

    /// Waits until the accessory had ``settleTime`` to process this host's last keys (called
    /// before disconnecting; returns at once unless a pairing just completed).
    func settle() async {
        guard let pairedAt else { return }
        let remaining = Self.settleTime - pairedAt.duration(to: .now)
        if remaining > .zero { try? await Task.sleep(for: remaining) }
    }

    /// The link ended: a running pairing fails.
    func connectionEnded(reason: HCIStatus) async {
        timeoutTask?.cancel()
        elevation?.cancel()
        for waiter in encryptionWaiters { waiter.fulfill(reason) }
        encryptionWaiters.removeAll()
        if var current = session, current.isActive {
            let actions = current.abort(.disconnected(reason: reason))
            session = current
            await perform(actions)
        }
        for waiter in pairingWaiters { waiter.fail(SecurityError.disconnected(reason: reason)) }
        pairingWaiters.removeAll()
        smpClosed = true
    }

    // MARK: - Session

    private func makeSession(role sessionRole: PairingSession.Role) -> PairingSession {
        PairingSession(role: sessionRole, configuration: context.configuration, localAddress: localAddress,
                       peerAddress: peerAddress, localIdentity: context.identity)
    }

    private func startSession() {
        var current = makeSession(role: .initiator)
        let actions = current.start()
        session = current
        restartTimeout()
        Task { await self.perform(actions) }
    }

    private func perform(_ actions: [PairingSession.Action]) async {
        // The key the central will ask for first: it starts encryption as soon as it has this
        // host's last PDU (DHKey Check, or Pairing Random for legacy pairing), and its LE Long
        // Term Key Request can reach this actor while it is suspended sending that PDU. Kept
        // before anything is sent, or the request found no key and the link failed with
        // PIN or Key Missing (0x06) on a busy machine.
        for case .provideKey(let key) in actions { pendingKey = key }
        for action in actions {
            switch action {
            case .send(let pdu):
                await send(pdu)
            case .displayPasskey(let value):
                let delegate = context.delegate
                let peer = peerAddress.address
                Task { await delegate.displayPasskey(value, peer: peer) }
            case .requestPasskey:
                let delegate = context.delegate
                let peer = peerAddress.address
                Task {
                    let value = await delegate.requestPasskey(peer: peer)
                    await self.userEntered(value)
                }
            case .confirmNumber(let number):
                let delegate = context.delegate
                let peer = peerAddress.address
                Task {
                    let accepted = await delegate.confirmNumber(number, peer: peer)
                    await self.userConfirmed(accepted)
                }
            case .startEncryption(let key):
                let status: HCIStatus
                do throws(SecurityError) {
                    status = try await startEncryption(with: key, waiting: false)
                } catch {
                    status = .unspecifiedError
                }
                if status != .success {
                    await encryptionChanged(status: status, enabled: false)
                }
            case .provideKey:
                break  // kept above, before the sends
            case .completed(let newBond, let method):
                timeoutTask?.cancel()
                pairedAt = .now
                pendingKey = nil
                level = method.isAuthenticated ? .authenticated : .encrypted
                keySize = newBond.keySize
                bond = newBond
                logger.info("paired with \(peerAddress.address) (\(method), \(newBond))")
                if context.configuration.bonding {
                    do throws(SecurityError) {
                        try await context.bonds.save(newBond, connectedAddress: peerAddress)
                    } catch {
                        logger.error("\(error)")
                        report(.securityFailed(error))
                    }
                }
                report(.paired(method: method, keySize: newBond.keySize, secureConnections: newBond.secureConnections))
                let waiters = pairingWaiters
                pairingWaiters.removeAll()
                for waiter in waiters { waiter.fulfill(newBond) }
            case .failed(let error):
                timeoutTask?.cancel()
                pendingKey = nil
                lastError = error
                logger.warning("pairing with \(peerAddress.address) failed: \(error)")
                report(.securityFailed(error))
                let waiters = pairingWaiters
                pairingWaiters.removeAll()
                for waiter in waiters { waiter.fail(error) }
            }
        }
    }

    private func userEntered(_ value: UInt32?) async {
        guard var current = session else { return }
        let actions = current.passkeyEntered(value)
        session = current
        await perform(actions)
    }

    private func userConfirmed(_ accepted: Bool) async {
        guard var current = session else { return }
        let actions = current.numberConfirmed(accepted)
        session = current
        await perform(actions)
    }

    private func send(_ pdu: SMPPDU) async {
        logger.debug("SMP → \(pdu)")
        restartTimeout()
        await sendPDU(pdu.bytes)
    }

    /// Sends LE Enable Encryption; waits for the outcome unless `waiting` is `false`.
    private func startEncryption(with key: LongTermKey, waiting: Bool = true) async throws(SecurityError) -> HCIStatus {
        let promise = Promise<HCIStatus>()
        if waiting { encryptionWaiters.append(promise) }
        do {
            try await hci.execute(.leEnableEncryption(handle: handle, key: key))
        } catch {
            encryptionWaiters.removeAll { $0 === promise }
            if case .commandFailed(_, let status) = error { return status }
            throw .hci(error)
        }
        guard waiting else { return .success }
        do {
            return try await promise.value(timeout: .seconds(10), operation: "encrypting the link to \(peerAddress.address)")
        } catch {
            encryptionWaiters.removeAll { $0 === promise }
            throw .encryptionFailed(status: .connectionTimeout)
        }
    }

    /// The key size from Read Encryption Key Size, if the controller answers it.
    private func readKeySize() async -> Int? {
        guard await hci.supports(.readEncryptionKeySize) else { return nil }
        do {
            let reply = try await hci.execute(.readEncryptionKeySize(handle: handle), timeout: .seconds(1))
            return reply.count >= 3 ? Int(reply[2]) : nil
        } catch {
            return nil
        }
    }

    private func restartTimeout() {
        timeoutTask?.cancel()
        guard session?.isActive == true else { return }
        timeoutTask = Task {
            do {
                try await Task.sleep(for: Self.smpTimeout)
            } catch {
                return
            }
            await self.timedOut()
        }
    }

    private func timedOut() async {
        guard var current = session, current.isActive else { return }
        // No further SMP on this connection (Vol 3 Part H 3.4): reconnect to pair again.
        smpClosed = true
        let actions = current.abort(.timeout(step: "waiting for the accessory"))
        session = current
        await perform(actions)
    }
}

/// The role of this host on a connection.
public enum ConnectionRole: Sendable, Hashable, CustomStringConvertible {
    /// This host initiated the connection.
    case central
    /// The peer connected to this host (it was advertising).
    case peripheral

    /// `"central"` or `"peripheral"`.
    public var description: String { self == .central ? "central" : "peripheral" }
}
