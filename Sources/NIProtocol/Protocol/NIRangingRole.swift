/// The UWB role an accessory announces in its UWB config data (Apple dialect, one byte).
public enum NIRangingRole: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `0`: responder / controlee. Qorvo's 2024-25 firmware sends this.
    case responder = 0
    /// `1`: initiator / controller (Qorvo's 2021 firmware, TV-1).
    case initiator = 1

    /// `responder` or `initiator`.
    public var description: String {
        switch self {
        case .responder: "responder"
        case .initiator: "initiator"
        }
    }

    /// The allowed values, for error messages.
    static let allowedText = "0 (responder) or 1 (initiator)"
}
