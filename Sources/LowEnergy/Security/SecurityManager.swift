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
    /// Who failed to pair recently (the Repeated Attempts waiting interval), shared by every
    /// connection of the host.
    public var attempts: RepeatedAttempts

    /// Creates a context. The default: Just Works only, bonds in memory, no identity.
    public init(configuration: SecurityConfiguration = SecurityConfiguration(), bonds: any BondStore = InMemoryBondStore(),
                delegate: any PairingDelegate = UnattendedPairingDelegate(), identity: LocalIdentity? = nil,
                identityProvider: (any LocalIdentityProvider)? = nil, attempts: RepeatedAttempts = RepeatedAttempts()) {
        self.configuration = configuration
        self.bonds = bonds
        self.delegate = delegate
        self.identity = identity
        self.identityProvider = identityProvider
        self.attempts = attempts
    }
}

/// Keeps this host's identity (a random static own address and an IRK) per controller.
public protocol LocalIdentityProvider: Sendable {
    /// This host's identity on the controller whose public address is `controller`: the stored
    /// one, or a new one (random static address, random IRK) stored now.
    /// - Parameters:
    ///   - controller: the controller's public address (the key the identity is stored under).
    ///   - usePublicAddress: the identity address is `controller` itself (the IRK is still
    ///     stored per controller).
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
/// peripheral's Security Request (``PairingPolicy/answer(securityRequest:bond:encrypted:)``),
/// and ``secure(for:)`` raises security when an ATT request fails with Insufficient
/// Authentication / Encryption / Key Size. Peripheral: answers Pairing Requests and gives the key
/// when the central encrypts (LE Long Term Key Request); ``pair()`` sends a Security Request.
/// Keys never reach the log.
///
/// The ``PairingPolicy`` decides what a pairing may do and what it may replace; this actor asks
/// it and acts, and every refusal is reported (``ConnectionEvent/securityFailed(_:)`` with
/// ``SecurityError/refused(_:)``). The link's security (``level``, ``keySize``) changes only when
/// the controller reports Encryption Change or Key Refresh Complete.
///
/// Never loops: the peer causes at most ``SecurityConfiguration/pairingsPerConnection`` pairings
/// on a connection, a peer whose pairing failed waits out the Repeated Attempts interval
/// (``RepeatedAttempts``, across connections), and "PIN or Key Missing" (the accessory forgot the
/// bond) is reported (``SecurityError/keyMissing(peer:)``) rather than answered with a new
/// pairing, which would also be what an impostor wants.
public actor SecurityManager {
    /// The connection's role.
    public nonisolated let role: ConnectionRole
    /// The peer's address on this connection.
    public nonisolated let peerAddress: IdentityAddress
    private let localAddress: IdentityAddress
    private let handle: UInt16
    private let hci: HCIHost
    private let context: SecurityContext
    private let policy: PairingPolicy
    private nonisolated let logger: Logger
    private let sendPDU: @Sendable ([UInt8]) async -> Void
    private let report: @Sendable (ConnectionEvent) -> Void

    private var session: PairingSession?
    private var pairingWaiters: [Promise<Bond>] = []
    private var encryptionWaiters: [Promise<HCIStatus>] = []
    /// The key given to the controller for the pairing's encryption (peripheral), and the security
    /// it brings.
    private var pendingKey: LongTermKey?
    private var pendingKeySecurity: (level: SecurityLevel, keySize: Int) = (.encrypted, 16)
    /// What the link's security becomes once the controller reports the encryption being started
    /// (the key's level and size): set when a key is handed over, applied by Encryption Change only.
    private var expectedEncryption: (level: SecurityLevel, keySize: Int)?
    private var timeoutTask: Task<Void, Never>?
    private var smpClosed = false
    private var automaticPairingUsed = false
    /// Pairings the peer caused on this connection (Security Requests, Pairing Requests, ATT errors).
    private var pairingsByPeer = 0
    /// A Pairing Request answering this host's own Security Request (``pair()`` as peripheral).
    private var invitedPairing = false
    /// The accessory answered encryption with PIN or Key Missing: it forgot the bond.
    private var peerForgotBond = false
    /// Until when a refusal of each kind is not reported again (a flood is reported once).
    private var refusalsReported: [PairingRefusal.Reason: ContinuousClock.Instant] = [:]
    private var elevation: Task<Void, any Error>?

    /// The current security of the link (from the controller's Encryption Change only).
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
        self.policy = context.configuration.policy
        self.logger = logger
        self.sendPDU = send
        self.report = report
    }

