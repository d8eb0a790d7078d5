import Synchronization
import UCI

/// Where a virtual UWBS's packets go: its transport (an in-process stream or a TCP
/// connection). Built-in peers have none.
struct VirtualUWBSOutput: Sendable {
    /// Delivers one typed packet to the host, in order.
    let deliver: @Sendable (UCIPacket) -> Void
    /// The device went away (unplug fault, world shut down): the host side sees `reason`.
    let hangUp: @Sendable (String) -> Void
}

/// The packets a host sends to one attached virtual UWBS, in order, typed (the transport
/// decoded each header once): the transport pushes, the world's pump for that device reads.
final class VirtualUWBSInbox: Sendable {
    private let continuation: AsyncStream<UCIPacket>.Continuation
    private let finished = Atomic<Bool>(false)

    init(_ continuation: AsyncStream<UCIPacket>.Continuation) {
        self.continuation = continuation
    }

    /// Queues a packet; `false` if the device is gone.
    func push(_ packet: UCIPacket) -> Bool {
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
