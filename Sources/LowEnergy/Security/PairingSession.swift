/// One pairing, as a pure state machine (Vol 3 Part H 2.3-2.4, 3): it is fed SMP PDUs, user
/// answers and the encryption outcome, and says what to do (``Action``). No I/O, no clock:
/// ``SecurityManager`` drives it on a connection; tests drive two of them against each other.
///
/// Both roles: the initiator (central) and the responder (peripheral). Methods: LE Secure
/// Connections (Just Works, Numeric Comparison, Passkey Entry) and legacy pairing (Just Works,
/// Passkey Entry). Key distribution: LTK + EDIV/Rand (legacy), IRK + identity address, both
/// directions. OOB data and signing keys are never offered.
///
/// The ``PairingPolicy`` of its configuration decides at each point where it matters: the key
/// size, the key distribution, the debug key, whether a stored bond may be replaced (the one
/// passed in, when the method is known; the host's bonds for the keys the peer distributed, through
/// ``Action/verifyPeerKeys(_:)``, before this side sends its own keys or completes), and whether
/// the keys are kept (``Bond/persistent``).
public struct PairingSession: Sendable {
    /// Which side of the pairing this is.
    public enum Role: Sendable, Hashable {
        /// The central: sends the Pairing Request, starts encryption.
        case initiator
        /// The peripheral: answers, gives the key when the central encrypts.
        case responder
    }

    /// What the owner of the session must do next.
    public enum Action: Sendable {
        /// Send this PDU on the SMP channel.
        case send(SMPPDU)
        /// Show this six-digit passkey; the peer's user types it.
        case displayPasskey(UInt32)
        /// Ask the user for the passkey the peer shows; answer with ``passkeyEntered(_:)``.
        case requestPasskey
        /// Ask the user whether the peer shows this six-digit number; answer with
        /// ``numberConfirmed(_:)``.
        case confirmNumber(UInt32)
        /// Initiator: start encryption with this key (LE Enable Encryption); then call
        /// ``encryptionChanged(success:keySize:)``.
        case startEncryption(LongTermKey)
        /// Responder: give this key when the controller asks (LE Long Term Key Request); then
        /// call ``encryptionChanged(success:keySize:)``.
        case provideKey(LongTermKey)
        /// The peer distributed all its keys: check that they may replace what is stored for
        /// that identity (``PairingPolicy/replacementRefusal(of:by:peer:)-(_,Bond,_)``), then answer with
        /// ``peerKeysVerified(_:)``. The pairing goes on (this side's keys, completion) only after.
        case verifyPeerKeys(Bond)
        /// Pairing completed: the link is encrypted and the keys are exchanged. The bond is to be
        /// stored only if ``Bond/persistent`` (both sides bond).
        case completed(Bond, method: PairingMethod)
        /// Pairing failed (a Pairing Failed PDU was already queued when this host ended it).
        case failed(SecurityError)
    }

    private enum Phase: Sendable, Hashable {
        case idle
        case awaitingResponse
        case awaitingPublicKey
        case authenticating
        case awaitingDHKeyCheck
        case awaitingEncryption
        case distributingKeys
        case done
        case failed
    }

    /// The role.
    public let role: Role
    private let configuration: SecurityConfiguration
    private let policy: PairingPolicy
    private let existingBond: Bond?
    private let localAddress: IdentityAddress
    private let peerAddress: IdentityAddress
    private let localIdentity: LocalIdentity?
    /// The P-256 key pair, made when Secure Connections is agreed (legacy pairing needs none).
    private var keyPairStorage: PairingKeyPair?
    private var keyPair: PairingKeyPair { keyPairStorage! }
    private let random: @Sendable (Int) -> [UInt8]

