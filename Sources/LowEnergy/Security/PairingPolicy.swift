import NearbyBase

/// The pairing policy: every decision about what a pairing may do and what it may leave behind,
/// in one place. specs/ble-security.md §3 is this type as a table, with the stacks each rule
/// follows (Linux `net/bluetooth/smp.c`, Zephyr `subsys/bluetooth/host/smp.c`, Bumble
/// `bumble/smp.py`).
///
/// Pure: it answers questions about features, keys and bonds; ``PairingSession`` and
/// ``SecurityManager`` ask it at the points where the answer matters and act on it. The knobs are
/// in ``SecurityConfiguration`` (`configuration.policy` makes one).
public struct PairingPolicy: Sendable, Hashable {
    /// The settings the decisions follow.
    public let configuration: SecurityConfiguration

    /// The policy of `configuration`.
    public init(_ configuration: SecurityConfiguration) {
        self.configuration = configuration
    }

    // MARK: - Key size

    /// The shortest encryption key accepted, bytes: 16 in Secure Connections Only mode (Vol 3 Part
    /// C 10.2.4; Zephyr's `remote_sec_level_reachable()` for `CONFIG_BT_SMP_SC_ONLY`), else
    /// ``SecurityConfiguration/minimumKeySize``.
    public var minimumKeySize: Int {
        configuration.secureConnectionsOnly ? 16 : configuration.minimumKeySize
    }

    // MARK: - What is stored

    /// `true` if the keys of a pairing are kept (a bond): only when both the Pairing Request and
    /// the Pairing Response set the bonding flags (Linux `smp_notify_keys()`: "persistent only if
    /// both sides had the bonding bit set"; Zephyr's `SMP_FLAG_BOND`).
    public static func keepsKeys(request: PairingFeatures, response: PairingFeatures) -> Bool {
        request.authentication.wantsBonding && response.authentication.wantsBonding
    }

    // MARK: - Key distribution

    /// `true` if the Pairing Response's key distribution asks for no key the Pairing Request did
    /// not offer (Vol 3 Part H 3.5.2: the response's fields are a subset). Otherwise the pairing
    /// fails at once with Invalid Parameters, as Bumble's `on_smp_pairing_response_command` does,
    /// instead of both sides waiting 30 s for a key that never comes.
    public static func keyDistributionIsSubset(request: PairingFeatures, response: PairingFeatures) -> Bool {
        request.initiatorKeys.isSuperset(of: response.initiatorKeys) && request.responderKeys.isSuperset(of: response.responderKeys)
    }

    // MARK: - The debug key

    /// `true` if (x, y) is the debug public key of Vol 3 Part H 2.3.5.6.1 (compared in constant time).
    public static func isDebugKey(x: [UInt8], y: [UInt8]) -> Bool {
        SecurityToolbox.constantTimeEqual(x + y, debugPublicKey)
    }

    /// The debug public key, X then Y, most significant byte first.
    private static let debugPublicKey: [UInt8] = {
        let key = PairingKeyPair.debug()
        return key.x + key.y
    }()

    /// The refusal of a peer that uses the debug public key, `nil` with
    /// ``SecurityConfiguration/allowsDebugKeys``. Anyone who recorded such a pairing can derive
    /// the LTK: Linux never keeps its keys unless debug keys are enabled (`HCI_KEEP_DEBUG_KEYS`,
    /// `smp_chan_destroy()`), Zephyr marks them `BT_KEYS_DEBUG`; this host refuses the pairing.
    public func debugKeyRefusal(peer: BluetoothAddress) -> PairingRefusal? {
        guard !configuration.allowsDebugKeys else { return nil }
        return PairingRefusal(
            reason: .debugKey, peer: peer,
            detail: "the accessory uses the Bluetooth debug public key (Core Vol 3 Part H 2.3.5.6.1), so anyone who "
                + "recorded the pairing could decrypt the link",
            action: "take the accessory's firmware out of SMP debug mode; for a development kit you trust, pair with "
                + "`--allow-debug-keys` (the bond then counts as unauthenticated)",
            sent: .authenticationRequirements)
    }

    // MARK: - Replacing a bond

