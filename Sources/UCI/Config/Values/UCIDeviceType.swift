/// The DEVICE_TYPE app configuration (0x00): whether this device controls the session.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIDeviceType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a device type from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// CONTROLEE (0x00): follows the controller's session parameters.
    public static let controlee = UCIDeviceType(rawValue: 0x00)
    /// CONTROLLER (0x01): sets the session parameters and schedule.
    public static let controller = UCIDeviceType(rawValue: 0x01)

    /// The specification's name (`"CONTROLLER"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "CONTROLEE"
        case 0x01: "CONTROLLER"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "follows the controller's session parameters"
        case 0x01: "sets the session parameters and schedule"
        default: "reserved device type"
        }
    }

    /// `"CONTROLLER (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
