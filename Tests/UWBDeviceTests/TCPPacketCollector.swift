import NearbyTestSupport
import Synchronization
import UCI
import UWBDevice

/// Drains a transport's packet stream in the background so tests can wait for packets, and for
/// the end of the stream, with deadlines (used by the TCP, serial and USB tests). Packets arrive
/// typed; the tests compare their wire bytes.
final class PacketCollector: Sendable {
    private struct State {
        var packets: [UCIPacket] = []
        var ended = false
        var error: (any Error)?
        var endedAt: ContinuousClock.Instant?
    }
    private final class Box: Sendable {
        let state = Mutex(State())
    }
    private let box = Box()
    private let task: Task<Void, Never>

    init(_ stream: UCIPacketStream) {
        let box = self.box
        task = Task {
            do {
                for try await packet in stream { box.state.withLock { $0.packets.append(packet) } }
                box.state.withLock {
                    $0.ended = true
                    $0.endedAt = .now
                }
            } catch {
                box.state.withLock {
                    $0.ended = true
                    $0.error = error
                    $0.endedAt = .now
                }
            }
        }
    }

    /// Packets received so far.
    var typedPackets: [UCIPacket] { box.state.withLock { $0.packets } }
    /// The wire bytes of the packets received so far.
    var packets: [[UInt8]] { typedPackets.map(\.bytes) }
    /// When the stream ended, if it did.
    var endedAt: ContinuousClock.Instant? { box.state.withLock { $0.endedAt } }

    /// Waits until `count` packets arrived.
    func waitForPackets(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [[UInt8]] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let (typed, ended, error) = box.state.withLock { ($0.packets, $0.ended, $0.error) }
            let packets = typed.map(\.bytes)
            if packets.count >= count { return packets }
            if ended || clock.now >= deadline {
                throw ChildProcessError("got \(packets.count) of \(count) packet(s)\(ended ? "; the stream ended (\(error.map { "\($0)" } ?? "normally"))" : " within \(timeout)"): \(packets.map(hex))")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until the stream ends; returns its error (`nil` when it finished normally).
    func waitForEnd(timeout: Duration = .seconds(20)) async throws -> (any Error)? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let (ended, error) = box.state.withLock { ($0.ended, $0.error) }
            if ended { return error }
            if clock.now >= deadline { throw ChildProcessError("the packet stream did not end within \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    deinit { task.cancel() }
}

/// "20 02 00 00".
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
}

/// Test vectors shared by the transport tests.
enum Vectors {
    /// CORE_DEVICE_STATUS_NTF(READY).
    static let ready: [UInt8] = [0x60, 0x01, 0x00, 0x01, 0x01]
    /// CORE_GET_DEVICE_INFO_CMD.
    static let getDeviceInfo: [UInt8] = [0x20, 0x02, 0x00, 0x00]
    /// CORE_GET_DEVICE_INFO_RSP: status OK, UCI 2.0, MAC 1.3, PHY 1.3, test 1.0, no vendor data.
    static let deviceInfo: [UInt8] = [0x40, 0x02, 0x00, 0x0A, 0x00, 0x00, 0x02, 0x03, 0x01, 0x03, 0x01, 0x00, 0x01, 0x00]
    /// CORE_DEVICE_RESET_CMD.
    static let reset: [UInt8] = [0x20, 0x00, 0x00, 0x01, 0x00]
    /// CORE_DEVICE_RESET_RSP(OK).
    static let resetOK: [UInt8] = [0x40, 0x00, 0x00, 0x01, 0x00]
    /// A control packet with the largest 8-bit payload (255 bytes).
    static let longCommand: [UInt8] = [0x21, 0x03, 0x00, 0xFF] + (0..<255).map { UInt8($0) }
    /// A data packet (MT 0) with a 16-bit length: 300 payload bytes.
    static let dataPacket: [UInt8] = [0x01, 0x00, 0x2C, 0x01] + (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
    /// A long notification: 200 payload bytes (spans 4 full-speed USB packets).
    static let longNotification: [UInt8] = [0x62, 0x00, 0x00, 0xC8] + (0..<200).map { UInt8(truncatingIfNeeded: 255 - $0) }

    /// The scripted UWBS used by the transport tests: answers GET_DEVICE_INFO with
    /// ``deviceInfo`` cut in 3 chunks (the last one also carrying the first half of
    /// ``longNotification``), RESET with ``resetOK`` + READY in one chunk, and echoes long
    /// commands and data packets back (as RSP / data) in 2 chunks.
    static let responder: ScriptedUCIServer.Responder = { packet in
        switch Array(packet.prefix(2)) {
        case [0x20, 0x02]:
            let half = longNotification.count / 2
            return [Array(deviceInfo[0..<3]), Array(deviceInfo[3..<9]),
                    Array(deviceInfo[9...]) + Array(longNotification[0..<half]), Array(longNotification[half...])]
        case [0x20, 0x00]:
            return [resetOK + ready]
        case [0x21, 0x03]:
            let response = [0x41, 0x03, 0x00, 0xFF] + Array(packet[4...])
            return [Array(response[0..<100]), Array(response[100...])]
        case [0x01, 0x00]:
            let response = [0x02, 0x00] + Array(packet[2...])
            return [Array(response[0..<7]), Array(response[7...])]
        default:
            return []
        }
    }
}