    /// How strong a pairing's key is: what a replacement must at least match.
    public struct Strength: Sendable, Hashable, CustomStringConvertible {
        /// Protected against a man in the middle (and not made with the debug key).
        public var authenticated: Bool
        /// LE Secure Connections.
        public var secureConnections: Bool
        /// Encryption key size, bytes.
        public var keySize: Int

        /// Creates a strength.
        public init(authenticated: Bool, secureConnections: Bool, keySize: Int) {
            self.authenticated = authenticated
            self.secureConnections = secureConnections
            self.keySize = keySize
        }

        /// The strength of `bond`.
        public init(_ bond: Bond) {
            self.init(authenticated: bond.authenticated, secureConnections: bond.secureConnections, keySize: bond.keySize)
        }

        /// `true` if this is weaker than `other` in any respect (Zephyr's `update_keys_check()`:
        /// a shorter key, legacy after Secure Connections, unauthenticated after authenticated).
        public func isWeaker(than other: Strength) -> Bool {
            (other.authenticated && !authenticated) || (other.secureConnections && !secureConnections) || keySize < other.keySize
        }

        /// `"authenticated, Secure Connections, 16-byte key"`.
        public var description: String {
            "\(authenticated ? "authenticated" : "unauthenticated (Just Works)"), "
                + "\(secureConnections ? "Secure Connections" : "legacy pairing"), \(keySize)-byte key"
        }
    }

    /// `true` if the user asked to replace `bond` (``SecurityConfiguration/repairing`` names its
    /// identity or `peer`).
    public func isRepairing(_ bond: Bond, peer: BluetoothAddress) -> Bool {
        configuration.repairing.contains(bond.peerIdentity.address) || configuration.repairing.contains(peer)
    }

    /// Whether a pairing of `strength` with `peer` may go on although `existing` is stored for
    /// it: never weaker (Zephyr's `update_keys_check()`, checked when the method is known, before
    /// any key), unless the user is repairing it. `nil`: it may.
    public func replacementRefusal(of existing: Bond, by strength: Strength, peer: BluetoothAddress) -> PairingRefusal? {
        guard !isRepairing(existing, peer: peer) else { return nil }
        let old = Strength(existing)
        guard strength.isWeaker(than: old) else { return nil }
        return PairingRefusal(
            reason: .weakerThanBond, peer: peer,
            detail: "this pairing (\(strength)) would replace the stronger bond with \(existing.peerIdentity) (\(old)); "
                + "nothing stored was changed",
            action: "if the accessory was reset, pair it again on purpose: `nearby setup --repair NAME`",
            sent: .authenticationRequirements)
    }

    /// Whether the keys of a finished pairing (`candidate`, before it is stored or used) may
    /// replace `existing`, the bond stored for the candidate's identity or for `peer`: never a
    /// weaker one, never a different IRK or identity for a bonded device (Zephyr's
    /// `smp_ident_addr_info()` and `smp_id_add_replace()`: "the old bond must be unpaired first"),
    /// unless the user is repairing it. `nil`: it may.
    public func replacementRefusal(of existing: Bond, by candidate: Bond, peer: BluetoothAddress) -> PairingRefusal? {
        if let weaker = replacementRefusal(of: existing, by: Strength(candidate), peer: peer) { return weaker }
        guard !isRepairing(existing, peer: peer) else { return nil }
        let sameIdentity = existing.peerIdentity == candidate.peerIdentity
        guard !sameIdentity || existing.peerIRK != candidate.peerIRK else { return nil }
        let detail = sameIdentity
            ? "\(peer) distributed the identity \(existing.peerIdentity) of a bonded accessory with a different identity "
                + "resolving key (IRK); nothing stored was changed"
            : "the bonded accessory \(existing.peerIdentity) now claims the identity \(candidate.peerIdentity); "
                + "nothing stored was changed"
        return PairingRefusal(
            reason: .identityConflict, peer: peer, detail: detail,
            action: "if that accessory was reset or replaced, pair it again on purpose: `nearby setup --repair NAME`; "
                + "otherwise another device is impersonating it",
            sent: .authenticationRequirements)
    }

    // MARK: - Security Requests (central)

