import ArgumentParser
import Foundation
import NearbyBase
import UCI

/// `nearby uci decode HEX...`: decodes UCI packets for debugging.
///
/// Each argument holds one or more whole packets in hex; segmented messages given in order are
/// reassembled across arguments. A bad argument or packet is reported on stderr and the rest are
/// still decoded; the exit code is then 1.
struct UCIDecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode UCI packets given in hex.",
        discussion: """
            Each argument is one packet, or several packets back to back, in hex: spaces, colons, \
            commas, '|', '-' and '0x' prefixes are allowed. Segments of a segmented message, given in \
            order, are reassembled. Without arguments, packets are read from standard input, one \
            argument per line.

            Examples:
              nearby uci decode "20 00 00 01 00"
              nearby uci decode --json 61020006010000000300
              nearby uci decode 41:00:00:05:00:01:00:00:00 "60 01 00 01 01 | 40 00 00 01 00"

            Errors (bad hex, truncated packets, malformed payloads) go to standard error; the other \
            packets are still decoded and the exit code is 1.
            """
    )

    @Argument(help: "UCI packets in hex, one or more per argument. Read from standard input if none.")
    var packets: [String] = []

    @Flag(name: .long, help: "Print one JSON object per message instead of readable text.")
    var json = false

    @Option(
        name: .customLong("uci-version"),
        help: "The UCI version of the device (1.1 or 2.0); it matters only for layouts the bytes cannot tell apart.")
    var uciVersion = "2.0"

    func validate() throws {
        guard Self.version(uciVersion) != nil else {
            throw ValidationError("--uci-version must be 1.1 or 2.0, not \"\(uciVersion)\"")
        }
    }

    static func version(_ text: String) -> UCIVersion? {
        switch text {
        case "1.1", "1": .v1_1
        case "2.0", "2": .v2_0
        default: nil
        }
    }

    func run() async throws {
        var inputs: [(label: String, text: String)] = packets.enumerated().map { ("argument \($0.offset + 1)", $0.element) }
        if inputs.isEmpty {
            var lineNumber = 0
            while let line = readLine() {
                lineNumber += 1
                if !line.trimmingCharacters(in: .whitespaces).isEmpty { inputs.append(("line \(lineNumber)", line)) }
            }
        }
        var decoder = UCIDecodeRun(version: Self.version(uciVersion) ?? .v2_0, json: json)
        for input in inputs { decoder.decode(input.text, label: input.label) }
        decoder.finish()
        if decoder.failures > 0 { throw ExitCode(1) }
    }
}

/// One run of `nearby uci decode`: frames, reassembles, decodes and prints.
struct UCIDecodeRun {
    let version: UCIVersion
    let json: Bool
    private(set) var failures = 0
    private var reassembler = UCIReassembler()
    /// Packets received for the message being reassembled: control, data.
    private var pendingPackets = (control: 0, data: 0)

    init(version: UCIVersion, json: Bool) {
        self.version = version
        self.json = json
    }

    /// Decodes the packets in one argument or input line.
    mutating func decode(_ text: String, label: String) {
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
            print(render(message, raw: raw, packets: packetCount))
        } catch {
            report("\(label): \(error)\n  raw: \(raw)")
        }
    }

    /// Reports messages whose last segment never came.
    mutating func finish() {
        for (partial, segments) in reassembler.partialMessages {
            report(
                "\(partial.name): incomplete, \(segments) segment\(segments == 1 ? "" : "s") (\(partial.payload.count) bytes) "
                    + "received but not the last one (PBF = 0)")
        }
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
        FileHandle.standardError.write(Data("error: \(text)\n".utf8))
    }

    private func warn(_ text: String) {
        FileHandle.standardError.write(Data("warning: \(text)\n".utf8))
    }
}
