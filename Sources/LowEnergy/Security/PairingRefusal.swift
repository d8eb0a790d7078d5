/// A pairing this host refused because of its ``PairingPolicy``: what was refused, why, and what
/// the user can do about it. Carried by ``SecurityError/refused(_:)``, so it reaches the
/// connection's events (``ConnectionEvent/securityFailed(_:)``), `nearby setup` and `nearby range`
/// (and their `--json` output) like every other security failure.
public struct PairingRefusal: Sendable, Hashable, CustomStringConvertible {
    /// Why (a stable name: the `code` of the JSON output).
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The peer used the debug public key of Vol 3 Part H 2.3.5.6.1 (`--allow-debug-keys`
        /// accepts it).
        case debugKey = "debug_key"
        /// The pairing would replace a bond with a weaker one (unauthenticated over
        /// authenticated, legacy over Secure Connections, a shorter key).
        case weakerThanBond = "weaker_than_bond"
        /// The peer distributed the identity of a bonded device with a different IRK, or a
        /// bonded device now claims another identity: a takeover unless the user repairs it.
        case identityConflict = "identity_conflict"
        /// The peer failed to pair recently; the Repeated Attempts waiting interval (Vol 3 Part H
        /// 2.3.6) has not passed yet.
        case repeatedAttempts = "repeated_attempts"
        /// The peer already caused as many pairings on this connection as the policy allows.
        case tooManyPairings = "too_many_pairings"
    }

    /// Why.
    public var reason: Reason
    /// The peer's address on the connection.
    public var peer: BluetoothAddress
    /// What happened, in a sentence a user understands.
    public var detail: String
    /// What the user can do.
    public var action: String
    /// The Pairing Failed reason sent to the peer.
    public var sent: PairingFailureReason
    /// For ``Reason/repeatedAttempts``: how long until the peer may pair again.
    public var retryAfter: Duration?

    /// Creates a refusal.
    public init(reason: Reason, peer: BluetoothAddress, detail: String, action: String, sent: PairingFailureReason,
                retryAfter: Duration? = nil) {
        self.reason = reason
        self.peer = peer
        self.detail = detail
        self.action = action
        self.sent = sent
        self.retryAfter = retryAfter
    }

    /// `"refused pairing with F0:...: <detail>; <action>"`.
    public var description: String { "refused pairing with \(peer): \(detail); \(action)" }
}
