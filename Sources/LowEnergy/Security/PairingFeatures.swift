/// A device's input and output capabilities for pairing (Vol 3 Part H 2.3.2).
public struct IOCapability: RawRepresentable, Sendable, Hashable, CustomStringConvertible, Codable {
    /// The SMP code.
    public let rawValue: UInt8

    /// Creates a capability from its code (values above 4 are reserved and kept).
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: shows a six-digit number, no input.
    public static let displayOnly = IOCapability(rawValue: 0x00)
    /// 0x01: shows a number and has yes / no input.
    public static let displayYesNo = IOCapability(rawValue: 0x01)
    /// 0x02: keyboard, no display.
    public static let keyboardOnly = IOCapability(rawValue: 0x02)
    /// 0x03: neither (Just Works only).
    public static let noInputNoOutput = IOCapability(rawValue: 0x03)
    /// 0x04: keyboard and display.
    public static let keyboardDisplay = IOCapability(rawValue: 0x04)

    /// `"DisplayYesNo"`, ...
    public var description: String {
        switch rawValue {
        case 0: return "DisplayOnly"
        case 1: return "DisplayYesNo"
        case 2: return "KeyboardOnly"
        case 3: return "NoInputNoOutput"
        case 4: return "KeyboardDisplay"
        default: return "reserved IO capability 0x\(hex(rawValue))"
        }
    }
}

/// The AuthReq field (Vol 3 Part H 3.5.1): bonding, MITM, Secure Connections, keypress, CT2.
public struct AuthenticationRequirements: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt8

    /// Creates requirements from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bonding flags `01`: keys are stored (a bond).
    public static let bonding = AuthenticationRequirements(rawValue: 0x01)
    /// Man-in-the-middle protection (an authenticated key).
    public static let mitm = AuthenticationRequirements(rawValue: 0x04)
    /// LE Secure Connections supported.
    public static let secureConnections = AuthenticationRequirements(rawValue: 0x08)
    /// Keypress notifications.
    public static let keypress = AuthenticationRequirements(rawValue: 0x10)
    /// h7 support for cross-transport key derivation.
    public static let ct2 = AuthenticationRequirements(rawValue: 0x20)

    /// `true` if the bonding flags say "bonding" (`01`).
    public var wantsBonding: Bool { rawValue & 0x03 == 0x01 }
}

/// Which keys a device distributes after pairing (Vol 3 Part H 3.6.1).
public struct KeyDistribution: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt8

    /// Creates a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// EncKey: LTK, EDIV and Rand (legacy pairing only; ignored with Secure Connections).
    public static let encryptionKey = KeyDistribution(rawValue: 0x01)
    /// IdKey: IRK and identity address.
    public static let identityKey = KeyDistribution(rawValue: 0x02)
    /// SignKey: CSRK.
    public static let signingKey = KeyDistribution(rawValue: 0x04)
    /// LinkKey: derive a BR/EDR link key.
    public static let linkKey = KeyDistribution(rawValue: 0x08)
}

/// The body of a Pairing Request or Pairing Response (Vol 3 Part H 3.5.1, 3.5.2).
public struct PairingFeatures: Sendable, Hashable, CustomStringConvertible {
    /// IO capability.
    public var ioCapability: IOCapability
    /// The OOB data flag byte as sent: 0x00 not present, 0x01 present; a reserved value is kept
    /// as received, so that the confirm and check values computed over the PDU match the peer's.
    public var oobDataFlag: UInt8
    /// `true` if OOB authentication data of the peer is present (the flag is 0x01).
    public var oobDataPresent: Bool {
        get { oobDataFlag == 0x01 }
        set { oobDataFlag = newValue ? 0x01 : 0x00 }
    }
    /// Authentication requirements.
    public var authentication: AuthenticationRequirements
    /// Maximum encryption key size, bytes (7...16).
    public var maximumKeySize: UInt8
    /// Keys the initiator (central) distributes.
    public var initiatorKeys: KeyDistribution
    /// Keys the responder (peripheral) distributes.
    public var responderKeys: KeyDistribution

    /// Creates the features.
    public init(ioCapability: IOCapability, oobDataPresent: Bool = false, authentication: AuthenticationRequirements,
                maximumKeySize: UInt8 = 16, initiatorKeys: KeyDistribution, responderKeys: KeyDistribution) {
        self.ioCapability = ioCapability
        self.oobDataFlag = oobDataPresent ? 0x01 : 0x00
        self.authentication = authentication
        self.maximumKeySize = maximumKeySize
        self.initiatorKeys = initiatorKeys
        self.responderKeys = responderKeys
    }

