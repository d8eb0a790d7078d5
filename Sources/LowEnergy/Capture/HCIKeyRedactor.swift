/// Removes key material from HCI packets before they are written to an `--hci-log` file, the
/// way Android's snoop log does unless asked for a full log: the packet keeps its length and
/// every other byte (so Wireshark still dissects it), the key bytes become zeros.
///
/// What is redacted:
/// - Commands: LE Enable Encryption (the LTK), LE Long Term Key Request Reply (the LTK), LE
///   Encrypt (the key), LE Add Device To Resolving List (both IRKs), Link Key Request Reply.
/// - Events: LE Generate DHKey Complete (the DH key), Link Key Notification (the key).
/// - SMP PDUs in ACL data (L2CAP channel 6), in both directions and across ACL fragments:
///   Encryption Information (LTK), Identity Information (IRK), Signing Information (CSRK).
///
/// Pairing Confirm / Random values and public keys are kept: they are what a pairing problem is
/// diagnosed with, and an LE Secure Connections key cannot be computed from them.
public struct HCIKeyRedactor: Sendable {
    /// Where each ACL stream (handle and direction) is within its current L2CAP PDU.
    private struct Stream: Hashable {
        var seen = 0
        var length: Int?
        var channel: UInt16?
        var code: UInt8?
        var lowBytes: [UInt8] = []
    }

    private var streams: [Int: Stream] = [:]

    /// Creates a redactor (one per capture: it follows fragmented PDUs).
    public init() {}

    /// SMP codes whose 16-byte value is a key: Encryption / Identity / Signing Information.
    static let smpKeyCodes: Set<UInt8> = [0x06, 0x08, 0x0A]

    /// `packet` with its key bytes zeroed (the same packet if it carries none).
    public mutating func redact(_ packet: HCIPacket, sent: Bool) -> HCIPacket {
        switch packet.type {
        case .command: return Self.redactCommand(packet)
        case .event: return Self.redactEvent(packet)
        case .acl: return redactACL(packet, sent: sent)
        default: return packet
        }
    }

    static func redactCommand(_ packet: HCIPacket) -> HCIPacket {
        guard packet.bytes.count >= 3 else { return packet }
        let opcode = UInt16(packet.bytes[0]) | UInt16(packet.bytes[1]) << 8
        let range: Range<Int>
        switch opcode {
        case HCIOpcode.leEnableEncryption.rawValue: range = 12..<28
        case HCIOpcode.leLongTermKeyRequestReply.rawValue: range = 2..<18
        case HCIOpcode.leEncrypt.rawValue: range = 0..<16
        case HCIOpcode.leAddDeviceToResolvingList.rawValue: range = 7..<39
        case 0x040B: range = 6..<22  // Link Key Request Reply
        default: return packet
        }
        return zeroed(packet, parameters: 3, range)
    }

    static func redactEvent(_ packet: HCIPacket) -> HCIPacket {
        guard packet.bytes.count >= 2 else { return packet }
        switch packet.bytes[0] {
        case 0x3E where packet.bytes.count >= 3 && (packet.bytes[2] == 0x09 || packet.bytes[2] == 0x1E):
            return zeroed(packet, parameters: 2, 2..<34)  // LE Generate DHKey Complete: subevent, status, DHKey
        case 0x18:
            return zeroed(packet, parameters: 2, 6..<22)  // Link Key Notification
        default:
            return packet
        }
    }

    /// Zeroes `range` of the parameters starting at byte `start`, within the packet.
    static func zeroed(_ packet: HCIPacket, parameters start: Int, _ range: Range<Int>) -> HCIPacket {
        var bytes = packet.bytes
        let lower = min(bytes.count, start + range.lowerBound)
        let upper = min(bytes.count, start + range.upperBound)
        guard lower < upper else { return packet }
        for index in lower..<upper { bytes[index] = 0 }
        return HCIPacket(packet.type, bytes)
    }

    private mutating func redactACL(_ packet: HCIPacket, sent: Bool) -> HCIPacket {
        guard packet.bytes.count >= 4 else { return packet }
        let handleAndFlags = UInt16(packet.bytes[0]) | UInt16(packet.bytes[1]) << 8
        let handle = Int(handleAndFlags & 0x0FFF)
        let starts = (handleAndFlags >> 12) & 0x3 != 0x1
        let key = handle << 1 | (sent ? 1 : 0)
        var stream = starts ? Stream() : (streams[key] ?? Stream(seen: -1))
        var bytes = packet.bytes
        var changed = false
        for index in 4..<bytes.count {
            guard stream.seen >= 0 else { break }  // a continuation without a start: nothing known
            let position = stream.seen
            stream.seen += 1
            switch position {
            case 0, 1:
                stream.lowBytes.append(bytes[index])
                if position == 1 { stream.length = Int(stream.lowBytes[0]) | Int(stream.lowBytes[1]) << 8 }
            case 2:
                stream.lowBytes.append(bytes[index])
            case 3:
                stream.channel = UInt16(stream.lowBytes[2]) | UInt16(bytes[index]) << 8
            case 4:
                stream.code = bytes[index]
            default:
                if stream.channel == 0x0006, let code = stream.code, Self.smpKeyCodes.contains(code), (5..<21).contains(position) {
                    bytes[index] = 0
                    changed = true
                }
            }
        }
        if let length = stream.length, stream.seen >= length + 4 {
            streams[key] = nil
        } else {
            streams[key] = stream
        }
        return changed ? HCIPacket(packet.type, bytes) : packet
    }
}
