import NearbyBase

/// An HCI ACL data packet (Core Vol 4 Part E 5.4.2): connection handle, packet boundary flag,
/// and a fragment of an L2CAP PDU.
public struct ACLPacket: Sendable, Hashable {
    /// Packet boundary flag.
    public enum Boundary: UInt8, Sendable, Hashable {
        /// 0b00: first fragment, not automatically flushable (host -> controller on LE).
        case firstNonFlushable = 0
        /// 0b01: continuing fragment.
        case continuation = 1
        /// 0b10: first fragment, automatically flushable (controller -> host on LE).
        case firstFlushable = 2
        /// 0b11: a complete, automatically flushable PDU (BR/EDR only; treated as a first fragment).
        case complete = 3

        /// `true` for the flags that start a PDU.
        public var startsPDU: Bool { self != .continuation }
    }

    /// The connection handle (12 bits).
    public var handle: UInt16
    /// The packet boundary flag.
    public var boundary: Boundary
    /// The fragment.
    public var data: [UInt8]

    /// Creates a packet.
    public init(handle: UInt16, boundary: Boundary, data: [UInt8]) {
        self.handle = handle & 0x0FFF
        self.boundary = boundary
        self.data = data
    }

    /// Decodes an ACL packet (4-byte header + data, no H4 byte).
    /// - Throws: ``BluetoothError/malformedPacket(detail:)`` if the length field disagrees.
    public init(decoding bytes: [UInt8]) throws(BluetoothError) {
        var reader = ByteReader(bytes)
        guard let header = reader.u16(), let length = reader.u16() else {
            throw .malformedPacket(detail: "ACL packet shorter than its 4-byte header: \(hexDump(bytes))")
        }
        guard reader.remaining == Int(length) else {
            throw .malformedPacket(detail: "ACL packet says \(length) data bytes but has \(reader.remaining): \(hexDump(bytes))")
        }
        self.handle = header & 0x0FFF
        self.boundary = Boundary(rawValue: UInt8((header >> 12) & 0x03))!
        self.data = reader.rest()
    }

    /// The HCI packet (header + data).
    public var packet: HCIPacket {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4 + data.count)
        bytes.appendLE(handle | UInt16(boundary.rawValue) << 12)
        bytes.appendLE(UInt16(data.count))
        bytes.append(contentsOf: data)
        return HCIPacket(.acl, bytes)
    }

    /// Splits an L2CAP PDU into ACL packets of at most `maximumLength` data bytes: the first
    /// with PB 0b00 (first non-flushable, as LE hosts send), the rest continuations.
    public static func fragments(of pdu: [UInt8], handle: UInt16, maximumLength: Int) -> [ACLPacket] {
        let size = max(1, maximumLength)
        var packets: [ACLPacket] = []
        var offset = 0
        repeat {
            let end = min(offset + size, pdu.count)
            packets.append(ACLPacket(handle: handle, boundary: offset == 0 ? .firstNonFlushable : .continuation,
                                     data: Array(pdu[offset..<end])))
            offset = end
        } while offset < pdu.count
        return packets
    }
}

/// Reassembles L2CAP PDUs from the ACL fragments of one connection.
///
/// Accepts whole PDUs in one packet and PDUs fragmented at any size; the L2CAP length field
/// says when a PDU is complete. Protocol errors (a continuation without a start, a new start
/// before the previous PDU completed, more data than announced) drop the broken PDU and are
/// reported, never trap.
public struct ACLReassembler: Sendable {
    private var pending: [UInt8] = []
    private var expected: Int?

    /// What one fragment produced: a complete PDU, a problem to log, both or neither.
    public struct Outcome: Sendable, Hashable {
        /// A whole L2CAP PDU (basic header included), if this fragment completed one.
        public var pdu: [UInt8]?
        /// Why data was dropped, if it was (a broken PDU is discarded as a whole).
        public var problem: String?
    }

    /// Creates an empty reassembler.
    public init() {}

    /// `true` while part of a PDU is buffered.
    public var isAssembling: Bool { !pending.isEmpty }

    /// Feeds one ACL packet's fragment.
    public mutating func append(_ packet: ACLPacket) -> Outcome {
        var problem: String?
        if packet.boundary.startsPDU {
            if !pending.isEmpty {
                problem = "a new L2CAP PDU started on handle 0x\(hex(packet.handle)) before the previous one "
                    + "(\(pending.count) of \(expected.map(String.init) ?? "?") bytes) completed; the partial PDU was dropped"
            }
            pending = packet.data
            expected = nil
        } else {
            guard !pending.isEmpty else {
                return Outcome(pdu: nil, problem: "ACL continuation fragment (\(packet.data.count) bytes) without a start on handle 0x\(hex(packet.handle)); dropped")
            }
            pending.append(contentsOf: packet.data)
        }
        if expected == nil, pending.count >= 2 {
            expected = 4 + (Int(pending[0]) | Int(pending[1]) << 8)
        }
        guard let expected else { return Outcome(pdu: nil, problem: problem) }
        if pending.count == expected {
            let pdu = pending
            pending = []
            self.expected = nil
            return Outcome(pdu: pdu, problem: problem)
        }
        if pending.count > expected {
            let detail = "ACL fragments carry \(pending.count) bytes for an L2CAP PDU of \(expected) on handle 0x\(hex(packet.handle)); dropped"
            pending = []
            self.expected = nil
            return Outcome(pdu: nil, problem: [problem, detail].compactMap { $0 }.joined(separator: "; "))
        }
        return Outcome(pdu: nil, problem: problem)
    }
}
