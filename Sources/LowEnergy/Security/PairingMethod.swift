/// How the two devices authenticate (Vol 3 Part H 2.3.5.1).
public enum PairingMethod: Sendable, Hashable, CustomStringConvertible, Codable {
    /// No user interaction; no protection against a man in the middle.
    case justWorks
    /// Both devices show the same six-digit number; the users confirm it (Secure Connections).
    case numericComparison
    /// One device shows a six-digit passkey, the other's user types it (or both type it).
    case passkeyEntry(PasskeyEntry)
    /// Out of band data (not supported by this host; never selected).
    case outOfBand

    /// Who shows and who types the passkey.
    public enum PasskeyEntry: String, Sendable, Hashable, Codable {
        /// The initiator (central) shows it; the responder's user types it.
        case initiatorDisplays
        /// The responder (peripheral) shows it; the initiator's user types it.
        case responderDisplays
        /// Both users type the same passkey.
        case bothInput
    }

    /// `true` if the key is protected against a man in the middle (an authenticated key).
    public var isAuthenticated: Bool {
        switch self {
        case .justWorks: return false
        case .numericComparison, .passkeyEntry, .outOfBand: return true
        }
    }

    /// `"Just Works"`, `"Numeric Comparison"`, `"Passkey Entry"`.
    public var description: String {
        switch self {
        case .justWorks: return "Just Works"
        case .numericComparison: return "Numeric Comparison"
        case .passkeyEntry: return "Passkey Entry"
        case .outOfBand: return "Out of Band"
        }
    }

    /// The method for a pairing (Vol 3 Part H 2.3.5.1, tables 2.6-2.8): Just Works unless one
    /// side asks for MITM protection, then from the IO capabilities. OOB data is never used.
    /// - Parameters:
    ///   - initiator: the Pairing Request's features.
    ///   - responder: the Pairing Response's features.
    ///   - secureConnections: both set the SC flag.
    public static func select(initiator: PairingFeatures, responder: PairingFeatures, secureConnections: Bool) -> PairingMethod {
        let mitm = initiator.authentication.contains(.mitm) || responder.authentication.contains(.mitm)
        guard mitm else { return .justWorks }
        let i = initiator.ioCapability
        let r = responder.ioCapability
        // Reserved capabilities are treated as NoInputNoOutput.
        let known: Set<IOCapability> = [.displayOnly, .displayYesNo, .keyboardOnly, .noInputNoOutput, .keyboardDisplay]
        guard known.contains(i), known.contains(r), i != .noInputNoOutput, r != .noInputNoOutput else { return .justWorks }
        switch (r, i) {
        case (.displayOnly, .displayOnly), (.displayOnly, .displayYesNo), (.displayYesNo, .displayOnly):
            return .justWorks
        case (.displayYesNo, .displayYesNo):
            return secureConnections ? .numericComparison : .justWorks
        case (.displayOnly, .keyboardOnly), (.displayOnly, .keyboardDisplay), (.displayYesNo, .keyboardOnly),
             (.keyboardDisplay, .keyboardOnly):
            return .passkeyEntry(.responderDisplays)
        case (.displayYesNo, .keyboardDisplay):
            return secureConnections ? .numericComparison : .passkeyEntry(.responderDisplays)
        case (.keyboardOnly, .displayOnly), (.keyboardOnly, .displayYesNo), (.keyboardOnly, .keyboardDisplay),
             (.keyboardDisplay, .displayOnly):
            return .passkeyEntry(.initiatorDisplays)
        case (.keyboardOnly, .keyboardOnly):
            return .passkeyEntry(.bothInput)
        case (.keyboardDisplay, .displayYesNo), (.keyboardDisplay, .keyboardDisplay):
            return secureConnections ? .numericComparison : .passkeyEntry(.initiatorDisplays)
        default:
            return .justWorks
        }
    }
}