    /// What a central does about a Security Request.
    public enum SecurityRequestAnswer: Sendable, Hashable {
        /// The link already has the security asked for.
        case nothing
        /// Encrypt with the stored bond (it satisfies the request).
        case encrypt
        /// Pair: there is no bond, or it is weaker than the request asks (MITM, Secure Connections).
        case pair
    }

    /// The answer to a Security Request with `authentication` (Zephyr's `smp_security_request()`):
    /// nothing when the link is encrypted with a key that satisfies it, encrypt when the stored
    /// `bond` does, else pair (MITM asked and the bond is unauthenticated, Secure Connections
    /// asked and the bond is legacy, or no bond). A new pairing is asked for only if it can give
    /// more than the bond: MITM protection needs this host to have a display or keyboard, Secure
    /// Connections that it offers them; otherwise the bond is used, and the accessory's own
    /// refusal (an ATT error) says what it needs.
    /// - Parameters:
    ///   - authentication: what the peer's Security Request asks for (MITM, Secure Connections, bonding).
    ///   - bond: the bond with the peer (stored, or made on this connection).
    ///   - encrypted: the link is encrypted (with `bond`'s key when there is a bond).
    public func answer(securityRequest authentication: AuthenticationRequirements, bond: Bond?, encrypted: Bool) -> SecurityRequestAnswer {
        guard let bond else { return .pair }
        let wantsMITM = authentication.contains(.mitm) && !bond.authenticated && canProtectAgainstMITM
        let wantsSC = authentication.contains(.secureConnections) && !bond.secureConnections
            && configuration.secureConnectionsSupported
        if wantsMITM || wantsSC { return .pair }
        if encrypted { return .nothing }
        return bond.peerLongTermKey != nil ? .encrypt : .pair
    }

    /// `true` if a pairing made by this host can be authenticated (it can show or type a number).
    public var canProtectAgainstMITM: Bool {
        configuration.ioCapability != .noInputNoOutput && configuration.ioCapability.rawValue <= IOCapability.keyboardDisplay.rawValue
    }

    // MARK: - Pairings the peer causes

    /// `true` if the peer may cause another pairing on a connection where it caused `started`
    /// already (``SecurityConfiguration/pairingsPerConnection``).
    public func peerMayPair(afterStarting started: Int) -> Bool {
        started < configuration.pairingsPerConnection
    }

    /// The refusal once the peer caused ``SecurityConfiguration/pairingsPerConnection`` pairings
    /// on one connection.
    public func tooManyPairingsRefusal(peer: BluetoothAddress) -> PairingRefusal {
        PairingRefusal(
            reason: .tooManyPairings, peer: peer,
            detail: "the accessory asked to pair again after \(configuration.pairingsPerConnection) pairings on this connection",
            action: "this host pairs again only after a new connection; if it keeps asking, the accessory may need a reset "
                + "or a firmware update",
            sent: .repeatedAttempts)
    }

    /// The Repeated Attempts waiting interval after `failures` failed pairings in a row (Vol 3
    /// Part H 2.3.6: it "shall be increased exponentially"): zero for none, then
    /// ``SecurityConfiguration/waitingInterval`` doubled per further failure, at most
    /// ``SecurityConfiguration/maximumWaitingInterval``.
    public func waitingInterval(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        let maximum = configuration.maximumWaitingInterval
        var interval = configuration.waitingInterval
        for _ in 1..<min(failures, 32) where interval < maximum { interval *= 2 }
        return min(interval, maximum)
    }

    /// The refusal while `peer` must wait `remaining` after `failures` failed pairings.
    public func repeatedAttemptsRefusal(peer: BluetoothAddress, failures: Int, remaining: Duration) -> PairingRefusal {
        let seconds = max(0.1, (remaining.inSeconds * 10).rounded(.up) / 10)
        return PairingRefusal(
            reason: .repeatedAttempts, peer: peer,
            detail: "pairing with the accessory failed \(failures) time\(failures == 1 ? "" : "s"); it may try again in "
                + "\(seconds) s (Repeated Attempts, Core Vol 3 Part H 2.3.6)",
            action: "wait, and check why pairing fails (the accessory may need a button press to enter pairing mode, or "
                + "a passkey)",
            sent: .repeatedAttempts, retryAfter: remaining)
    }
}
