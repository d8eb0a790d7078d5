/// The state of the UWB subsystem, reported by CORE_DEVICE_STATUS_NTF and the DEVICE_STATE
/// device configuration.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIDeviceState: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a device state from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// DEVICE_STATE_READY (0x01): ready for commands, no session active.
    public static let ready = UCIDeviceState(rawValue: 0x01)
    /// DEVICE_STATE_ACTIVE (0x02): at least one session is active.
    public static let active = UCIDeviceState(rawValue: 0x02)
    /// DEVICE_STATE_ERROR (0xFF): the UWBS failed; reset it with CORE_DEVICE_RESET.
    public static let error = UCIDeviceState(rawValue: 0xFF)
    /// 0x00, NXP's `UWB_DEVICE_INIT` (not a FiRa state): an NXP SR1xx after power-up, waiting
    /// for its board configuration before it is READY (NXP's UWB HAL, `phNxpUciHal_init_hw`).
    public static let nxpHardwareInit = UCIDeviceState(rawValue: 0x00)

    /// The specification's name (`"DEVICE_STATE_ACTIVE"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "NXP_DEVICE_INIT"
        case 0x01: "DEVICE_STATE_READY"
        case 0x02: "DEVICE_STATE_ACTIVE"
        case 0xFF: "DEVICE_STATE_ERROR"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "NXP: waiting for the board configuration"
        case 0x01: "ready for commands, no session active"
        case 0x02: "at least one session is active"
        case 0xFF: "the UWBS failed; reset it with CORE_DEVICE_RESET"
        default: "reserved device state"
        }
    }

    /// `"DEVICE_STATE_ACTIVE (0x02)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
