/// The Android variant's ranging-role bitmask: bit 0 controller, bit 1 controlee (NXP
/// `UwbApi_Utility.c`, Truesense `uwb_types.hpp`).
public struct AndroidRangingRoles: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The byte on the wire.
    public var rawValue: UInt8
    /// Wraps a byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: controller (and initiator).
    public static let controller = AndroidRangingRoles(rawValue: 0x01)
    /// Bit 1: controlee (and responder).
    public static let controlee = AndroidRangingRoles(rawValue: 0x02)

    /// `controller`, `controlee`, `controller+controlee` or `none`.
    public var description: String {
        var names: [String] = []
        if contains(.controller) { names.append("controller") }
        if contains(.controlee) { names.append("controlee") }
        return names.isEmpty ? "none" : names.joined(separator: "+")
    }
}
