/// The pcapng capture format (IETF draft-ietf-opsawg-pcapng), the subset `--uci-log` writes and
/// reads: a Section Header Block, one Interface Description Block, Enhanced Packet Blocks with
/// the direction in `epb_flags`. Little-endian, timestamps in microseconds since the Unix epoch
/// (the default `if_tsresol`). Pure: bytes in, bytes out.
public enum PcapNG {
    /// `LINKTYPE_FIRA_UCI`: FiRa UCI packets (header + payload), as Google's pica and Android's
    /// UWB stack capture them. Wireshark 4.2 and later dissect it (protocol `uci`).
    public static let linkTypeFiRaUCI: UInt16 = 299

    static let sectionHeaderType: UInt32 = 0x0A0D_0D0A
    static let interfaceDescriptionType: UInt32 = 0x0000_0001
    static let enhancedPacketType: UInt32 = 0x0000_0006
    static let byteOrderMagic: UInt32 = 0x1A2B_3C4D

    /// The file header: a Section Header Block (`shb_userappl` = `application`) and one
    /// Interface Description Block of `linkType` (`if_name` = `interface`).
    public static func fileHeader(linkType: UInt16, interface: String, application: String = "nearby") -> [UInt8] {
        var section: [UInt8] = []
        section.appendLE(byteOrderMagic)
        section.appendLE(UInt16(1))  // major
        section.appendLE(UInt16(0))  // minor
        section.appendLE(UInt64.max)  // section length: not given
        appendOption(&section, code: 4, Array(application.utf8))  // shb_userappl
        appendEndOfOptions(&section)
        var interfaceBody: [UInt8] = []
        interfaceBody.appendLE(linkType)
        interfaceBody.appendLE(UInt16(0))  // reserved
        interfaceBody.appendLE(UInt32(0))  // snap length: none
        appendOption(&interfaceBody, code: 2, Array(interface.utf8))  // if_name
        appendEndOfOptions(&interfaceBody)
        return block(sectionHeaderType, section) + block(interfaceDescriptionType, interfaceBody)
    }

    /// One Enhanced Packet Block on interface 0.
    /// - Parameters:
    ///   - packet: the UCI packet's bytes.
    ///   - microseconds: when, since the Unix epoch.
    ///   - direction: written to `epb_flags` (bits 0-1: 01 inbound, 10 outbound).
    public static func packetBlock(_ packet: some Collection<UInt8>, microseconds: UInt64, direction: CaptureDirectionCode) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(packet.count + 40)
        body.appendLE(UInt32(0))  // interface ID
        body.appendLE(UInt32(truncatingIfNeeded: microseconds >> 32))
        body.appendLE(UInt32(truncatingIfNeeded: microseconds))
        body.appendLE(UInt32(packet.count))  // captured length
        body.appendLE(UInt32(packet.count))  // original length
        body.append(contentsOf: packet)
        body.append(contentsOf: repeatElement(0, count: padding(packet.count)))
        var flags: [UInt8] = []
        flags.appendLE(direction.rawValue)
        appendOption(&body, code: 2, flags)  // epb_flags
        appendEndOfOptions(&body)
        return block(enhancedPacketType, body)
    }

    /// `epb_flags` direction bits.
    public enum CaptureDirectionCode: UInt32, Sendable, Hashable {
        /// Not known.
        case unknown = 0
        /// Inbound: received by the host (from the device).
        case inbound = 1
        /// Outbound: sent by the host (to the device).
        case outbound = 2
    }

    static func padding(_ count: Int) -> Int { (4 - count % 4) % 4 }

    static func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
        let total = UInt32(12 + body.count)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(total))
        bytes.appendLE(type)
        bytes.appendLE(total)
        bytes += body
        bytes.appendLE(total)
        return bytes
    }

    static func appendOption(_ bytes: inout [UInt8], code: UInt16, _ value: [UInt8]) {
        bytes.appendLE(code)
        bytes.appendLE(UInt16(value.count))
        bytes += value
        bytes.append(contentsOf: repeatElement(0, count: padding(value.count)))
    }

    static func appendEndOfOptions(_ bytes: inout [UInt8]) {
        bytes += [0, 0, 0, 0]
    }
}

extension [UInt8] {
    mutating func appendLE<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
