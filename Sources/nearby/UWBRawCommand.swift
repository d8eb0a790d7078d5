import ArgumentParser
import Foundation
import NearbySupport
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

    @Option(name: .long, help: "The UWB subsystem: \(UWBDeviceSpec.forms).")
    var device: String

    @Option(name: .long, help: "Seconds to wait for each response.")
    var timeout: Double = 2

    @Option(name: .long, help: "Seconds to keep printing notifications after the last packet.")
    var listen: Double = 0.3

    @Argument(help: "UCI packets in hex, one per argument.")
    var packets: [String]

    func validate() throws {
        _ = try parsedSpec()
        _ = try parsedPackets()
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be between 0 and 600 seconds, got \(timeout)") }
        guard listen >= 0, listen <= 3600 else { throw ValidationError("--listen must be between 0 and 3600 seconds, got \(listen)") }
    }

    private func parsedSpec() throws -> UWBDeviceSpec {
        do {
            return try UWBDeviceSpec(parsing: device)
        } catch {
            throw ValidationError(error.description)
        }
    }

    private func parsedPackets() throws -> [[UInt8]] {
        guard !packets.isEmpty else { throw ValidationError("give at least one UCI packet in hex, e.g. 20020000") }
        return try packets.enumerated().map { index, text in
            guard let bytes = RawHex.parse(text) else {
                throw ValidationError("packet \(index + 1) \"\(text)\" is not hex bytes (e.g. 20020000 or \"20 02 00 00\")")
            }
            guard bytes.count >= 4 else {
                throw ValidationError("packet \(index + 1) has \(bytes.count) byte(s); a UCI packet has a 4-byte header")
            }
            let expected = 4 + RawPacketLine.payloadLength(bytes)
            guard bytes.count == expected else {
                throw ValidationError("packet \(index + 1) (\(RawHex.format(bytes))): its header announces \(expected - 4) payload byte(s), so the packet must be \(expected) bytes, not \(bytes.count)")
            }
            return bytes
        }
    }

    func run() async throws {
        let spec = try parsedSpec()
        let packets = try parsedPackets()
        if spec == .simulator {
            UWBConsole.error("error: `nearby uwb raw` talks to a UCI transport; run the simulator as a server (`nearby sim uwbs --listen 127.0.0.1:7000`) and use --device tcp:127.0.0.1:7000")
            throw ExitCode(1)
        }
        let transport: any UCITransport
        let stream: AsyncThrowingStream<[UInt8], any Error>
        do {
            transport = try spec.makeTransport()
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
                    if packet[0] >> 5 == 2 { _ = waiting.withLock { $0 }?.fulfill(()) }
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
            let expectsResponse = packet[0] >> 5 == 1
            waiting.withLock { $0 = expectsResponse ? reply : nil }
            print("> " + RawPacketLine.describe(packet))
            do {
                try await transport.send(packet)
                if expectsResponse {
                    try await reply.value(timeout: .milliseconds(Int(timeout * 1000)),
                                          operation: "the response to packet \(index + 1) (\(RawHex.format(Array(packet.prefix(4)))))")
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

/// One UCI packet as a line: hex bytes and what the header says.
enum RawPacketLine {
    /// The payload length the header of `bytes` (at least 4) announces.
    static func payloadLength(_ bytes: [UInt8]) -> Int {
        UCIPacketFramer.payloadLength(bytes[0], bytes[1], bytes[2], bytes[3])
    }

    /// `> 20 02 00 00    CMD gid 0x0 oid 0x2, 0 payload byte(s)` without the direction mark.
    static func describe(_ packet: [UInt8]) -> String {
        let hex = RawHex.format(packet)
        guard packet.count >= 4 else { return hex }
        let messageType = packet[0] >> 5
        let gid = packet[0] & 0x0F
        let oid = packet[1] & 0x3F
        let kinds = ["DATA", "CMD", "RSP", "NTF"]
        let kind = Int(messageType) < kinds.count ? kinds[Int(messageType)] : "MT\(messageType)"
        var summary = messageType == 0
            ? "DATA dpf 0x\(String(gid, radix: 16))"
            : "\(kind) gid 0x\(String(gid, radix: 16)) oid 0x\(String(oid, radix: 16, uppercase: false))"
        if packet[0] & 0x10 != 0 { summary += " (segment)" }
        summary += ", \(packet.count - 4) payload byte(s)"
        if messageType == 2, packet.count > 4 { summary += ", status 0x\(String(packet[4], radix: 16))" }
        return "\(hex.uwbPadded(to: 36))  \(summary)"
    }
}

/// Hex text <-> bytes for the command line.
enum RawHex {
    /// Parses "20020000", "20 02 00 00", "20:02:00:00" or "0x20020000"; `nil` if not hex.
    static func parse(_ text: String) -> [UInt8]? {
        var digits = text.filter { $0 != " " && $0 != ":" && $0 != "_" }
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits.removeFirst(2) }
        guard !digits.isEmpty, digits.count % 2 == 0, digits.allSatisfy(\.isHexDigit) else { return nil }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    /// "20 02 00 00".
    static func format(_ bytes: [UInt8]) -> String {
        bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
    }
}

extension String {
    /// Pads with spaces on the right to at least `width` characters.
    func uwbPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
