import Synchronization
import UCI

/// Where a virtual UWBS's packets go: its transport (an in-process stream or a TCP
/// connection). Built-in peers have none.
struct VirtualUWBSOutput: Sendable {
    /// Delivers one typed packet to the host, in order, with the real time (`MonotonicTime`
    /// seconds) of the world time it was sent at (`nil` with the manual clock).
    let deliver: @Sendable (UCIPacket, _ sentAt: Double?) -> Void
    /// `true` if the host receives the time with the packet (the in-process transport: its
    /// samples are stamped with their round's time); `false` for a TCP connection, whose host
    /// stamps a packet when it reads it. The world runs rounds ahead of the wall clock only
    /// while every attached device's output is timed (``VirtualUWBSWorld/batchWindow``).
    let timed: Bool
    /// The device went away (unplug fault, world shut down): the host side sees `reason`.
    let hangUp: @Sendable (String) -> Void
}

/// The packets a host sends to one attached virtual UWBS, in order, typed (the transport
/// decoded each header once): the transport pushes, the world's pump for that device reads.
/// Bounded like every queue on the way (``capacity``: a host sends one command at a time, so
/// it never fills unless the pump stalls): beyond it the oldest packet is dropped and counted.
final class VirtualUWBSInbox: Sendable {
    /// Packets that may wait for the device.
    static let capacity = 1024

    private let continuation: AsyncStream<UCIPacket>.Continuation
    private let finished = Atomic<Bool>(false)
    private let dropped = Atomic<Int>(0)

    /// An inbox feeding `continuation` (made with ``capacity``, newest kept).
    init(_ continuation: AsyncStream<UCIPacket>.Continuation) {
        self.continuation = continuation
    }

    /// Queues a packet; `false` if the device is gone.
    func push(_ packet: UCIPacket) -> Bool {
        guard !finished.load(ordering: .acquiring) else { return false }
        switch continuation.yield(packet) {
        case .terminated: return false
        case .dropped: dropped.add(1, ordering: .relaxed)
        default: break
        }
        return true
    }

    /// Packets dropped because ``capacity`` of them were waiting.
    var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// `false` once the device was detached.
    var isOpen: Bool { !finished.load(ordering: .acquiring) }

    /// Ends the queue (the device was detached).
    func finish() {
        finished.store(true, ordering: .releasing)
        continuation.finish()
    }
}