    private var phase = Phase.idle
    private var request: PairingFeatures?
    private var response: PairingFeatures?
    /// The method in use, once both features are known.
    public private(set) var method: PairingMethod?
    /// `true` once both sides agreed on LE Secure Connections.
    public private(set) var secureConnections = false
    /// The negotiated key size, bytes.
    public private(set) var keySize = 16
    /// `true` once both sides set the bonding flags: the keys will be kept.
    public private(set) var bonding = false
    /// `true` if the peer's public key is the debug key (accepted only with
    /// ``SecurityConfiguration/allowsDebugKeys``; the pairing is then unauthenticated).
    public private(set) var usesDebugKey = false
    private var passkey: UInt32?
    private var waitingForPasskey = false
    private var comparisonAccepted: Bool?
    private var peerPublicKey: (x: [UInt8], y: [UInt8])?
    private var dhKey: [UInt8] = []
    private var localNonce: [UInt8] = []
    private var peerNonce: [UInt8] = []
    private var peerConfirm: [UInt8]?
    private var round = 0
    private var sentConfirm = false
    private var sentRandom = false
    private var macKey: [UInt8] = []
    private var ltk: [UInt8] = []
    private var pendingPeerCheck: [UInt8]?
    private var encryptionKey: LongTermKey?
    // Key distribution
    private var expectedPeerKeys: KeyDistribution = []
    private var localKeysToSend: KeyDistribution = []
    private var peerLTK: SecurityKey?
    private var peerLongTermKey: LongTermKey?
    private var localLongTermKey: LongTermKey?
    private var peerIRK: SecurityKey?
    private var peerIdentity: IdentityAddress?
    private var receivedPeerKeys: KeyDistribution = []
    private var earlyKeys: [SMPPDU] = []
    private var verificationRequested = false
    private var peerKeysAccepted = false

    /// The longest pairing passkey (six digits).
    public static let maximumPasskey: UInt32 = 999_999

    /// Creates a session.
    /// - Parameters:
    ///   - role: initiator (this host is the central) or responder.
    ///   - configuration: the IO capabilities, what to ask for and what to accept.
    ///   - localAddress: the address this host uses on the connection (with its type).
    ///   - peerAddress: the peer's address on the connection.
    ///   - localIdentity: this host's identity, distributed if the peer asks for it.
    ///   - existingBond: the bond stored for the peer, if any: a pairing weaker than it is refused
    ///     as soon as the method is known (``PairingPolicy/replacementRefusal(of:by:peer:)-(_,PairingPolicy.Strength,_)``).
    ///   - keyPair: the P-256 key pair (`nil`: a fresh one once Secure Connections is agreed;
    ///     tests pass the debug key).
    ///   - random: random bytes (the system generator by default; tests make it deterministic).
    public init(role: Role, configuration: SecurityConfiguration, localAddress: IdentityAddress, peerAddress: IdentityAddress,
                localIdentity: LocalIdentity?, existingBond: Bond? = nil, keyPair: PairingKeyPair? = nil,
                random: @escaping @Sendable (Int) -> [UInt8] = SecurityToolbox.randomBytes) {
        self.role = role
        self.configuration = configuration
        self.policy = configuration.policy
        self.existingBond = existingBond
        self.localAddress = localAddress
        self.peerAddress = peerAddress
        self.localIdentity = localIdentity
        self.keyPairStorage = keyPair
        self.random = random
    }

    /// `true` once the session completed or failed.
    public var isFinished: Bool { phase == .done || phase == .failed }

    /// `true` while a pairing runs (started and not finished).
    public var isActive: Bool { phase != .idle && !isFinished }

    /// The security the link has once encrypted with this pairing's key: authenticated for
    /// Numeric Comparison and Passkey Entry unless the peer used the debug key; `nil` before the
    /// method is known.
    public var securityLevel: SecurityLevel? {
        guard let method else { return nil }
        return method.isAuthenticated && !usesDebugKey ? .authenticated : .encrypted
    }

    /// The keys this host asks to receive and offers to send.
    private var localFeatures: PairingFeatures {
        var mine: KeyDistribution = [.encryptionKey]
        var theirs: KeyDistribution = [.encryptionKey, .identityKey]
        if localIdentity != nil { mine.insert(.identityKey) }
        if !configuration.bonding {
            mine = []
            theirs = []
        }
        let initiatorKeys = role == .initiator ? mine : theirs
        let responderKeys = role == .initiator ? theirs : mine
        return PairingFeatures(
            ioCapability: configuration.ioCapability, authentication: configuration.authentication,
            maximumKeySize: UInt8(configuration.maximumKeySize), initiatorKeys: initiatorKeys, responderKeys: responderKeys)
    }

    // MARK: - Inputs

    /// Initiator: starts pairing (also in answer to a Security Request).
    /// - Returns: the Pairing Request to send.
    public mutating func start() -> [Action] {
        guard role == .initiator, phase == .idle else { return [] }
        let features = localFeatures
        request = features
        phase = .awaitingResponse
        return [.send(.pairingRequest(features))]
    }

