/// NXP's host-interface framing used by the SR150 EVK's PnP firmware on its UART (host -> board):
/// `[type][len_hi][len_lo]` + payload, type 0x01 = UCI packet. The board answers with raw UCI.
public enum BoardFraming {
    /// Frame type of a UCI packet.
    public static let uciType: UInt8 = 0x01

    /// Wraps one UCI packet for the board: `[0x01][len_hi][len_lo]` + packet.
    /// - Precondition: `packet.count` fits in 16 bits (UCI packets are at most 4 + 65535 bytes
    ///   with NXP's extended length; the transport validates before framing).
    public static func frame(_ packet: [UInt8]) -> [UInt8] {
        var framed: [UInt8] = []
        framed.reserveCapacity(packet.count + 3)
        framed.append(uciType)
        framed.append(UInt8(truncatingIfNeeded: packet.count >> 8))
        framed.append(UInt8(truncatingIfNeeded: packet.count))
        framed.append(contentsOf: packet)
        return framed
    }
}
