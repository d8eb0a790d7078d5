/// The status of a DATA_MESSAGE_RCV data message (UCI 2.0).
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIDataReceiveStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a status from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// SUCCESS (0x00): the data was received intact.
    public static let success = UCIDataReceiveStatus(rawValue: 0x00)
    /// ERROR (0x01): the data was received with an error.
    public static let error = UCIDataReceiveStatus(rawValue: 0x01)
    /// UNKNOWN (0x02): unknown reception status.
    public static let unknown = UCIDataReceiveStatus(rawValue: 0x02)

    /// The specification's name (`"ERROR"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "SUCCESS"
        case 0x01: "ERROR"
        case 0x02: "UNKNOWN"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "the data was received intact"
        case 0x01: "the data was received with an error"
        case 0x02: "unknown reception status"
        default: "reserved data reception status"
        }
    }

    /// `"ERROR (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