    /// Handles one PDU from the peer.
    public mutating func receive(_ pdu: SMPPDU) -> [Action] {
        if case .pairingFailed(let reason) = pdu {
            guard isActive || phase == .idle else { return [] }
            phase = .failed
            return [.failed(.pairingFailedByPeer(reason: reason))]
        }
        if case .keypressNotification = pdu { return [] }
        switch (role, phase, pdu) {
        case (.initiator, .awaitingResponse, .pairingResponse(let features)):
            return receivedResponse(features)
        case (.responder, .idle, .pairingRequest(let features)):
            return receivedRequest(features)
        case (_, .awaitingPublicKey, .pairingPublicKey(let x, let y)):
            return receivedPublicKey(x: x, y: y)
        case (_, .authenticating, .pairingConfirm(let value)):
            return receivedConfirm(value)
        case (_, .authenticating, .pairingRandom(let value)):
            return receivedRandom(value)
        case (_, .awaitingDHKeyCheck, .pairingDHKeyCheck(let value)):
            return receivedDHKeyCheck(value)
        case (_, .distributingKeys, _) where Self.isKeyDistribution(pdu):
            return receivedKey(pdu)
        case (_, .awaitingEncryption, _) where Self.isKeyDistribution(pdu) && earlyKeys.count < 8:
            // Sent encrypted, but the Encryption Change event has not been handled yet.
            earlyKeys.append(pdu)
            return []
        case (.responder, _, .securityRequest), (.initiator, _, .pairingRequest):
            return fail(.commandNotSupported, "\(pdu) is not for this role")
        default:
            return fail(.unspecifiedReason, "unexpected \(pdu) while \(phase)")
        }
    }

    /// The passkey the user typed (`nil`: cancelled).
    public mutating func passkeyEntered(_ value: UInt32?) -> [Action] {
        guard waitingForPasskey, isActive else { return [] }
        waitingForPasskey = false
        guard let value, value <= Self.maximumPasskey else {
            return fail(.passkeyEntryFailed, "no passkey entered", userRejected: true)
        }
        passkey = value
        return passkeyKnown()
    }

    /// The user's answer to ``Action/confirmNumber(_:)``.
    public mutating func numberConfirmed(_ accepted: Bool) -> [Action] {
        guard isActive, method == .numericComparison, comparisonAccepted == nil else { return [] }
        comparisonAccepted = accepted
        guard accepted else { return fail(.numericComparisonFailed, "the numbers were not confirmed", userRejected: true) }
        switch role {
        case .initiator:
            return phase == .awaitingDHKeyCheck && !sentCheck ? sendCheck() : []
        case .responder:
            if let check = pendingPeerCheck {
                pendingPeerCheck = nil
                return verifyInitiatorCheck(check)
            }
            return []
        }
    }

    private var sentCheck = false

    /// The outcome of encryption with the key of ``Action/startEncryption(_:)`` or
    /// ``Action/provideKey(_:)``: Encryption Change (or Encryption Key Refresh Complete) with
    /// `status`; a failure is reported with that status.
    /// - Parameters:
    ///   - status: the event's status (`success`, or why encryption failed).
    ///   - reported: the controller's key size when known (Read Encryption Key Size).
    public mutating func encryptionChanged(status: HCIStatus, keySize reported: Int? = nil) -> [Action] {
        guard phase == .awaitingEncryption else { return [] }
        guard status == .success else {
            phase = .failed
            return [.failed(.encryptionFailed(status: status))]
        }
        if let reported, reported < policy.minimumKeySize {
            return fail(.encryptionKeySize, "the controller reports a \(reported)-byte key",
                        error: .keySizeTooShort(size: reported, minimum: policy.minimumKeySize))
        }
        phase = .distributingKeys
        var actions: [Action] = []
        // The responder distributes first; the initiator only once it accepted the responder's keys.
        if role == .responder { actions += sendLocalKeys() }
        // Keys the responder sent before this host saw the Encryption Change event.
        let early = earlyKeys
        earlyKeys = []
        for pdu in early where isActive {
            actions += receivedKey(pdu)
        }
        return actions + peerKeysComplete()
    }

    /// ``encryptionChanged(status:keySize:)`` with success, or a failure whose HCI status is not
    /// known (reported as Authentication Failure).
    public mutating func encryptionChanged(success: Bool, keySize reported: Int? = nil) -> [Action] {
        encryptionChanged(status: success ? .success : .authenticationFailure, keySize: reported)
    }

