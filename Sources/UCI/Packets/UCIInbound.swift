/// A packet from a UWB subsystem, dispatched on its (typed) header: range data read in place,
/// or a whole message.
///
/// ``dispatch(_:reassembling:)`` is the one place a host decides what a received packet is:
/// an unsegmented two-way SESSION_INFO_NTF becomes a ``UCISessionInfoView`` over the packet's
/// payload (no copy, no allocation: the range-data hot path); every other packet goes to the
/// ``UCIReassembler``, which returns the whole message once its last segment arrived.
public enum UCIInbound: Sendable {
    /// An unsegmented two-way-ranging SESSION_INFO_NTF, read in place.
    case rangeData(UCISessionInfoView)
    /// A whole message (reassembled if it was segmented).
    case message(UCIRawMessage)

    /// Dispatches `packet` on its header.
    ///
    /// Range data takes the view only while no message is being reassembled (a packet of
    /// another message in the middle of a segmented control message is a segment mismatch, which
    /// the reassembler reports). A SESSION_INFO_NTF the view refuses (another measurement type,
    /// a malformed payload) goes to the reassembler too, so decoding it in full reports why.
    /// - Returns: `nil` while a segmented message is incomplete.
    /// - Throws: the errors of ``UCIReassembler/append(_:)`` (segment mismatch, message too
    ///   large); the reassembler stays usable.
    public static func dispatch(_ packet: UCIPacket, reassembling reassembler: inout UCIReassembler) throws(UCIError) -> UCIInbound? {
        if packet.header.isUnsegmentedSessionInfo, !reassembler.isReassembling,
            let view = try? UCISessionInfoView(payload: packet.payload)
        {
            return .rangeData(view)
        }
        return try reassembler.append(packet).map(UCIInbound.message)
    }
}
