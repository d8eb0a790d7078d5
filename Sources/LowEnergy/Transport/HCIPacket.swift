/// The kind of an HCI packet: the H4 packet indicator byte (Core Vol 4 Part A 2).
public enum HCIPacketType: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// 0x01: host -> controller command.
    case command = 0x01
    /// 0x02: ACL data, both directions.
    case acl = 0x02
    /// 0x03: SCO data (classic audio; never used by this LE host).
    case sco = 0x03
    /// 0x04: controller -> host event.
    case event = 0x04
    /// 0x05: ISO data (LE audio; never used by this host).
    case iso = 0x05

    /// `"command"`, `"ACL"`, `"SCO"`, `"event"`, `"ISO"`.
    public var description: String {
        switch self {
        case .command: return "command"
        case .acl: return "ACL"
        case .sco: return "SCO"
        case .event: return "event"
        case .iso: return "ISO"
        }
    }
}

/// One HCI packet: its type and its bytes (header + parameters, without the H4 type byte).
public struct HCIPacket: Sendable, Hashable, CustomStringConvertible {
    /// The packet type.
    public var type: HCIPacketType
    /// The packet (header and payload), without the H4 indicator.
    public var bytes: [UInt8]

    /// Creates a packet.
    public init(_ type: HCIPacketType, _ bytes: [UInt8]) {
        self.type = type
        self.bytes = bytes
    }

    /// The H4 form: the type byte followed by the packet (`01 03 0c 00` for HCI Reset).
    public var h4Bytes: [UInt8] { [type.rawValue] + bytes }

    /// `"event 0e 04 01 03 0c 00"`.
    public var description: String { "\(type) \(hexDump(bytes))" }
}

/// Splits an H4 byte stream (UART, TCP) into HCI packets.
///
/// Feed it whatever `read()` returned, in any chunking; it returns the packets completed so far
/// and keeps partial ones. A byte that is not a known packet type means the stream lost sync:
/// that is an error (``BluetoothError/malformedPacket(detail:)``), since nothing after it can be
/// trusted.
public struct H4Framer: Sendable {
    private var buffer: [UInt8] = []
    private var consumed = 0

    /// Creates an empty framer.
    public init() {}

    /// Bytes of an incomplete packet waiting for more input.
    public var pendingByteCount: Int { buffer.count - consumed }

    /// Appends `bytes` and returns every packet completed by them, in order.
    /// - Throws: ``BluetoothError/malformedPacket(detail:)`` if a packet starts with an unknown
    ///   type byte.
    public mutating func append(_ bytes: some Collection<UInt8>) throws(BluetoothError) -> [HCIPacket] {
        buffer.append(contentsOf: bytes)
        var packets: [HCIPacket] = []
        while let packet = try next() {
            packets.append(packet)
        }
        if consumed > 0 {
            buffer.removeFirst(consumed)
            consumed = 0
        }
        return packets
    }

    private mutating func next() throws(BluetoothError) -> HCIPacket? {
        let available = buffer.count - consumed
        guard available > 0 else { return nil }
        let indicator = buffer[consumed]
        guard let type = HCIPacketType(rawValue: indicator) else {
            let context = hexDump(buffer[consumed...].prefix(16))
            throw .malformedPacket(detail: "unknown H4 packet type 0x\(hex(indicator)) (stream out of sync) at: \(context)")
        }
        let headerLength: Int
        switch type {
        case .command: headerLength = 3
        case .acl: headerLength = 4
        case .sco: headerLength = 3
        case .event: headerLength = 2
        case .iso: headerLength = 4
        }
        guard available >= 1 + headerLength else { return nil }
        let header = consumed + 1
        let payloadLength: Int
        switch type {
        case .command, .sco: payloadLength = Int(buffer[header + 2])
        case .event: payloadLength = Int(buffer[header + 1])
        case .acl: payloadLength = Int(buffer[header + 2]) | Int(buffer[header + 3]) << 8
        case .iso: payloadLength = (Int(buffer[header + 2]) | Int(buffer[header + 3]) << 8) & 0x3FFF
        }
        let total = 1 + headerLength + payloadLength
        guard available >= total else { return nil }
        let packet = HCIPacket(type, Array(buffer[header..<consumed + total]))
        consumed += total
        return packet
    }
}