    /// The host's answer to ``Action/verifyPeerKeys(_:)``: `nil` accepts the keys (the initiator
    /// then sends its own, and the pairing completes once everything is exchanged); a refusal
    /// ends the pairing with its Pairing Failed reason.
    public mutating func peerKeysVerified(_ refusal: PairingRefusal?) -> [Action] {
        guard isActive, phase == .distributingKeys, verificationRequested, !peerKeysAccepted else { return [] }
        if let refusal { return fail(refusal.sent, refusal.detail, error: .refused(refusal)) }
        peerKeysAccepted = true
        var actions: [Action] = []
        if role == .initiator { actions += sendLocalKeys() }
        return actions + finishIfDone()
    }

    // MARK: - Feature exchange

    private mutating func receivedResponse(_ features: PairingFeatures) -> [Action] {
        response = features
        if let request, !PairingPolicy.keyDistributionIsSubset(request: request, response: features) {
            return fail(.invalidParameters, "the accessory's Pairing Response asks for keys the request did not offer "
                + "(initiator 0x\(hex(features.initiatorKeys.rawValue)) of 0x\(hex(request.initiatorKeys.rawValue)), "
                + "responder 0x\(hex(features.responderKeys.rawValue)) of 0x\(hex(request.responderKeys.rawValue)))")
        }
        return negotiate()
    }

    private mutating func receivedRequest(_ features: PairingFeatures) -> [Action] {
        request = features
        var mine = localFeatures
        mine.initiatorKeys = features.initiatorKeys.intersection(mine.initiatorKeys)
        mine.responderKeys = features.responderKeys.intersection(mine.responderKeys)
        response = mine
        return [.send(.pairingResponse(mine))] + negotiate()
    }

    private mutating func negotiate() -> [Action] {
        guard let request, let response else { return [] }
        let size = Int(min(request.maximumKeySize, response.maximumKeySize))
        let minimum = policy.minimumKeySize
        guard size >= minimum, (7...16).contains(Int(request.maximumKeySize)),
              (7...16).contains(Int(response.maximumKeySize)) else {
            return fail(.encryptionKeySize, "the key would be \(size) bytes (at least \(minimum) required)",
                        error: .keySizeTooShort(size: size, minimum: minimum))
        }
        keySize = size
        bonding = PairingPolicy.keepsKeys(request: request, response: response)
        secureConnections = request.authentication.contains(.secureConnections) && response.authentication.contains(.secureConnections)
        if configuration.secureConnectionsOnly && !secureConnections {
            return fail(.authenticationRequirements, "the accessory does not support LE Secure Connections (required)",
                        error: .securityImpossible(detail: "the accessory only supports legacy pairing and Secure Connections is required"))
        }
        let peer = role == .initiator ? response : request
        if peer.oobDataPresent && secureConnections {
            return fail(.oobNotAvailable, "the accessory wants out-of-band pairing, which this host does not support")
        }
        let selected = PairingMethod.select(initiator: request, responder: response, secureConnections: secureConnections)
        method = selected
        if !selected.isAuthenticated && configuration.requireMITM {
            let detail = "MITM protection needs a display or keyboard on both sides; this host is \(configuration.ioCapability), "
                + "the accessory \(peer.ioCapability)"
            return fail(.authenticationRequirements, detail, error: .securityImpossible(detail: detail))
        }
        // A stored bond is never replaced by a weaker pairing: refused before any key is made.
        if let existingBond,
           let refusal = policy.replacementRefusal(
               of: existingBond, by: .init(authenticated: selected.isAuthenticated, secureConnections: secureConnections, keySize: size),
               peer: peerAddress.address) {
            return fail(refusal.sent, refusal.detail, error: .refused(refusal))
        }
        // What the Pairing Response agreed (a responder that narrowed the request expects only that).
        expectedPeerKeys = role == .initiator ? response.responderKeys : response.initiatorKeys
        localKeysToSend = role == .initiator ? response.initiatorKeys : response.responderKeys
        if secureConnections {
            // LTKs are derived, never distributed, with Secure Connections.
            expectedPeerKeys.remove(.encryptionKey)
            localKeysToSend.remove(.encryptionKey)
        }
        expectedPeerKeys.subtract([.linkKey, .signingKey])
        localKeysToSend.subtract([.linkKey, .signingKey])
        if secureConnections {
            if keyPairStorage == nil { keyPairStorage = PairingKeyPair() }
            phase = .awaitingPublicKey
            // The initiator sends its public key first.
            return role == .initiator ? [.send(.pairingPublicKey(x: keyPair.x, y: keyPair.y))] : []
        }
        phase = .authenticating
        return beginAuthentication()
    }

