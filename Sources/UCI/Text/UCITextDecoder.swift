import NearbyBase

/// Decodes UCI packets given as hex text, as `nearby uci decode` does: frames the bytes of each
/// input (an argument, a line) into packets, reassembles segmented messages across inputs given
/// in order, decodes each message and renders it readably (``UCIField/text(_:indent:)``) or as
/// JSON (``UCIField/json(_:)``). Bad input is reported and the rest is still decoded. Pure: the
/// caller prints the ``Line``s.
public struct UCITextDecoder: Sendable {
    /// One line of output.
    public enum Line: Sendable, Hashable {
        /// A decoded message (for standard output).
        case message(String)
        /// A problem with the input (counted in ``failures``).
        case error(String)
        /// Something worth knowing that is not a failure (an interrupted segmented message).
        case warning(String)
    }

    /// The UCI version of the device (it matters only for layouts the bytes cannot tell apart).
    public let version: UCIVersion
    /// Render JSON objects instead of readable text.
    public let json: Bool
    /// How many problems were reported so far.
    public private(set) var failures = 0
    private var lines: [Line] = []
    private var reassembler = UCIReassembler()
    /// Packets received for the message being reassembled: control, data.
    private var pendingPackets = (control: 0, data: 0)

    /// A decoder for a device speaking `version`.
    public init(version: UCIVersion, json: Bool) {
        self.version = version
        self.json = json
    }

    /// Decodes the packets in one input (`label` names it in errors: `argument 2`, `line 3`).
    /// - Returns: the messages completed by this input and the problems found, in order.
    public mutating func decode(_ text: String, label: String) -> [Line] {
        decodeText(text, label: label)
        defer { lines = [] }
        return lines
    }

    private mutating func decodeText(_ text: String, label: String) {
        let bytes: [UInt8]
        do {
            bytes = try Hex.parse(text)
        } catch {
            report("\(label): \(error)")
            return
        }
        guard !bytes.isEmpty else {
            report("\(label): no hex bytes")
            return
        }
        var framer = UCIPacketFramer()
        framer.append(bytes)
        var index = 0
        while let packet = framer.nextPacket() {
            index += 1
            decodePacket(packet, label: index == 1 && framer.bufferedByteCount == 0 ? label : "\(label), packet \(index)")
        }
        if framer.bufferedByteCount > 0 {
            let rest = Array(bytes.suffix(framer.bufferedByteCount))
            do {
                _ = try UCIPacket(bytes: rest)
                report("\(label): \(rest.count) bytes after the last whole packet could not be framed")
            } catch {
                report("\(label): \(error)")
            }
        }
    }

    private mutating func decodePacket(_ packet: UCIPacket, label: String) {
        let raw: UCIRawMessage
        let isData = packet.header.messageType.isData
        do {
            guard let complete = try reassembler.append(packet) else {
                if isData { pendingPackets.data += 1 } else { pendingPackets.control += 1 }
                return
            }
            raw = complete
        } catch {
            if isData { pendingPackets.data = 0 } else { pendingPackets.control = 0 }
            report("\(label): \(error)")
            return
        }
        var packetCount = 1
        if raw.isData {
            packetCount += pendingPackets.data
            pendingPackets.data = 0
        } else if let (interrupted, segments) = reassembler.interruptedByDeviceError {
            warn(
                "\(label): CORE_DEVICE_STATUS_NTF(ERROR) interrupted \(interrupted.name) after \(segments) "
                    + "segment\(segments == 1 ? "" : "s") (\(interrupted.payload.count) bytes), which was discarded")
            pendingPackets.control = 0
        } else {
            packetCount += pendingPackets.control
            pendingPackets.control = 0
        }
        do {
            let message = try UCIMessage(decoding: raw, version: version)
            lines.append(.message(render(message, raw: raw, packets: packetCount)))
        } catch {
            report("\(label): \(error)\n  raw: \(raw)")
        }
    }

    /// Reports messages whose last segment never came; call it after the last input.
    public mutating func finish() -> [Line] {
        for (partial, segments) in reassembler.partialMessages {
            report(
                "\(partial.name): incomplete, \(segments) segment\(segments == 1 ? "" : "s") (\(partial.payload.count) bytes) "
                    + "received but not the last one (PBF = 0)")
        }
        defer { lines = [] }
        return lines
    }

    private func render(_ message: UCIMessage, raw: UCIRawMessage, packets: Int) -> String {
        let identity = raw.isData ? "DPF \(raw.dataPacketFormat.rawValue)" : raw.opcode.description
        if json {
            let header: [UCIField] = [
                UCIField("message", .text(message.name)),
                UCIField("message_type", .text(raw.messageType.shortName)),
                UCIField(raw.isData ? "dpf" : "opcode", .text(identity)),
                UCIField("payload_length", .integer(Int64(raw.payload.count))),
                UCIField("packets", .integer(Int64(packets))),
            ]
            return UCIField.json(header + message.fields)
        }
        var title = "\(message.name) (\(raw.messageType.shortName) \(identity), \(raw.payload.count)-byte payload"
        title += packets > 1 ? " from \(packets) packets)" : ")"
        if message.isUninterpreted { title += ", not interpreted: kept raw" }
        let fields = UCIField.text(message.fields, indent: 2)
        return fields.isEmpty ? title : "\(title)\n\(fields)"
    }

    private mutating func report(_ text: String) {
        failures += 1
        lines.append(.error(text))
    }

    private mutating func warn(_ text: String) {
        lines.append(.warning(text))
    }
}
