/// The message type (MT) of a UCI packet: bits 7-5 of octet 0.
///
/// MT 0 is a data packet (16-bit length, data packet format instead of GID/OID); MT 1-3 are
/// control packets. MT 4 and 5 are reserved for testing and 6 and 7 are reserved: they are kept
/// as values (never trapping) and decoded with the control-packet layout.
public struct UCIMessageType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 3-bit wire value (0...7).
    public let rawValue: UInt8

    /// Creates a message type; bits above the low three are dropped.
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x07 }

    /// A data packet (MT 0).
    public static let data = UCIMessageType(rawValue: 0)
    /// A command, host to UWBS (MT 1).
    public static let command = UCIMessageType(rawValue: 1)
    /// A response to a command, UWBS to host (MT 2).
    public static let response = UCIMessageType(rawValue: 2)
    /// A notification, UWBS to host (MT 3).
    public static let notification = UCIMessageType(rawValue: 3)

    /// `true` for MT 0.
    public var isData: Bool { rawValue == 0 }

    /// `"CMD"`, `"RSP"`, `"NTF"`, `"DATA"`, or `"MT4"` for reserved values.
    public var shortName: String {
        switch rawValue {
        case 0: "DATA"
        case 1: "CMD"
        case 2: "RSP"
        case 3: "NTF"
        default: "MT\(rawValue)"
        }
    }

    /// `"notification"`, `"reserved-for-testing message type 4"`.
    public var description: String {
        switch rawValue {
        case 0: "data"
        case 1: "command"
        case 2: "response"
        case 3: "notification"
        case 4, 5: "reserved-for-testing message type \(rawValue)"
        default: "reserved message type \(rawValue)"
        }
    }
}