    /// Which side shows the passkey, seen from here: `true` if this host displays it.
    private var localDisplaysPasskey: Bool? {
        guard case .passkeyEntry(let who) = method else { return nil }
        switch who {
        case .initiatorDisplays: return role == .initiator
        case .responderDisplays: return role == .responder
        case .bothInput: return false
        }
    }

    /// Starts phase 2 once the method is known (and, with SC, the public keys exchanged).
    private mutating func beginAuthentication() -> [Action] {
        var actions: [Action] = []
        if let displays = localDisplaysPasskey {
            if displays {
                let value = Self.passkey(from: random(4))
                passkey = value
                actions.append(.displayPasskey(value))
            } else {
                waitingForPasskey = true
                actions.append(.requestPasskey)
                return actions
            }
        } else {
            passkey = 0
        }
        return actions + passkeyKnown()
    }

    static func passkey(from bytes: [UInt8]) -> UInt32 {
        bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
    }

    /// Continues once the passkey (or TK 0) is known.
    private mutating func passkeyKnown() -> [Action] {
        if secureConnections {
            switch method {
            case .passkeyEntry:
                round = 0
                if role == .initiator { return sendPasskeyConfirm() }
                // Responder: answer the initiator's confirm if it already came.
                return peerConfirm != nil ? sendPasskeyConfirm() : []
            default:
                // Just Works / Numeric Comparison: the responder commits first.
                guard role == .responder else { return [] }
                localNonce = random(16)
                sentConfirm = true
                let confirm = SecurityToolbox.f4(keyPair.x, peerPublicKey!.x, localNonce, 0)
                return [.send(.pairingConfirm(confirm))]
            }
        }
        // Legacy: the initiator sends Mconfirm; the responder answers once Mconfirm came.
        if role == .initiator { return sendLegacyConfirm() }
        return peerConfirm != nil ? sendLegacyConfirm() : []
    }

    // MARK: - LE Secure Connections

    private mutating func receivedPublicKey(x: [UInt8], y: [UInt8]) -> [Action] {
        if SecurityToolbox.constantTimeEqual(x, keyPair.x) {
            // The peer reflected our own key (CVE-2020-26558): refuse.
            return fail(.invalidParameters, "the accessory's public key equals this host's")
        }
        if PairingPolicy.isDebugKey(x: x, y: y) {
            if let refusal = policy.debugKeyRefusal(peer: peerAddress.address) {
                return fail(refusal.sent, refusal.detail, error: .refused(refusal))
            }
            usesDebugKey = true
        }
        do {
            dhKey = try keyPair.dhKey(peerX: x, peerY: y)
        } catch {
            return fail(.dhKeyCheckFailed, "the accessory's public key is not on the P-256 curve", error: .invalidPublicKey)
        }
        peerPublicKey = (x, y)
        phase = .authenticating
        var actions: [Action] = []
        if role == .responder {
            actions.append(.send(.pairingPublicKey(x: keyPair.x, y: keyPair.y)))
        }
        return actions + beginAuthentication()
    }

    /// The 16-byte r of f6 for this method: the passkey for Passkey Entry, else zero.
    private var checkR: [UInt8] {
        var r = [UInt8](repeating: 0, count: 16)
        if case .passkeyEntry = method, let passkey {
            r[12] = UInt8(passkey >> 24)
            r[13] = UInt8(passkey >> 16 & 0xFF)
            r[14] = UInt8(passkey >> 8 & 0xFF)
            r[15] = UInt8(passkey & 0xFF)
        }
        return r
    }

    private var isPasskeyEntry: Bool {
        if case .passkeyEntry = method { return true }
        return false
    }

    private var passkeyBit: UInt8 {
        0x80 | UInt8(((passkey ?? 0) >> UInt32(round)) & 1)
    }

    private mutating func sendPasskeyConfirm() -> [Action] {
        localNonce = random(16)
        sentConfirm = true
        let confirm = SecurityToolbox.f4(keyPair.x, peerPublicKey!.x, localNonce, passkeyBit)
        return [.send(.pairingConfirm(confirm))]
    }

