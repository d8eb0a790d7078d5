import Synchronization

/// Where a virtual UWBS's packets go: its transport (an in-process stream or a TCP
/// connection). Built-in peers have none.
struct VirtualUWBSOutput: Sendable {
    /// Delivers one whole packet to the host, in order.
    let deliver: @Sendable ([UInt8]) -> Void
    /// The device went away (unplug fault, world shut down): the host side sees `reason`.
    let hangUp: @Sendable (String) -> Void
}

/// The packets a host sends to one attached virtual UWBS, in order: the transport pushes, the
/// world's pump for that device reads.
final class VirtualUWBSInbox: Sendable {
    private let continuation: AsyncStream<[UInt8]>.Continuation
    private let finished = Atomic<Bool>(false)

    init(_ continuation: AsyncStream<[UInt8]>.Continuation) {
        self.continuation = continuation
    }

    /// Queues a packet; `false` if the device is gone.
    func push(_ packet: [UInt8]) -> Bool {
        guard !finished.load(ordering: .acquiring) else { return false }
        if case .terminated = continuation.yield(packet) { return false }
        return true
    }

    /// `false` once the device was detached.
    var isOpen: Bool { !finished.load(ordering: .acquiring) }

    /// Ends the queue (the device was detached).
    func finish() {
        finished.store(true, ordering: .releasing)
        continuation.finish()
    }
}

/// The checks a real transport makes on a packet handed to `send`: a 4-byte header whose
/// length matches the bytes.
enum UCIPacketShape {
    /// `nil` if `packet` is exactly one UCI packet, else what is wrong.
    static func problem(_ packet: [UInt8]) -> String? {
        guard packet.count >= 4 else {
            return "a UCI packet needs a 4-byte header; got \(packet.count) byte(s)"
        }
        let messageType = packet[0] >> 5
        let length: Int
        if messageType == 0 {
            length = Int(packet[2]) | Int(packet[3]) << 8
        } else if packet[1] & 0x80 != 0 {
            length = Int(packet[3]) << 8 | Int(packet[2])
        } else {
            length = Int(packet[3])
        }
        guard packet.count == 4 + length else {
            return "the header announces \(length) payload byte(s) but \(packet.count - 4) follow"
        }
        return nil
    }
}
