/// The btsnoop capture format (what Android's HCI snoop log and BlueZ's `btmon -w` write, and
/// Wireshark reads): a 16-byte file header, then one record per HCI packet. Datalink 1002, HCI
/// UART (H4): each record's data is the H4 packet-type byte and the packet. Big-endian; time in
/// microseconds since 0000-01-01 (Unix time + ``unixEpochOffset``). Pure: bytes in, bytes out.
public enum BTSnoop {
    /// `"btsnoop\0"`.
    public static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    /// Datalink type 1002: HCI UART (H4).
    public static let datalinkH4: UInt32 = 1002
    /// Microseconds from 0000-01-01 00:00 to the Unix epoch (the btsnoop convention).
    public static let unixEpochOffset: UInt64 = 0x00DC_DDB3_0F2F_8000

    /// The file header: magic, version 1, datalink 1002.
    public static let fileHeader: [UInt8] = {
        var header = magic
        header.appendBE(UInt32(1))
        header.appendBE(datalinkH4)
        return header
    }()

    /// One record: lengths, flags (bit 0: received; bit 1: command or event), cumulative
    /// drops (0), timestamp, then the H4 type byte and the packet.
    /// - Parameters:
    ///   - packet: the HCI packet (its H4 type byte comes first in the record).
    ///   - direction: sent or received, as seen by this host.
    ///   - microseconds: when, since the Unix epoch.
    public static func record(_ packet: HCIPacket, direction: CaptureDirectionFlag, microseconds: UInt64) -> [UInt8] {
        let length = UInt32(packet.bytes.count + 1)
        var flags: UInt32 = direction == .received ? 1 : 0
        if packet.type == .command || packet.type == .event { flags |= 2 }
        var record: [UInt8] = []
        record.reserveCapacity(Int(length) + 24)
        record.appendBE(length)  // original length
        record.appendBE(length)  // included length
        record.appendBE(flags)
        record.appendBE(UInt32(0))  // cumulative drops
        record.appendBE(microseconds &+ unixEpochOffset)
        record.append(packet.type.rawValue)
        record += packet.bytes
        return record
    }

    /// A record's direction (flag bit 0).
    public enum CaptureDirectionFlag: Sendable, Hashable {
        /// Host to controller.
        case sent
        /// Controller to host.
        case received
    }
}

/// Reads a btsnoop file written with datalink 1002 (H4): for tests and tools that check an
/// `--hci-log` file.
public struct BTSnoopReader: Sendable {
    /// One record.
    public struct Record: Sendable, Hashable {
        /// The packet (H4 type byte decoded).
        public var packet: HCIPacket
        /// Its direction.
        public var direction: BTSnoop.CaptureDirectionFlag
        /// Microseconds since the Unix epoch.
        public var microseconds: UInt64
    }

    /// A file that is not btsnoop H4, or is damaged.
    public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong and where.
        public var description: String
    }

    /// The records, in file order.
    public private(set) var records: [Record] = []

    /// Reads `bytes` as a whole btsnoop file.
    /// - Throws: ``FormatError`` naming the offset of the first bad record.
    public init(bytes: [UInt8]) throws(FormatError) {
        guard bytes.count >= 16, Array(bytes[0..<8]) == BTSnoop.magic else {
            throw FormatError(description: "not a btsnoop file (no \"btsnoop\" magic)")
        }
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        guard u32(12) == BTSnoop.datalinkH4 else {
            throw FormatError(description: "datalink \(u32(12)), expected 1002 (HCI UART)")
        }
        var offset = 16
        while offset < bytes.count {
            guard bytes.count - offset >= 24 else { throw FormatError(description: "a truncated record header at offset \(offset)") }
            let included = Int(u32(offset + 4))
            let flags = u32(offset + 8)
            let time = UInt64(u32(offset + 16)) << 32 | UInt64(u32(offset + 20))
            let data = offset + 24
            guard included >= 1, data + included <= bytes.count else {
                throw FormatError(description: "record at offset \(offset) announces \(included) bytes, \(bytes.count - data) left")
            }
            guard let type = HCIPacketType(rawValue: bytes[data]) else {
                throw FormatError(description: "record at offset \(offset): unknown H4 packet type \(bytes[data])")
            }
            records.append(
                Record(
                    packet: HCIPacket(type, Array(bytes[(data + 1)..<(data + included)])),
                    direction: flags & 1 == 1 ? .received : .sent, microseconds: time &- BTSnoop.unixEpochOffset))
            offset = data + included
        }
    }
}

extension [UInt8] {
    mutating func appendBE<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
