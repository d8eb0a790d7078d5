/// The type of a session, given in SESSION_INIT_CMD.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCISessionType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a session type from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// FIRA_RANGING_SESSION (0x00): FiRa ranging.
    public static let ranging = UCISessionType(rawValue: 0x00)
    /// FIRA_RANGING_AND_IN_BAND_DATA_SESSION (0x01): FiRa ranging with in-band data.
    public static let rangingAndInBandData = UCISessionType(rawValue: 0x01)
    /// FIRA_DATA_TRANSFER_SESSION (0x02): FiRa data transfer.
    public static let dataTransfer = UCISessionType(rawValue: 0x02)
    /// FIRA_RANGING_ONLY_PHASE (0x03): FiRa ranging-only phase (hybrid scheduling).
    public static let rangingOnlyPhase = UCISessionType(rawValue: 0x03)
    /// FIRA_IN_BAND_DATA_PHASE (0x04): FiRa in-band data phase (hybrid scheduling).
    public static let inBandDataPhase = UCISessionType(rawValue: 0x04)
    /// FIRA_RANGING_WITH_DATA_PHASE (0x05): FiRa ranging with data phase (hybrid scheduling).
    public static let rangingWithDataPhase = UCISessionType(rawValue: 0x05)
    /// FIRA_HUS_PRIMARY_SESSION (0x9F): FiRa hybrid-scheduling primary session.
    public static let hybridPrimary = UCISessionType(rawValue: 0x9F)
    /// CCC (0xA0): Car Connectivity Consortium digital key ranging.
    public static let ccc = UCISessionType(rawValue: 0xA0)
    /// RADAR_SESSION (0xA1): radar (Android extension).
    public static let radar = UCISessionType(rawValue: 0xA1)
    /// ALIRO (0xA2): Aliro access control.
    public static let aliro = UCISessionType(rawValue: 0xA2)
    /// DEVICE_TEST_MODE (0xD0): RF test mode.
    public static let deviceTestMode = UCISessionType(rawValue: 0xD0)

    /// The specification's name (`"FIRA_RANGING_AND_IN_BAND_DATA_SESSION"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "FIRA_RANGING_SESSION"
        case 0x01: "FIRA_RANGING_AND_IN_BAND_DATA_SESSION"
        case 0x02: "FIRA_DATA_TRANSFER_SESSION"
        case 0x03: "FIRA_RANGING_ONLY_PHASE"
        case 0x04: "FIRA_IN_BAND_DATA_PHASE"
        case 0x05: "FIRA_RANGING_WITH_DATA_PHASE"
        case 0x9F: "FIRA_HUS_PRIMARY_SESSION"
        case 0xA0: "CCC"
        case 0xA1: "RADAR_SESSION"
        case 0xA2: "ALIRO"
        case 0xD0: "DEVICE_TEST_MODE"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "FiRa ranging"
        case 0x01: "FiRa ranging with in-band data"
        case 0x02: "FiRa data transfer"
        case 0x03: "FiRa ranging-only phase (hybrid scheduling)"
        case 0x04: "FiRa in-band data phase (hybrid scheduling)"
        case 0x05: "FiRa ranging with data phase (hybrid scheduling)"
        case 0x9F: "FiRa hybrid-scheduling primary session"
        case 0xA0: "Car Connectivity Consortium digital key ranging"
        case 0xA1: "radar (Android extension)"
        case 0xA2: "Aliro access control"
        case 0xD0: "RF test mode"
        default: "reserved or vendor session type"
        }
    }

    /// `"FIRA_RANGING_AND_IN_BAND_DATA_SESSION (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
