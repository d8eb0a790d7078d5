import NearbyBase

/// Reads a pcapng capture (any byte order): the interfaces' link types and every Enhanced (or
/// Simple) Packet Block, with its direction. For tests and tools that check a `--uci-log` file;
/// blocks of other types are skipped.
public struct PcapNGReader: Sendable {
    /// One captured packet.
    public struct Packet: Sendable, Hashable {
        /// The interface it was captured on (index into ``PcapNGReader/linkTypes``).
        public var interface: Int
        /// Microseconds since the Unix epoch (the interface's resolution is assumed to be µs).
        public var microseconds: UInt64
        /// The direction from `epb_flags`.
        public var direction: PcapNG.CaptureDirectionCode
        /// The captured bytes.
        public var bytes: [UInt8]
    }

    /// A file that is not pcapng, or is damaged.
    public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong and where.
        public var description: String
    }

    /// The link type of each interface, in order.
    public private(set) var linkTypes: [UInt16] = []
    /// The packets, in file order.
    public private(set) var packets: [Packet] = []
    /// The sections (Section Header Blocks) read.
    public private(set) var sections = 0

    /// Reads `bytes` as a whole pcapng file.
    /// - Throws: ``FormatError`` naming the offset of the first bad block.
    public init(bytes: [UInt8]) throws(FormatError) {
        var offset = 0
        var bigEndian = false
        var interfacesBefore = 0
        func u32(_ at: Int) -> UInt32 {
            let value = UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
            return bigEndian ? value.byteSwapped : value
        }
        func u16(_ at: Int) -> UInt16 {
            let value = UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
            return bigEndian ? value.byteSwapped : value
        }
        while offset < bytes.count {
            guard bytes.count - offset >= 12 else { throw FormatError(description: "a truncated block at offset \(offset)") }
            let rawType = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            if rawType == PcapNG.sectionHeaderType {
                let magic = UInt32(bytes[offset + 8]) | UInt32(bytes[offset + 9]) << 8 | UInt32(bytes[offset + 10]) << 16 | UInt32(bytes[offset + 11]) << 24
                if magic == PcapNG.byteOrderMagic {
                    bigEndian = false
                } else if magic == PcapNG.byteOrderMagic.byteSwapped {
                    bigEndian = true
                } else {
                    throw FormatError(description: "bad byte-order magic \(Hex.prefixed(magic)) at offset \(offset + 8)")
                }
                sections += 1
                interfacesBefore = linkTypes.count
            } else if sections == 0 {
                throw FormatError(description: "not a pcapng file (no Section Header Block at the start)")
            }
            let type = u32(offset)
            let length = Int(u32(offset + 4))
            guard length >= 12, length % 4 == 0, offset + length <= bytes.count else {
                throw FormatError(description: "block \(Hex.prefixed(type)) at offset \(offset) has a bad length \(length)")
            }
            guard Int(u32(offset + length - 4)) == length else {
                throw FormatError(description: "block \(Hex.prefixed(type)) at offset \(offset): the trailing length differs")
            }
            let body = offset + 8
            let bodyEnd = offset + length - 4
            switch type {
            case PcapNG.interfaceDescriptionType:
                guard bodyEnd - body >= 8 else { throw FormatError(description: "a short Interface Description Block at offset \(offset)") }
                linkTypes.append(u16(body))
            case PcapNG.enhancedPacketType:
                guard bodyEnd - body >= 20 else { throw FormatError(description: "a short Enhanced Packet Block at offset \(offset)") }
                let interface = interfacesBefore + Int(u32(body))
                let time = UInt64(u32(body + 4)) << 32 | UInt64(u32(body + 8))
                let captured = Int(u32(body + 12))
                let dataStart = body + 20
                guard captured <= bodyEnd - dataStart, interface < linkTypes.count else {
                    throw FormatError(description: "Enhanced Packet Block at offset \(offset): bad length or interface")
                }
                var direction = PcapNG.CaptureDirectionCode.unknown
                var option = dataStart + captured + PcapNG.padding(captured)
                while option + 4 <= bodyEnd {
                    let code = u16(option)
                    let size = Int(u16(option + 2))
                    if code == 0 { break }
                    guard option + 4 + size <= bodyEnd else { break }
                    if code == 2, size == 4 { direction = PcapNG.CaptureDirectionCode(rawValue: u32(option + 4) & 3) ?? .unknown }
                    option += 4 + size + PcapNG.padding(size)
                }
                packets.append(Packet(interface: interface, microseconds: time, direction: direction, bytes: Array(bytes[dataStart..<dataStart + captured])))
            case 0x0000_0003:  // Simple Packet Block: interface 0 of the section
                guard interfacesBefore < linkTypes.count else {
                    throw FormatError(description: "Simple Packet Block at offset \(offset) before any Interface Description Block")
                }
                let captured = min(Int(u32(body)), bodyEnd - body - 4)
                packets.append(Packet(interface: interfacesBefore, microseconds: 0, direction: .unknown, bytes: Array(bytes[(body + 4)..<(body + 4 + max(0, captured))])))
            default:
                break
            }
            offset += length
        }
        guard sections > 0 else { throw FormatError(description: "an empty file") }
    }
}
