import FuzzSupport
public import UCI

/// The invariants of the UCI decoders, shared by the UCI targets.
public enum UCIChecks {
    /// A view over an unsegmented two-way SESSION_INFO_NTF agrees with the full decoder, and
    /// every measurement converts to a sample without trapping.
    public static func checkView(_ view: UCISessionInfoView) {
        let viewed = UCISessionInfo(view)
        var count = 0
        view.forEachMeasurement { _ in count += 1 }
        FuzzCheck.require(count == view.measurementCount, "forEachMeasurement visited \(count) of \(view.measurementCount)")
        _ = view.vendorData
        _ = viewed.peerSamples(timestamp: 1)
        view.forEachSample(timestamp: 1) { _ in }
    }

    /// A decoded message re-encodes, and the re-encoded bytes decode to the same message.
    public static func checkMessage(_ raw: UCIRawMessage, version: UCIVersion) {
        let message: UCIMessage
        do {
            message = try UCIMessage(decoding: raw, version: version)
        } catch {
            FuzzCheck.require(!error.description.isEmpty, "an error without a message")
            return
        }
        _ = message.name
        _ = "\(message)"
        if raw.opcode == .sessionInfo, raw.messageType == .notification,
            let view = try? UCISessionInfoView(payload: raw.payload),
            case .notification(.sessionInfo(let info)) = message
        {
            FuzzCheck.require(UCISessionInfo(view) == info, "the view and the decoder disagree on \(raw)")
        }
        let again: UCIRawMessage
        do {
            again = try message.rawMessage()
        } catch {
            FuzzCheck.require(false, "\(message) decoded from \(raw) but does not encode: \(error)")
            return
        }
        let redecoded = try? UCIMessage(decoding: again, version: version)
        FuzzCheck.require(redecoded == message, "\(raw) decoded to \(message), re-encoded to \(again), which decodes to \(String(describing: redecoded))")
        for packet in (try? message.packets(UCISegmenter(maxControlPayloadSize: 7, maxDataPayloadSize: 9))) ?? [] {
            FuzzCheck.require((try? UCIPacket(bytes: packet.bytes)) == packet, "segment \(packet) does not decode to itself")
        }
    }
}
