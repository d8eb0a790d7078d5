import NearbyBase

/// An HCI event from the controller, decoded (Core Vol 4 Part E 7.7).
///
/// Events the host does not use are kept as ``other(code:parameters:)``. Decoding never traps:
/// a truncated event is a ``BluetoothError/malformedPacket(detail:)``.
public enum HCIEvent: Sendable, Hashable {
    /// 0x0E Command Complete: `returnParameters` start with the status byte for nearly every
    /// command. Opcode 0x0000 only announces command credits.
    case commandComplete(numberOfCommandPackets: UInt8, opcode: HCIOpcode, returnParameters: [UInt8])
    /// 0x0F Command Status: the command was accepted (status 0) or refused; its result comes later.
    case commandStatus(status: HCIStatus, numberOfCommandPackets: UInt8, opcode: HCIOpcode)
    /// 0x05 Disconnection Complete.
    case disconnectionComplete(status: HCIStatus, handle: UInt16, reason: HCIStatus)
    /// 0x08 Encryption Change.
    case encryptionChange(status: HCIStatus, handle: UInt16, enabled: UInt8)
    /// 0x30 Encryption Key Refresh Complete (encryption restarted with a new key on an
    /// encrypted link).
    case encryptionKeyRefreshComplete(status: HCIStatus, handle: UInt16)
    /// 0x10 Hardware Error.
    case hardwareError(code: UInt8)
    /// 0x13 Number Of Completed Packets: ACL buffers freed per connection handle.
    case numberOfCompletedPackets([CompletedPackets])
    /// 0x1A Data Buffer Overflow: the host sent more ACL packets than the controller had buffers.
    case dataBufferOverflow(linkType: UInt8)
    /// 0x3E LE Meta event.
    case le(LEMetaEvent)
    /// Any other event.
    case other(code: UInt8, parameters: [UInt8])

    /// Buffers freed for one connection handle.
    public struct CompletedPackets: Sendable, Hashable {
        /// The connection handle.
        public var handle: UInt16
        /// Number of ACL packets completed (buffers freed).
        public var count: UInt16

        /// Creates an entry.
        public init(handle: UInt16, count: UInt16) {
            self.handle = handle
            self.count = count
        }
    }

    /// Decodes an event packet (event code, parameter length, parameters; no H4 byte).
    /// - Throws: ``BluetoothError/malformedPacket(detail:)`` naming the event and its bytes.
    public init(decoding packet: [UInt8]) throws(BluetoothError) {
        guard packet.count >= 2 else {
            throw .malformedPacket(detail: "event shorter than its 2-byte header: \(hexDump(packet))")
        }
        let code = packet[0]
        let length = Int(packet[1])
        guard packet.count - 2 == length else {
            throw .malformedPacket(detail: "event 0x\(hex(code)) says \(length) parameter bytes but has \(packet.count - 2): \(hexDump(packet))")
        }
        var reader = ByteReader(packet, offset: 2)
        func malformed(_ name: String) -> BluetoothError {
            .malformedPacket(detail: "\(name) event too short: \(hexDump(packet))")
        }
        switch code {
        case 0x0E:
            guard let credits = reader.u8(), let opcode = reader.u16() else { throw malformed("Command Complete") }
            self = .commandComplete(numberOfCommandPackets: credits, opcode: HCIOpcode(rawValue: opcode), returnParameters: reader.rest())
        case 0x0F:
            guard let status = reader.u8(), let credits = reader.u8(), let opcode = reader.u16() else {
                throw malformed("Command Status")
            }
            self = .commandStatus(status: HCIStatus(rawValue: status), numberOfCommandPackets: credits, opcode: HCIOpcode(rawValue: opcode))
        case 0x05:
            guard let status = reader.u8(), let handle = reader.u16(), let reason = reader.u8() else {
                throw malformed("Disconnection Complete")
            }
            self = .disconnectionComplete(status: HCIStatus(rawValue: status), handle: handle & 0x0FFF, reason: HCIStatus(rawValue: reason))
        case 0x08:
            guard let status = reader.u8(), let handle = reader.u16(), let enabled = reader.u8() else {
                throw malformed("Encryption Change")
            }
            self = .encryptionChange(status: HCIStatus(rawValue: status), handle: handle & 0x0FFF, enabled: enabled)
        case 0x30:
            guard let status = reader.u8(), let handle = reader.u16() else { throw malformed("Encryption Key Refresh Complete") }
            self = .encryptionKeyRefreshComplete(status: HCIStatus(rawValue: status), handle: handle & 0x0FFF)
        case 0x59:
            // Encryption Change v2 (with the key size): the same as v1 for this host.
            guard let status = reader.u8(), let handle = reader.u16(), let enabled = reader.u8() else {
                throw malformed("Encryption Change v2")
            }
            self = .encryptionChange(status: HCIStatus(rawValue: status), handle: handle & 0x0FFF, enabled: enabled)
        case 0x10:
            guard let hardwareCode = reader.u8() else { throw malformed("Hardware Error") }
            self = .hardwareError(code: hardwareCode)
        case 0x13:
            guard let count = reader.u8(), reader.remaining >= Int(count) * 4 else {
                throw malformed("Number Of Completed Packets")
            }
            // Core 5.x interleaves handle/count per entry (older specs showed arrays; controllers
            // send one entry almost always, where both layouts agree).
            var entries: [CompletedPackets] = []
            for _ in 0..<count {
                guard let handle = reader.u16(), let completed = reader.u16() else { throw malformed("Number Of Completed Packets") }
                entries.append(CompletedPackets(handle: handle & 0x0FFF, count: completed))
            }
            self = .numberOfCompletedPackets(entries)
        case 0x1A:
            guard let linkType = reader.u8() else { throw malformed("Data Buffer Overflow") }
            self = .dataBufferOverflow(linkType: linkType)
        case 0x3E:
            self = .le(try LEMetaEvent(decoding: reader.rest(), packet: packet))
        default:
            self = .other(code: code, parameters: reader.rest())
        }
    }
}
