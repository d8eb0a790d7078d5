/// Splits the byte stream from a UWB subsystem into typed UCI packets (4-byte header + payload).
///
/// Transports that carry a byte stream (CDC-ACM bulk pipes, a tty, TCP) do not preserve packet
/// boundaries: one read may hold half a packet or several. Feed every received chunk to
/// ``append(_:)-(Sequence<UInt8>)`` and drain ``nextPacket()`` until it returns `nil`. Each header is decoded
/// here, once: consumers dispatch on ``UCIPacket/header``.
///
/// Lengths: control packets (MT 1-3) carry an 8-bit payload length in octet 3; with NXP's
/// extension (octet 1 bit 7 set) the length is `octet3 << 8 | octet2`. Data packets (MT 0) carry
/// a 16-bit little-endian length in octets 2-3.
///
/// Allocation: a packet's payload is a slice of the framer's buffer (no copy). The buffer is
/// reused in place while no returned packet is held any more, so a steady stream whose packets
/// are consumed before the next chunk arrives costs no allocation at all; a packet still held
/// when more bytes arrive makes the next ``append(_:)-(Sequence<UInt8>)`` copy the buffer (copy-on-write: the held
/// packet and the framer stay correct).
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

    /// Appends bytes read from the link (a memory copy: the reader's buffer as it is).
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next whole packet, or `nil` if more bytes are needed.
    public mutating func nextPacket() -> UCIPacket? {
        let available = buffer.count - start
        guard available >= UCIPacketHeader.size else { return nil }
        let header = UCIPacketHeader(octets: buffer[start], buffer[start + 1], buffer[start + 2], buffer[start + 3])
        let end = start + UCIPacketHeader.size + header.payloadLength
        guard end <= buffer.count else { return nil }
        let packet = UCIPacket(checkedHeader: header, payload: buffer[(start + UCIPacketHeader.size)..<end])
        start = end
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
}
