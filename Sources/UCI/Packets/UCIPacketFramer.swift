/// Splits the byte stream from a UWB subsystem into whole UCI packets (4-byte header + payload).
///
/// Transports that carry a byte stream (CDC-ACM bulk pipes, a tty, TCP) do not preserve packet
/// boundaries: one read may hold half a packet or several. Feed every received chunk to
/// ``append(_:)`` and drain ``nextPacket()`` until it returns `nil`.
///
/// Lengths: control packets (MT 1-3) carry an 8-bit payload length in octet 3; with NXP's
/// extension (octet 1 bit 7 set) the length is `octet3 << 8 | octet2`. Data packets (MT 0) carry
/// a 16-bit little-endian length in octets 2-3.
public struct UCIPacketFramer: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0

    /// Creates an empty framer.
    public init() {}

    /// Bytes received but not yet returned as a packet.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next whole packet (header and payload), or `nil` if more bytes are needed.
    public mutating func nextPacket() -> [UInt8]? {
        let available = buffer.count - start
        guard available >= 4 else { return nil }
        let length = Self.payloadLength(buffer[start], buffer[start + 1], buffer[start + 2], buffer[start + 3])
        guard available >= 4 + length else { return nil }
        let packet = Array(buffer[start..<(start + 4 + length)])
        start += 4 + length
        if start > 4096 && start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return packet
    }

    /// Drops buffered bytes (after a transport reset or a resynchronisation).
    public mutating func reset() {
        buffer.removeAll(keepingCapacity: true)
        start = 0
    }

    /// The payload length announced by a packet header.
    @inlinable
    public static func payloadLength(_ octet0: UInt8, _ octet1: UInt8, _ octet2: UInt8, _ octet3: UInt8) -> Int {
        let messageType = octet0 >> 5
        if messageType == 0 {
            return Int(octet2) | Int(octet3) << 8
        }
        if octet1 & 0x80 != 0 {
            return Int(octet3) << 8 | Int(octet2)
        }
        return Int(octet3)
    }
}
