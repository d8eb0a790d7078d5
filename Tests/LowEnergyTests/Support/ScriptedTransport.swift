import LowEnergy
import Synchronization

/// An in-memory HCI transport for unit tests: records every packet the host sends and lets a
/// responder closure play the controller (answers are delivered as if read from the wire).
final class ScriptedTransport: HCITransport {
    typealias Responder = @Sendable (HCIPacket) -> [HCIPacket]

    let name = "scripted"
    let packets: AsyncThrowingStream<HCIPacket, any Error>
    private let continuation: AsyncThrowingStream<HCIPacket, any Error>.Continuation
    private let state = Mutex<(sent: [HCIPacket], responder: Responder?)>(([], nil))

    init(responder: Responder? = nil) {
        (packets, continuation) = AsyncThrowingStream<HCIPacket, any Error>.makeStream()
        state.withLock { $0.responder = responder }
    }

    /// Everything the host sent, in order.
    var sent: [HCIPacket] { state.withLock { $0.sent } }

    /// The commands the host sent, as H4 bytes.
    var sentCommands: [[UInt8]] { sent.filter { $0.type == .command }.map(\.h4Bytes) }

    /// Replaces the controller behaviour.
    func setResponder(_ responder: Responder?) {
        state.withLock { $0.responder = responder }
    }

    /// Delivers a packet from the "controller".
    func deliver(_ packet: HCIPacket) {
        continuation.yield(packet)
    }

    /// Delivers an event from its bytes (code, length, parameters).
    func deliverEvent(_ bytes: [UInt8]) {
        deliver(HCIPacket(.event, bytes))
    }

    func send(_ packet: HCIPacket) async throws(BluetoothError) {
        let responder = state.withLock { state -> Responder? in
            state.sent.append(packet)
            return state.responder
        }
        for answer in responder?(packet) ?? [] { continuation.yield(answer) }
    }

    func close() async {
        continuation.finish()
    }
}

/// A minimal well-behaved controller for ``ScriptedTransport``: answers every command with
/// Command Complete (status 0 and plausible return parameters) or Command Status.
enum FakeController {
    static func commandComplete(_ opcode: UInt16, _ returnParameters: [UInt8], credits: UInt8 = 1) -> HCIPacket {
        let parameters: [UInt8] = [credits, UInt8(opcode & 0xFF), UInt8(opcode >> 8)] + returnParameters
        return HCIPacket(.event, [0x0E, UInt8(parameters.count)] + parameters)
    }

    static func commandStatus(_ opcode: UInt16, status: UInt8 = 0, credits: UInt8 = 1) -> HCIPacket {
        HCIPacket(.event, [0x0F, 4, status, credits, UInt8(opcode & 0xFF), UInt8(opcode >> 8)])
    }

    static func opcode(of packet: HCIPacket) -> UInt16? {
        guard packet.type == .command, packet.bytes.count >= 3 else { return nil }
        return UInt16(packet.bytes[0]) | UInt16(packet.bytes[1]) << 8
    }

    /// Answers like a Bluetooth 5.0 controller with `buffers` LE buffers of 27 bytes.
    static func responder(buffers: UInt8 = 4, extendedAdvertising: Bool = true,
                          silent: Set<UInt16> = []) -> ScriptedTransport.Responder {
        { packet in
            guard let opcode = opcode(of: packet), !silent.contains(opcode) else { return [] }
            switch opcode {
            case 0x1001: return [commandComplete(opcode, [0, 0x09, 0x00, 0x00, 0x09, 0x5F, 0x00, 0x01, 0x00])]
            case 0x1009: return [commandComplete(opcode, [0, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0])]
            case 0x2003:
                let features: UInt8 = extendedAdvertising ? 0x10 : 0x00  // bit 12 is in the second byte
                return [commandComplete(opcode, [0, 0x01, features, 0, 0, 0, 0, 0, 0])]
            case 0x2002: return [commandComplete(opcode, [0, 27, 0, buffers])]
            case 0x0406, 0x200D, 0x2043, 0x2013: return [commandStatus(opcode)]
            default: return [commandComplete(opcode, [0])]
            }
        }
    }
}
