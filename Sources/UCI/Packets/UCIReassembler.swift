import NearbyBase

/// Reassembles segmented UCI messages from packets, in arrival order.
///
/// Feed every packet to ``append(_:)``; it returns a whole ``UCIRawMessage`` when the last
/// segment (PBF = 0) arrives, and `nil` while more segments are needed. A packet that is not
/// segmented is returned at once.
///
/// Control and data messages are reassembled independently: a control packet arriving between
/// two segments of a data message (or the reverse) does not disturb it.
///
/// Errors (the reassembler stays usable after each):
/// - A segment whose MT/GID/OID (or DPF) differs from the message being reassembled throws
///   ``UCIError/Code/segmentMismatch``; the partial message and the mismatching packet are
///   discarded, as AOSP's uwb_core does, and the error names both.
/// - **Exception**, as in AOSP: `CORE_DEVICE_STATUS_NTF` with state ERROR (0xFF) arriving in the
///   middle of a control message is returned as a message (the client must see that the UWBS
///   failed); the partial message is discarded, since the failed UWBS will not finish it, and
///   reported in ``interruptedByDeviceError``.
/// - A message growing past ``maximumMessageSize`` throws ``UCIError/Code/messageTooLarge`` and is
///   discarded.
public struct UCIReassembler: Sendable {
    /// The largest reassembled payload accepted, in bytes.
    public let maximumMessageSize: Int

    private struct Partial: Sendable {
        var header: UCIPacketHeader
        var payload: [UInt8]
        var segments: Int
    }

    private var control: Partial?
    private var data: Partial?

    /// The partial message that the packet just appended interrupted: set when
    /// `CORE_DEVICE_STATUS_NTF(ERROR)` arrives in the middle of a control message (the partial
    /// is then discarded), `nil` after any other packet. Lets a client log what was lost.
    public private(set) var interruptedByDeviceError: (message: UCIRawMessage, segments: Int)?

    /// Creates a reassembler that accepts messages up to `maximumMessageSize` bytes of payload
    /// (default 64 KiB, far above any UCI message; the limit only bounds memory when a peer
    /// misbehaves).
    public init(maximumMessageSize: Int = 65_536) {
        self.maximumMessageSize = max(maximumMessageSize, UCIPacketHeader.maxControlPayloadLength)
    }

    /// `true` while a segmented message is incomplete.
    public var isReassembling: Bool { control != nil || data != nil }

    /// The incomplete messages (control first, then data) with the payload received so far, and
    /// how many segments it came in: for diagnostics when a stream ends or is reset.
    public var partialMessages: [(message: UCIRawMessage, segments: Int)] {
        [control, data].compactMap { partial in
            partial.map { (UCIRawMessage(header: $0.header, payload: $0.payload), $0.segments) }
        }
    }

    /// Drops any incomplete message (after a transport reset or a UWBS reset).
    public mutating func reset() {
        control = nil
        data = nil
        interruptedByDeviceError = nil
    }

    /// Decodes `bytes` as one packet and appends it; see ``append(_:)``.
    /// - Throws: the errors of ``UCIPacket/init(bytes:)-([UInt8])`` and of ``append(_:)``.
    public mutating func append(packetBytes bytes: [UInt8]) throws(UCIError) -> UCIRawMessage? {
        try append(UCIPacket(bytes: bytes))
    }

    /// Appends a packet; returns the message it completes, or `nil` if more segments are needed.
    /// - Throws: ``UCIError/Code/segmentMismatch`` or ``UCIError/Code/messageTooLarge`` (see the
    ///   type's documentation for what is discarded).
    public mutating func append(_ packet: UCIPacket) throws(UCIError) -> UCIRawMessage? {
        interruptedByDeviceError = nil
        let header = packet.header
        let isData = header.messageType.isData
        guard var partial = isData ? data : control else {
            guard header.moreSegmentsFollow else { return UCIRawMessage(header: header, payload: Array(packet.payload)) }
            try checkSize(packet.payload.count, header)
            store(Partial(header: header, payload: Array(packet.payload), segments: 1), isData: isData)
            return nil
        }
        guard Self.sameMessage(partial.header, header) else {
            store(nil, isData: isData)
            if Self.isDeviceErrorNotification(packet) {
                interruptedByDeviceError = (UCIRawMessage(header: partial.header, payload: partial.payload), partial.segments)
                return UCIRawMessage(header: header, payload: Array(packet.payload))
            }
            throw UCIError(
                .segmentMismatch, context: partial.header.messageName,
                detail: "while reassembling this message (\(partial.segments) segment\(partial.segments == 1 ? "" : "s"), "
                    + "\(partial.payload.count) bytes so far), a packet of \(header.messageName) "
                    + "(\(header.messageType.isData ? "DPF \(Hex.prefixed(header.groupOrFormat))" : "\(header.messageType.shortName) \(header.opcode)"), "
                    + "\(header.payloadLength) bytes) arrived; a segmented message must be sent without "
                    + "interruption, so both were discarded")
        }
        partial.payload.append(contentsOf: packet.payload)
        partial.segments += 1
        do {
            try checkSize(partial.payload.count, header)
        } catch {
            store(nil, isData: isData)
            throw error
        }
        if header.moreSegmentsFollow {
            store(partial, isData: isData)
            return nil
        }
        store(nil, isData: isData)
        return UCIRawMessage(header: partial.header, payload: partial.payload)
    }

    private mutating func store(_ partial: Partial?, isData: Bool) {
        if isData { data = partial } else { control = partial }
    }

    private func checkSize(_ size: Int, _ header: UCIPacketHeader) throws(UCIError) {
        guard size <= maximumMessageSize else {
            throw UCIError(
                .messageTooLarge, context: header.messageName,
                detail: "the reassembled payload reached \(size) bytes, more than the limit of "
                    + "\(maximumMessageSize); the message was discarded")
        }
    }

    private static func sameMessage(_ a: UCIPacketHeader, _ b: UCIPacketHeader) -> Bool {
        a.messageType == b.messageType && a.groupOrFormat == b.groupOrFormat && a.opcodeID == b.opcodeID
    }

    private static func isDeviceErrorNotification(_ packet: UCIPacket) -> Bool {
        packet.header.messageType == .notification && packet.header.opcode == .coreDeviceStatus
            && packet.payload.first == UCIDeviceState.error.rawValue
    }
}
