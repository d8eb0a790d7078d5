/// The data packet format (DPF) of a UCI data packet (MT 0): bits 3-0 of octet 0.
public struct UCIDataPacketFormat: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 4-bit wire value (0...15).
    public let rawValue: UInt8

    /// Creates a data packet format; bits above the low four are dropped.
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }

    /// DATA_MESSAGE_SND: application data from the host to the UWBS, to send to a peer.
    public static let send = UCIDataPacketFormat(rawValue: 0x1)
    /// DATA_MESSAGE_RCV: application data received from a peer.
    public static let receive = UCIDataPacketFormat(rawValue: 0x2)
    /// Radar data (Android extension).
    public static let radar = UCIDataPacketFormat(rawValue: 0xF)

    /// `"DATA_MESSAGE_SND"`, `"DATA_MESSAGE_RCV"`, `"RADAR_DATA_MESSAGE"`, or `nil`.
    public var name: String? {
        switch rawValue {
        case 0x1: "DATA_MESSAGE_SND"
        case 0x2: "DATA_MESSAGE_RCV"
        case 0xF: "RADAR_DATA_MESSAGE"
        default: nil
        }
    }

    /// `"DATA_MESSAGE_RCV (0x2)"`.
    public var description: String {
        "\(name ?? "unknown data packet format") (0x\(String(rawValue, radix: 16, uppercase: true)))"
    }
}