    private mutating func receivedConfirm(_ value: [UInt8]) -> [Action] {
        guard peerConfirm == nil else { return fail(.unspecifiedReason, "a second Pairing Confirm") }
        peerConfirm = value
        if !secureConnections {
            if role == .initiator {
                guard sentConfirm else { return fail(.unspecifiedReason, "Pairing Confirm before ours") }
                sentRandom = true
                return [.send(.pairingRandom(localNonce))]
            }
            // Responder: answer when the passkey is known.
            return waitingForPasskey ? [] : sendLegacyConfirm()
        }
        switch method {
        case .passkeyEntry:
            if role == .initiator {
                guard sentConfirm else { return fail(.unspecifiedReason, "Pairing Confirm before ours") }
                sentRandom = true
                return [.send(.pairingRandom(localNonce))]
            }
            return waitingForPasskey ? [] : sendPasskeyConfirm()
        default:
            // JW / NC: only the initiator receives a confirm (the responder's Cb).
            guard role == .initiator else { return fail(.unspecifiedReason, "Pairing Confirm from the initiator") }
            localNonce = random(16)
            sentRandom = true
            return [.send(.pairingRandom(localNonce))]
        }
    }

    private mutating func receivedRandom(_ value: [UInt8]) -> [Action] {
        let needsConfirm = !secureConnections || role == .initiator || isPasskeyEntry
        guard let confirm = peerConfirm ?? (needsConfirm ? nil : []) else {
            return fail(.unspecifiedReason, "Pairing Random before Pairing Confirm")
        }
        if role == .responder && !sentConfirm { return fail(.unspecifiedReason, "Pairing Random before our Pairing Confirm") }
        peerNonce = value
        if !secureConnections { return receivedLegacyRandom(confirm) }
        let peerX = peerPublicKey!.x
        switch method {
        case .passkeyEntry:
            guard SecurityToolbox.constantTimeEqual(SecurityToolbox.f4(peerX, keyPair.x, value, passkeyBit), confirm) else {
                return fail(.confirmValueFailed, "the passkey confirm of round \(round + 1) does not match (wrong passkey?)")
            }
            var actions: [Action] = []
            if role == .responder { actions.append(.send(.pairingRandom(localNonce))) }
            peerConfirm = nil
            sentConfirm = false
            round += 1
            if round < 20 {
                if role == .initiator { actions += sendPasskeyConfirm() }
                return actions
            }
            return actions + authenticationStage2()
        default:
            if role == .initiator {
                // Cb = f4(PKbx, PKax, Nb, 0)
                guard SecurityToolbox.constantTimeEqual(SecurityToolbox.f4(peerX, keyPair.x, value, 0), confirm) else {
                    return fail(.confirmValueFailed, "the accessory's confirm value does not match")
                }
                return authenticationStage2()
            }
            return [.send(.pairingRandom(localNonce))] + authenticationStage2()
        }
    }

    /// Numeric comparison (if any), then f5 and the DHKey checks.
    private mutating func authenticationStage2() -> [Action] {
        let na = role == .initiator ? localNonce : peerNonce
        let nb = role == .initiator ? peerNonce : localNonce
        let (a, b) = addresses
        (macKey, ltk) = SecurityToolbox.f5(w: dhKey, n1: na, n2: nb, a1: a, a2: b)
        phase = .awaitingDHKeyCheck
        var actions: [Action] = []
        if method == .numericComparison {
            let pkax = role == .initiator ? keyPair.x : peerPublicKey!.x
            let pkbx = role == .initiator ? peerPublicKey!.x : keyPair.x
            actions.append(.confirmNumber(SecurityToolbox.g2(u: pkax, v: pkbx, x: na, y: nb) % 1_000_000))
        }
        if role == .initiator && (method != .numericComparison || comparisonAccepted == true) {
            actions += sendCheck()
        }
        return actions
    }

    /// A and B of f5/f6: address type and address of the initiator and the responder.
    private var addresses: (a: [UInt8], b: [UInt8]) {
        let local = [localAddress.type.isRandom ? 1 : 0] + localAddress.address.bytes
        let peer = [peerAddress.type.isRandom ? 1 : 0] + peerAddress.address.bytes
        return role == .initiator ? (local, peer) : (peer, local)
    }

    private func ioCap(_ features: PairingFeatures) -> [UInt8] {
        [features.authentication.rawValue, features.oobDataFlag, features.ioCapability.rawValue]
    }

    /// Initiator: sends Ea.
    private mutating func sendCheck() -> [Action] {
        guard let request else { return [] }
        sentCheck = true
        let (a, b) = addresses
        let ea = SecurityToolbox.f6(w: macKey, n1: localNonce, n2: peerNonce, r: checkR, ioCap: ioCap(request), a1: a, a2: b)
        return [.send(.pairingDHKeyCheck(ea))]
    }