    /// `true` once the link is encrypted (the controller reported it).
    public var isEncrypted: Bool { level >= .encrypted }

    // MARK: - Bonds

    /// The stored bond to encrypt with: found by the peer's address, or by resolving its private
    /// address with the stored IRKs; `nil` while the user repairs it
    /// (``SecurityConfiguration/repairing``).
    public func storedBond() async -> Bond? {
        guard let found = await bondOnRecord(), !policy.isRepairing(found, peer: peerAddress.address) else { return nil }
        return found
    }

    /// The bond stored for the peer (or made on this connection), repaired or not: what the
    /// policy compares a new pairing with.
    private func bondOnRecord() async -> Bond? {
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

    /// Whom the Repeated Attempts record is kept for: the bonded identity, else the address.
    private func attemptsKey() async -> IdentityAddress {
        await bondOnRecord()?.peerIdentity ?? peerAddress
    }

    // MARK: - Public operations

    /// Pairs (central: sends a Pairing Request; peripheral: sends a Security Request and waits
    /// for the central's pairing). Joins a pairing already running. A pairing the user asks for
    /// is not limited by ``SecurityConfiguration/pairingsPerConnection`` or the Repeated Attempts
    /// interval; the rest of the policy applies.
    /// - Returns: the new bond (stored only if both sides bond: ``Bond/persistent``).
    /// - Throws: ``SecurityError``: refused by the accessory or by the policy
    ///   (``SecurityError/refused(_:)``), wrong passkey, rejected comparison, impossible security,
    ///   failed encryption, timeout, disconnection.
    @discardableResult
    public func pair() async throws(SecurityError) -> Bond {
        try await pair(causedByPeer: false)
    }

    @discardableResult
    private func pair(causedByPeer: Bool) async throws(SecurityError) -> Bond {
        if smpClosed { throw .timeout(step: "an earlier pairing on this connection") }
        if causedByPeer, session?.isActive != true, let refusal = await admissionRefusal() {
            refuse(refusal)
            throw .refused(refusal)
        }
        let promise = Promise<Bond>()
        pairingWaiters.append(promise)
        if session?.isActive != true {
            if causedByPeer { pairingsByPeer += 1 }
            switch role {
            case .central:
                await startSession()
            case .peripheral:
                invitedPairing = !causedByPeer
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
    ///   ``SecurityError/encryptionFailed(status:)`` with the controller's status otherwise.
    public func encrypt() async throws(SecurityError) {
        guard role == .central else { throw .encryptionFailed(status: .commandDisallowed) }
        guard let bond = await storedBond(), let key = bond.peerLongTermKey else {
            throw .notBonded(peer: peerAddress.address)
        }
        expectedEncryption = (bond.authenticated ? .authenticated : .encrypted, bond.keySize)
        let status: HCIStatus
        do throws(SecurityError) {
            status = try await startEncryption(with: key)
        } catch {
            expectedEncryption = nil
            throw error
        }
        guard status == .success else {
            expectedEncryption = nil
            let error: SecurityError
            if status.rawValue == 0x06 {
                peerForgotBond = true
                error = .keyMissing(peer: peerAddress.address)
            } else {
                error = .encryptionFailed(status: status)
            }
            lastError = error
            report(.securityFailed(error))
            throw error
        }
    }

    /// Makes the link at least as secure as an ATT error says it must be, once per
    /// connection: encrypt with a stored bond, else pair (with MITM for Insufficient
    /// Authentication on an already encrypted link). The pairing counts as one the peer caused.
    /// - Returns: `true` if security was raised (retry the request), `false` if there is
    ///   nothing to do (retrying would fail the same way).
    /// - Throws: the ``SecurityError`` that prevented it (e.g. ``SecurityError/keyMissing(peer:)``,
    ///   a refusal).
    public func secure(for code: ATTErrorCode) async throws(SecurityError) -> Bool {
        guard role == .central, context.configuration.pairWhenRequired else { return false }
        if peerForgotBond { throw .keyMissing(peer: peerAddress.address) }
        let bonded = await storedBond()
        if !isEncrypted, bonded?.peerLongTermKey != nil {
            try await encrypt()
            return true
        }
        guard !automaticPairingUsed else { return false }
        if isEncrypted && code != .insufficientAuthentication && code != .encryptionKeySizeTooShort { return false }
        automaticPairingUsed = true
        try await pair(causedByPeer: true)
        return true
    }

    // MARK: - Policy: what the peer may cause

    /// Why the peer may not cause a pairing now: too many on this connection, or its Repeated
    /// Attempts interval has not passed; `nil` if it may.
    private func admissionRefusal() async -> PairingRefusal? {
        guard policy.peerMayPair(afterStarting: pairingsByPeer) else {
            return policy.tooManyPairingsRefusal(peer: peerAddress.address)
        }
        if let waiting = context.attempts.waiting(await attemptsKey(), policy: policy) {
            return policy.repeatedAttemptsRefusal(peer: peerAddress.address, failures: waiting.failures, remaining: waiting.remaining)
        }
        return nil
    }

    /// Reports a refusal that happened outside a pairing session (its PDU, if any, was sent):
    /// once per kind while the same refusal would repeat (a flood of requests is one report).
    private func refuse(_ refusal: PairingRefusal) {
        let error = SecurityError.refused(refusal)
        lastError = error
        let now = ContinuousClock.now
        if let quietUntil = refusalsReported[refusal.reason], now < quietUntil {
            logger.debug("\(refusal) (again)")
            return
        }
        let window = refusal.retryAfter ?? (refusal.reason == .tooManyPairings ? .seconds(3600) : .seconds(1))
        refusalsReported[refusal.reason] = now + window
        logger.warning("\(refusal)")
        report(.securityFailed(error))
    }

    /// Whether the keys the peer distributed may replace what is stored: the bond on record for
    /// this connection and the one stored for the identity the peer claims.
    private func replacementRefusal(for candidate: Bond) async -> PairingRefusal? {
        var existing: [Bond] = []
        if let own = await bondOnRecord() { existing.append(own) }
        if let claimed = await context.bonds.bond(for: candidate.peerIdentity), !existing.contains(claimed) {
            existing.append(claimed)
        }
        for bond in existing {
            if let refusal = policy.replacementRefusal(of: bond, by: candidate, peer: peerAddress.address) { return refusal }
        }
        return nil
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
                let invited = invitedPairing
                invitedPairing = false
                if !invited, let refusal = await admissionRefusal() {
                    await send(.pairingFailed(refusal.sent))
                    refuse(refusal)
                    return
                }
                guard await context.delegate.acceptPairing(peer: peerAddress.address) else {
                    await send(.pairingFailed(.pairingNotSupported))
                    return
                }
                if !invited { pairingsByPeer += 1 }
                let existing = await bondOnRecord()
                if session?.isActive != true { session = makeSession(role: .responder, existing: existing) }
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

    /// A Security Request (central): answered as ``PairingPolicy/answer(securityRequest:bond:encrypted:)``
    /// says, unless pairing or encryption is already under way (Zephyr ignores it then too); a
    /// pairing it would cause is subject to the per-connection limit and the Repeated Attempts
    /// interval, and refused with Pairing Failed (Repeated Attempts) when over them.
    private func securityRequested(_ authentication: AuthenticationRequirements) async {
        report(.securityRequested)
        guard context.configuration.pairOnSecurityRequest else { return }
        guard elevation == nil, session?.isActive != true, encryptionWaiters.isEmpty, !peerForgotBond else {
            logger.debug("Security Request ignored: security is already being raised, or the accessory forgot the bond")
            return
        }
        elevation = Task {
            defer { self.elevationFinished() }
            do throws(SecurityError) {
                let bond = await self.storedBond()
                switch self.policy.answer(securityRequest: authentication, bond: bond, encrypted: self.isEncrypted) {
                case .nothing:
                    return
                case .encrypt:
                    try await self.encrypt()
                case .pair:
                    if let refusal = await self.admissionRefusal() {
                        await self.send(.pairingFailed(refusal.sent))
                        self.refuse(refusal)
                        return
                    }
                    guard await self.context.delegate.acceptPairing(peer: self.peerAddress.address) else {
                        await self.send(.pairingFailed(.pairingNotSupported))
                        return
                    }
                    try await self.pair(causedByPeer: true)
                }
            } catch {
                self.logger.warning("answering the accessory's Security Request: \(error)")
            }
        }
    }

    private func elevationFinished() { elevation = nil }

    /// Encryption Change or Encryption Key Refresh Complete for this connection: the only place
    /// the link's security changes. Success applies the security of the key that was handed over;
    /// anything else (a failure, or encryption switched off) leaves the link unencrypted.
    func encryptionChanged(status: HCIStatus, enabled: Bool) async {
        let outcome: HCIStatus = status == .success && !enabled ? .unspecifiedError : status
        let expected = expectedEncryption
        expectedEncryption = nil
        if outcome == .success {
            level = expected?.level ?? max(level, .encrypted)
            keySize = expected?.keySize ?? keySize
        } else {
            if status != .success {
                logger.warning("encryption failed: \(status)")
            } else {
                logger.info("encryption switched off")
            }
            level = .none
            keySize = nil
        }
        let waiters = encryptionWaiters
        encryptionWaiters.removeAll()
        for waiter in waiters { waiter.fulfill(outcome) }
        var reported: Int?
        if outcome == .success {
            reported = await readKeySize()
            if let reported, level != .none { keySize = reported }
            report(.encryptionChanged(level: level, keySize: keySize ?? 16))
        }
        guard session?.isActive == true else { return }
        // Taken after the await: PDUs handled meanwhile changed the session.
        guard var current = session, current.isActive else { return }
        let actions = current.encryptionChanged(status: outcome, keySize: reported)
        session = current
        await perform(actions)
    }

    /// The key for the controller's LE Long Term Key Request (peripheral role): the pairing's
    /// STK / LTK while pairing, else the bond's key matching `ediv` and `rand`. The link's
    /// security changes only once the controller reports Encryption Change.
    func longTermKey(rand: UInt64, ediv: UInt16) async -> SecurityKey? {
        if let pendingKey, rand == 0, ediv == 0 {
            expectedEncryption = pendingKeySecurity
            return pendingKey.key
        }
        guard let bond = await storedBond(), let key = bond.localLongTermKey, key.rand == rand, key.ediv == ediv else {
            logger.info("no key for the central's encryption request: it must pair again")
            return nil
        }
        expectedEncryption = (bond.authenticated ? .authenticated : .encrypted, bond.keySize)
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
        expectedEncryption = nil
        level = .none
        keySize = nil
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

    private func makeSession(role sessionRole: PairingSession.Role, existing: Bond?) -> PairingSession {
        PairingSession(role: sessionRole, configuration: context.configuration, localAddress: localAddress,
                       peerAddress: peerAddress, localIdentity: context.identity, existingBond: existing)
    }

    private func startSession() async {
        let existing = await bondOnRecord()
        // Another caller may have started one meanwhile.
        guard session?.isActive != true else { return }
        var current = makeSession(role: .initiator, existing: existing)
        let actions = current.start()
        session = current
        restartTimeout()
        await perform(actions)
    }

    private func perform(_ actions: [PairingSession.Action]) async {
        // The key the central will ask for first: it starts encryption as soon as it has this
        // host's last PDU (DHKey Check, or Pairing Random for legacy pairing), and its LE Long
        // Term Key Request can reach this actor while it is suspended sending that PDU. Kept
        // before anything is sent, or the request found no key and the link failed with
        // PIN or Key Missing (0x06) on a busy machine.
        for case .provideKey(let key) in actions {
            pendingKey = key
            pendingKeySecurity = (session?.securityLevel ?? .encrypted, session?.keySize ?? 16)
        }
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
                expectedEncryption = (session?.securityLevel ?? .encrypted, session?.keySize ?? 16)
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
            case .verifyPeerKeys(let candidate):
                let refusal = await replacementRefusal(for: candidate)
                // Taken after the await: PDUs handled meanwhile changed the session.
                guard var current = session, current.isActive else { continue }
                let next = current.peerKeysVerified(refusal)
                session = current
                await perform(next)
            case .completed(let newBond, let method):
                timeoutTask?.cancel()
                pairedAt = .now
                pendingKey = nil
                bond = newBond
                logger.info("paired with \(peerAddress.address) (\(method), \(newBond))")
                if newBond.persistent {
                    do throws(SecurityError) {
                        try await context.bonds.save(newBond, connectedAddress: peerAddress)
                    } catch {
                        logger.error("\(error)")
                        report(.securityFailed(error))
                    }
                } else {
                    logger.notice("\(peerAddress.address) did not bond: its keys serve this connection only and are not stored")
                }
                context.attempts.succeeded(peerAddress)
                context.attempts.succeeded(newBond.peerIdentity)
                report(.paired(method: method, keySize: newBond.keySize, secureConnections: newBond.secureConnections))
                let waiters = pairingWaiters
                pairingWaiters.removeAll()
                for waiter in waiters { waiter.fulfill(newBond) }
            case .failed(let error):
                timeoutTask?.cancel()
                pendingKey = nil
                lastError = error
                logger.warning("pairing with \(peerAddress.address) failed: \(error)")
                if case .disconnected = error {} else {
                    let interval = context.attempts.failed(await attemptsKey(), policy: policy)
                    logger.info("\(peerAddress.address) may pair again in \(interval) (Repeated Attempts)")
                }
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
