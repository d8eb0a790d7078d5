import ArgumentParser
import Foundation
import NearbyBase
import NearbySupport
import Simulation
import Synchronization
import UCI
import UWBDevice

/// `nearby uwb raw`: send UCI packets and print what comes back.
struct UWBRawCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raw",
        abstract: "Send raw UCI packets to a UWB subsystem and print every packet that comes back.",
        discussion: """
            Each PACKET is one whole UCI packet in hex (header + payload), e.g. 20020000 for \
            CORE_GET_DEVICE_INFO; spaces, ':' and a 0x prefix are allowed inside one argument. \
            After each command (MT 1) the response (MT 2) is awaited before the next packet is sent; \
            notifications are printed as they arrive. Exits with status 1 if a response does not come.
            """
    )

    @Option(name: .long, help: "The UWB subsystem: \(UWBDeviceTarget.forms).")
    var device: String

    @Option(name: .long, help: "Seconds to wait for each response.")
    var timeout: Double = 2

    @Option(name: .long, help: "Seconds to keep printing notifications after the last packet.")
    var listen: Double = 0.3

    @Argument(help: "UCI packets in hex, one per argument.")
    var packets: [String]

    @OptionGroup var uciLog: UCILogOptions

    func validate() throws {
        _ = try parsedSpec()
        _ = try parsedPackets()
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be between 0 and 600 seconds, got \(timeout)") }
        guard listen >= 0, listen <= 3600 else { throw ValidationError("--listen must be between 0 and 3600 seconds, got \(listen)") }
    }

    private func parsedSpec() throws -> UWBDeviceTarget {
        do {
            return try UWBDeviceTarget(parsing: device)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Each argument as a typed packet (the header decoded once, here).
    private func parsedPackets() throws -> [UCIPacket] {
        guard !packets.isEmpty else { throw ValidationError("give at least one UCI packet in hex, e.g. 20020000") }
        return try packets.enumerated().map { index, text in
            guard let bytes = try? Hex.parse(text), !bytes.isEmpty else {
                throw ValidationError("packet \(index + 1) \"\(text)\" is not hex bytes (e.g. 20020000 or \"20 02 00 00\")")
            }
            guard let header = try? UCIPacketHeader(decoding: bytes) else {
                throw ValidationError("packet \(index + 1) has \(bytes.count) byte(s); a UCI packet has a 4-byte header")
            }
            guard let packet = try? UCIPacket(bytes: bytes) else {
                let expected = UCIPacketHeader.size + header.payloadLength
                throw ValidationError("packet \(index + 1) (\(Hex.bytes(bytes))): its header announces \(header.payloadLength) payload byte(s), so the packet must be \(expected) bytes, not \(bytes.count)")
            }
            return packet
        }
    }

    func run() async throws {
        let packets = try parsedPackets()
        guard case .device(let spec) = try parsedSpec() else {
            UWBConsole.error("error: `nearby uwb raw` talks to a UCI transport; run the simulator as a server (`nearby sim uwbs --listen 127.0.0.1:7000`) and use --device tcp:127.0.0.1:7000")
            throw ExitCode(1)
        }
        let capture = try uciLog.open(interface: spec.description)
        defer { CaptureReport.finish("--uci-log", capture?.file) }
        let transport: any UCITransport
        let stream: UCIPacketStream
        do {
            let base = spec.makeTransport()
            transport = capture.map { base.capturing(to: $0) } ?? base
            stream = try await transport.open()
        } catch {
            UWBConsole.error("error: \(error)")
            throw ExitCode(1)
        }
        let waiting = Mutex<Promise<Void>?>(nil)
        let reader = Task {
            do {
                for try await packet in stream {
                    print("< " + RawPacketLine.describe(packet))
                    if packet.header.messageType == .response { _ = waiting.withLock { $0 }?.fulfill(()) }
                }
            } catch {
                UWBConsole.error("error: \(error)")
                _ = waiting.withLock { $0 }?.fail(error)
                throw error
            }
        }
        var failed = false
        for (index, packet) in packets.enumerated() {
            let reply = Promise<Void>()
            let expectsResponse = packet.header.messageType == .command
            waiting.withLock { $0 = expectsResponse ? reply : nil }
            print("> " + RawPacketLine.describe(packet))
            do {
                try await transport.send(packet.bytes)
                if expectsResponse {
                    try await reply.value(timeout: .milliseconds(Int(timeout * 1000)),
                                          operation: "the response to packet \(index + 1) (\(Hex.bytes(packet.bytes.prefix(UCIPacketHeader.size))))")
                }
            } catch let error as TimeoutError {
                UWBConsole.error("error: \(spec): \(error)")
                failed = true
                break
            } catch let error as UWBDeviceError {
                UWBConsole.error("error: \(error)")
                failed = true
                break
            } catch {
                // The stream ended (unplug, server gone): the reader task printed why.
                failed = true
                break
            }
        }
        if !failed && listen > 0 {
            try? await Task.sleep(for: .milliseconds(Int(listen * 1000)))
        }
        await transport.close()
        if (try? await reader.value) == nil { failed = true }
        if failed { throw ExitCode(1) }
    }
}

/// Output helpers of the `nearby uwb` commands.
enum UWBConsole {
    /// Writes a line to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// One UCI packet as a line: hex bytes and what its (typed) header says.
enum RawPacketLine {
    /// `20 02 00 00    CMD gid 0x0 oid 0x2, 0 payload byte(s)` (without the direction mark).
    static func describe(_ packet: UCIPacket) -> String {
        let header = packet.header
        let gid = String(header.groupOrFormat, radix: 16)
        var summary = header.messageType.isData
            ? "DATA dpf 0x\(gid)"
            : "\(header.messageType.shortName) gid 0x\(gid) oid 0x\(String(header.opcodeID, radix: 16))"
        if header.moreSegmentsFollow { summary += " (segment)" }
        summary += ", \(header.payloadLength) payload byte(s)"
        if header.messageType == .response, let status = packet.payload.first { summary += ", status 0x\(String(status, radix: 16))" }
        return "\(Hex.bytes(packet.bytes).uwbPadded(to: 36))  \(summary)"
    }
}

extension String {
    /// Pads with spaces on the right to at least `width` characters.
    func uwbPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
