/// Why pairing or encryption failed, with a message that says what to do (``description``).
public enum SecurityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The accessory sent Pairing Failed with `reason`.
    case pairingFailedByPeer(reason: PairingFailureReason)
    /// This host ended the pairing with `reason` (sent to the accessory as Pairing Failed).
    case pairingFailed(reason: PairingFailureReason, detail: String)
    /// The accessory's and this host's IO capabilities cannot give the security asked for
    /// (e.g. MITM protection with an accessory that has no display and no keyboard).
    case securityImpossible(detail: String)
    /// The user declined the numeric comparison or gave no passkey.
    case userRejected(detail: String)
    /// The accessory no longer has the bond this host stored ("PIN or Key Missing", 0x06): it
    /// was reset or paired with another device.
    case keyMissing(peer: BluetoothAddress)
    /// Encryption could not be started (`status` from Encryption Change or the command).
    case encryptionFailed(status: HCIStatus)
    /// The encryption key is shorter than required (`size` bytes, `minimum` required).
    case keySizeTooShort(size: Int, minimum: Int)
    /// No SMP answer within 30 s (Vol 3 Part H 3.4): no further pairing on this connection.
    case timeout(step: String)
    /// A peer's public key is not a point on P-256.
    case invalidPublicKey
    /// A malformed or unexpected SMP PDU.
    case invalidPDU(detail: String)
    /// Nothing is stored to encrypt with: pair first.
    case notBonded(peer: BluetoothAddress)
    /// The link went down (`reason`).
    case disconnected(reason: HCIStatus)
    /// An HCI command needed for encryption failed.
    case hci(BluetoothError)
    /// The bond could not be stored (`detail` says why).
    case storageFailed(detail: String)
    /// Pairing through bluetoothd failed: `Device1.Pair`'s error `name`
    /// (`org.bluez.Error.AuthenticationFailed`, ...) and message (doc/org.bluez.Device.rst).
    case bluez(name: String, message: String)
    /// This host refused the pairing because of its ``PairingPolicy`` (the refusal says why and
    /// what to do); nothing stored was changed.
    case refused(PairingRefusal)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .pairingFailedByPeer(let reason):
            var text = "the accessory refused pairing: \(reason)"
            if let hint = reason.hint { text += " (\(hint))" }
            return text
        case .pairingFailed(let reason, let detail):
            return "pairing failed: \(detail) (sent \(reason) to the accessory)"
        case .securityImpossible(let detail):
            return "the requested security is impossible with this accessory: \(detail)"
        case .userRejected(let detail):
            return "pairing cancelled: \(detail)"
        case .keyMissing(let peer):
            return "the accessory \(peer) no longer has this computer's bond (PIN or Key Missing): it was reset "
                + "or paired with another device. Pair it again: `nearby setup --repair NAME` "
                + "(or `nearby accessories forget NAME`, then `nearby setup --pair`)"
        case .encryptionFailed(let status):
            var text = "encryption failed: \(status)"
            if let hint = status.hint { text += " (\(hint))" }
            return text
        case .keySizeTooShort(let size, let minimum):
            return "the accessory offers a \(size)-byte encryption key; at least \(minimum) bytes are required"
        case .timeout(let step):
            return "pairing timed out (no answer within 30 s while \(step)); connect again to retry"
        case .invalidPublicKey:
            return "the accessory's public key is not a valid P-256 point; pairing refused"
        case .invalidPDU(let detail):
            return "invalid Security Manager packet: \(detail)"
        case .notBonded(let peer):
            return "\(peer) is not paired with this computer: pair it first (`nearby setup --pair`)"
        case .disconnected(let reason):
            var text = "the connection ended during pairing: \(reason)"
            if let hint = reason.hint { text += " (\(hint))" }
            return text
        case .hci(let error):
            return "\(error)"
        case .storageFailed(let detail):
            return "the bond could not be stored: \(detail); the accessory will have to be paired again next time"
        case .bluez(let name, let message):
            let what: String
            switch name {
            case "org.bluez.Error.AuthenticationFailed":
                what = "authentication failed (a wrong passkey, a comparison the accessory rejected, or keys that do not match)"
            case "org.bluez.Error.AuthenticationRejected":
                what = "the accessory refused pairing"
            case "org.bluez.Error.AuthenticationCanceled":
                what = "pairing was cancelled (the number was not confirmed or no passkey was given: --confirm / --passkey N)"
            case "org.bluez.Error.AuthenticationTimeout":
                what = "pairing timed out (nobody answered)"
            case "org.bluez.Error.ConnectionAttemptFailed":
                what = "the connection for pairing failed"
            default:
                what = "bluetoothd could not pair"
            }
            return "pairing through BlueZ failed: \(what) [\(name)\(message.isEmpty ? "" : ": \(message)")]"
        case .refused(let refusal):
            return refusal.description
        }
    }

    /// A stable name for the kind of failure (the `code` of `--json` output): the refusal's
    /// reason (``PairingRefusal/Reason``) for ``refused(_:)``, else `pairing_refused_by_accessory`,
    /// `pairing_failed`, `security_impossible`, `user_rejected`, `key_missing`,
    /// `encryption_failed`, `key_size_too_short`, `timeout`, `invalid_public_key`, `invalid_pdu`,
    /// `not_bonded`, `disconnected`, `hci`, `storage_failed`, `bluez_pairing_failed`.
    public var code: String {
        switch self {
        case .pairingFailedByPeer: return "pairing_refused_by_accessory"
        case .pairingFailed: return "pairing_failed"
        case .securityImpossible: return "security_impossible"
        case .userRejected: return "user_rejected"
        case .keyMissing: return "key_missing"
        case .encryptionFailed: return "encryption_failed"
        case .keySizeTooShort: return "key_size_too_short"
        case .timeout: return "timeout"
        case .invalidPublicKey: return "invalid_public_key"
        case .invalidPDU: return "invalid_pdu"
        case .notBonded: return "not_bonded"
        case .disconnected: return "disconnected"
        case .hci: return "hci"
        case .storageFailed: return "storage_failed"
        case .bluez: return "bluez_pairing_failed"
        case .refused(let refusal): return refusal.reason.rawValue
        }
    }

    /// The refusal, if this host refused the pairing by policy.
    public var refusal: PairingRefusal? {
        if case .refused(let refusal) = self { return refusal }
        return nil
    }
}