    private mutating func receivedDHKeyCheck(_ value: [UInt8]) -> [Action] {
        guard let request, let response else { return [] }
        let (a, b) = addresses
        if role == .initiator {
            guard sentCheck else { return fail(.unspecifiedReason, "DHKey Check before ours") }
            let eb = SecurityToolbox.f6(w: macKey, n1: peerNonce, n2: localNonce, r: checkR, ioCap: ioCap(response), a1: b, a2: a)
            guard SecurityToolbox.constantTimeEqual(eb, value) else {
                return fail(.dhKeyCheckFailed, "the accessory's DHKey check does not match")
            }
            let key = LongTermKey(key: SecurityKey(SecurityToolbox.masked(ltk, toSize: keySize))!)
            encryptionKey = key
            phase = .awaitingEncryption
            return [.startEncryption(key)]
        }
        _ = request
        if method == .numericComparison && comparisonAccepted != true {
            pendingPeerCheck = value
            return []
        }
        return verifyInitiatorCheck(value)
    }

    /// Responder: checks Ea, answers Eb and expects encryption with the LTK.
    private mutating func verifyInitiatorCheck(_ value: [UInt8]) -> [Action] {
        guard let request, let response else { return [] }
        let (a, b) = addresses
        let ea = SecurityToolbox.f6(w: macKey, n1: peerNonce, n2: localNonce, r: checkR, ioCap: ioCap(request), a1: a, a2: b)
        guard SecurityToolbox.constantTimeEqual(ea, value) else {
            return fail(.dhKeyCheckFailed, "the initiator's DHKey check does not match")
        }
        let eb = SecurityToolbox.f6(w: macKey, n1: localNonce, n2: peerNonce, r: checkR, ioCap: ioCap(response), a1: b, a2: a)
        let key = LongTermKey(key: SecurityKey(SecurityToolbox.masked(ltk, toSize: keySize))!)
        encryptionKey = key
        phase = .awaitingEncryption
        return [.send(.pairingDHKeyCheck(eb)), .provideKey(key)]
    }

    // MARK: - Legacy pairing

    private var tk: [UInt8] {
        var value = [UInt8](repeating: 0, count: 16)
        let key = passkey ?? 0
        value[12] = UInt8(key >> 24)
        value[13] = UInt8(key >> 16 & 0xFF)
        value[14] = UInt8(key >> 8 & 0xFF)
        value[15] = UInt8(key & 0xFF)
        return value
    }

    private func legacyConfirm(_ random: [UInt8]) -> [UInt8] {
        let initiator = role == .initiator ? localAddress : peerAddress
        let responder = role == .initiator ? peerAddress : localAddress
        return SecurityToolbox.c1(
            k: tk, r: random, preq: Array(SMPPDU.pairingRequest(request!).bytes.reversed()),
            pres: Array(SMPPDU.pairingResponse(response!).bytes.reversed()),
            iat: initiator.type.isRandom ? 1 : 0, ia: initiator.address.bytes,
            rat: responder.type.isRandom ? 1 : 0, ra: responder.address.bytes)
    }

    private mutating func sendLegacyConfirm() -> [Action] {
        guard !sentConfirm else { return [] }
        localNonce = random(16)
        sentConfirm = true
        return [.send(.pairingConfirm(legacyConfirm(localNonce)))]
    }

    private mutating func receivedLegacyRandom(_ confirm: [UInt8]) -> [Action] {
        guard SecurityToolbox.constantTimeEqual(legacyConfirm(peerNonce), confirm) else {
            return fail(.confirmValueFailed, "the confirm value does not match (wrong passkey?)")
        }
        let mrand = role == .initiator ? localNonce : peerNonce
        let srand = role == .initiator ? peerNonce : localNonce
        let stk = SecurityToolbox.masked(SecurityToolbox.s1(k: tk, r1: srand, r2: mrand), toSize: keySize)
        let key = LongTermKey(key: SecurityKey(stk)!)
        encryptionKey = key
        phase = .awaitingEncryption
        if role == .initiator { return [.startEncryption(key)] }
        return [.send(.pairingRandom(localNonce)), .provideKey(key)]
    }

    // MARK: - Key distribution

    private static func isKeyDistribution(_ pdu: SMPPDU) -> Bool {
        switch pdu {
        case .encryptionInformation, .centralIdentification, .identityInformation, .identityAddressInformation,
             .signingInformation:
            return true
        default:
            return false
        }
    }