    /// The six bytes after the code.
    var bytes: [UInt8] {
        [ioCapability.rawValue, oobDataFlag, authentication.rawValue, maximumKeySize,
         initiatorKeys.rawValue, responderKeys.rawValue]
    }

    /// `"KeyboardDisplay, bonding MITM SC, key 16, keys init 0x03 resp 0x03"`.
    public var description: String {
        var flags: [String] = []
        if authentication.wantsBonding { flags.append("bonding") }
        if authentication.contains(.mitm) { flags.append("MITM") }
        if authentication.contains(.secureConnections) { flags.append("SC") }
        return "\(ioCapability), \(flags.isEmpty ? "no bonding" : flags.joined(separator: " ")), key \(maximumKeySize), "
            + "keys init 0x\(hex(initiatorKeys.rawValue)) resp 0x\(hex(responderKeys.rawValue))"
    }
}

/// A Pairing Failed reason (Vol 3 Part H 3.5.5). Unknown values are kept.
public struct PairingFailureReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code.
    public let rawValue: UInt8

    /// Creates a reason from its code.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01 Passkey Entry Failed.
    public static let passkeyEntryFailed = PairingFailureReason(rawValue: 0x01)
    /// 0x02 OOB Not Available.
    public static let oobNotAvailable = PairingFailureReason(rawValue: 0x02)
    /// 0x03 Authentication Requirements.
    public static let authenticationRequirements = PairingFailureReason(rawValue: 0x03)
    /// 0x04 Confirm Value Failed.
    public static let confirmValueFailed = PairingFailureReason(rawValue: 0x04)
    /// 0x05 Pairing Not Supported.
    public static let pairingNotSupported = PairingFailureReason(rawValue: 0x05)
    /// 0x06 Encryption Key Size.
    public static let encryptionKeySize = PairingFailureReason(rawValue: 0x06)
    /// 0x07 Command Not Supported.
    public static let commandNotSupported = PairingFailureReason(rawValue: 0x07)
    /// 0x08 Unspecified Reason.
    public static let unspecifiedReason = PairingFailureReason(rawValue: 0x08)
    /// 0x09 Repeated Attempts.
    public static let repeatedAttempts = PairingFailureReason(rawValue: 0x09)
    /// 0x0A Invalid Parameters.
    public static let invalidParameters = PairingFailureReason(rawValue: 0x0A)
    /// 0x0B DHKey Check Failed.
    public static let dhKeyCheckFailed = PairingFailureReason(rawValue: 0x0B)
    /// 0x0C Numeric Comparison Failed.
    public static let numericComparisonFailed = PairingFailureReason(rawValue: 0x0C)

    /// The specification's name.
    public var name: String {
        switch rawValue {
        case 0x01: return "Passkey Entry Failed"
        case 0x02: return "OOB Not Available"
        case 0x03: return "Authentication Requirements"
        case 0x04: return "Confirm Value Failed"
        case 0x05: return "Pairing Not Supported"
        case 0x06: return "Encryption Key Size"
        case 0x07: return "Command Not Supported"
        case 0x08: return "Unspecified Reason"
        case 0x09: return "Repeated Attempts"
        case 0x0A: return "Invalid Parameters"
        case 0x0B: return "DHKey Check Failed"
        case 0x0C: return "Numeric Comparison Failed"
        case 0x0D: return "BR/EDR Pairing In Progress"
        case 0x0E: return "Cross-transport Key Derivation/Generation Not Allowed"
        case 0x0F: return "Key Rejected"
        case 0x10: return "Busy"
        default: return "Reserved"
        }
    }

    /// What usually causes it and what to do.
    public var hint: String? {
        switch rawValue {
        case 0x01: return "the passkey was not entered or was cancelled on the accessory"
        case 0x03: return "the accessory requires stronger security (MITM or Secure Connections) than the IO capabilities allow"
        case 0x04: return "wrong passkey, or the numbers did not match: try again and enter the passkey the accessory shows"
        case 0x05: return "the accessory does not accept pairing now (it may need a button press to enter pairing mode)"
        case 0x06: return "the encryption key would be too short"
        case 0x09: return "too many attempts: wait a while before pairing again"
        case 0x0B: return "the key check failed: wrong passkey or a man in the middle"
        case 0x0C: return "the numbers were not confirmed on the accessory"
        default: return nil
        }
    }

    /// `"0x05 Pairing Not Supported"`.
    public var description: String { "0x\(hex(rawValue)) \(name)" }
}