    private mutating func receivedKey(_ pdu: SMPPDU) -> [Action] {
        // Nothing may change the keys once they are complete (and being checked, or accepted).
        if verificationRequested { return fail(.unspecifiedReason, "\(pdu) after all the keys were distributed") }
        switch pdu {
        case .encryptionInformation(let key):
            guard expectedPeerKeys.contains(.encryptionKey) else { return fail(.unspecifiedReason, "an LTK that was not agreed") }
            peerLTK = SecurityKey(SecurityToolbox.masked(key, toSize: keySize))
        case .centralIdentification(let ediv, let rand):
            guard let peerLTK else { return fail(.unspecifiedReason, "Central Identification before Encryption Information") }
            peerLongTermKey = LongTermKey(key: peerLTK, ediv: ediv, rand: rand)
            receivedPeerKeys.insert(.encryptionKey)
        case .identityInformation(let irk):
            guard expectedPeerKeys.contains(.identityKey) else { return fail(.unspecifiedReason, "an IRK that was not agreed") }
            peerIRK = SecurityKey(irk)
        case .identityAddressInformation(let type, let address):
            guard peerIRK != nil else { return fail(.unspecifiedReason, "Identity Address Information before Identity Information") }
            guard type == .public || (type == .random && address.randomAddressKind == .staticAddress) else {
                return fail(.invalidParameters, "identity address \(address) (\(type)) is neither public nor static")
            }
            peerIdentity = IdentityAddress(address: address, type: type)
            receivedPeerKeys.insert(.identityKey)
        default:
            // Signing Information: never offered, so never agreed.
            return fail(.unspecifiedReason, "a signing key (CSRK) that was not agreed")
        }
        return peerKeysComplete()
    }

    /// Once every key the peer agreed to distribute is in: the bond to check (once).
    private mutating func peerKeysComplete() -> [Action] {
        guard isActive, phase == .distributingKeys, receivedPeerKeys.isSuperset(of: expectedPeerKeys), !verificationRequested,
              let bond = madeBond else { return [] }
        verificationRequested = true
        return [.verifyPeerKeys(bond)]
    }

    private mutating func sendLocalKeys() -> [Action] {
        var actions: [Action] = []
        if localKeysToSend.contains(.encryptionKey) {
            let key = SecurityToolbox.masked(random(16), toSize: keySize)
            let ediv = random(2).reduce(UInt16(0)) { $0 << 8 | UInt16($1) }
            let rand = random(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            localLongTermKey = LongTermKey(key: SecurityKey(key)!, ediv: ediv, rand: rand)
            actions.append(.send(.encryptionInformation(ltk: key)))
            actions.append(.send(.centralIdentification(ediv: ediv, rand: rand)))
        }
        if localKeysToSend.contains(.identityKey), let localIdentity {
            actions.append(.send(.identityInformation(irk: localIdentity.irk.bytes)))
            actions.append(.send(.identityAddressInformation(type: localIdentity.address.type, address: localIdentity.address.address)))
        }
        localKeysToSend = []
        return actions
    }

    /// The bond this pairing makes (this side's legacy LTK once it was sent).
    private var madeBond: Bond? {
        guard let method, let encryptionKey else { return nil }
        var bond = Bond(
            peerIdentity: peerIdentity ?? peerAddress, peerLongTermKey: nil, localLongTermKey: nil, peerIRK: peerIRK,
            keySize: keySize, authenticated: method.isAuthenticated && !usesDebugKey, secureConnections: secureConnections,
            persistent: bonding)
        if secureConnections {
            bond.peerLongTermKey = encryptionKey
            bond.localLongTermKey = encryptionKey
        } else {
            bond.peerLongTermKey = peerLongTermKey
            bond.localLongTermKey = localLongTermKey
        }
        return bond
    }

    private mutating func finishIfDone() -> [Action] {
        guard phase == .distributingKeys, peerKeysAccepted, localKeysToSend.isEmpty, let method, let bond = madeBond else { return [] }
        phase = .done
        return [.completed(bond, method: method)]
    }

    // MARK: - Failure

    private mutating func fail(_ reason: PairingFailureReason, _ detail: String, error: SecurityError? = nil,
                               userRejected: Bool = false) -> [Action] {
        guard !isFinished else { return [] }
        phase = .failed
        let failure = error ?? (userRejected ? .userRejected(detail: detail) : .pairingFailed(reason: reason, detail: detail))
        return [.send(.pairingFailed(reason)), .failed(failure)]
    }

    /// Ends the pairing from outside (timeout, disconnection): no PDU is sent.
    public mutating func abort(_ error: SecurityError) -> [Action] {
        guard !isFinished else { return [] }
        phase = .failed
        return [.failed(error)]
    }
}
