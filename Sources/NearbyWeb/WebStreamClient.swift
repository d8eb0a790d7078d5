import NIOCore
import NIProtocol
import NearbyBase
import NearbyRuntime
import NIOHTTP1
import Synchronization

/// One browser's server-sent-event stream: a bounded, coalescing queue (``WebClientQueue``) in
/// front of its channel.
///
/// The run's thread only queues (a lock, an append) and, when the channel can take more, asks
/// its event loop to write. The event loop writes everything waiting as one buffer while the
/// channel is writable (NIO's write-buffer watermarks); while it is not, the queue keeps the
/// latest status per accessory and at most ``WebSettings/streamQueueLimit`` events, and the
/// next write resumes when the channel drains (`channelWritabilityChanged`). Memory per client is
/// bounded; ranging is never slowed by a slow browser.
final class WebStreamClient: Sendable {
    /// The hub's key for this client.
    let id: Int
    private let channel: any Channel
    private let state: Mutex<State>

    private struct State {
        var queue: WebClientQueue<WebStatus>
        var scheduled = false
        var closed = false
        var written = 0
    }

    init(id: Int, channel: any Channel, limit: Int) {
        self.id = id
        self.channel = channel
        state = Mutex(State(queue: WebClientQueue(limit: limit)))
    }

    /// The first frame (full state).
    func start(_ hello: String) { enqueue { $0.start(hello) } }

    /// Queues an event (a `log` frame, already encoded).
    func push(log frame: String) { enqueue { $0.push(log: frame) } }

    /// Queues (replaces) an accessory's status.
    func push(status: WebStatus) { enqueue { $0.push(status: status, for: status.status.identity.id) } }

    /// Queues the `end` frame.
    func finish(_ frame: String) { enqueue { $0.finish(frame) } }

    /// Stops queueing (the channel closed).
    func close() {
        state.withLock { state in
            state.closed = true
            state.queue = WebClientQueue(limit: state.queue.limit)
        }
    }

    /// What waits: log entries, statuses, log entries dropped in all, statuses coalesced, bytes written.
    var counts: (logs: Int, statuses: Int, dropped: Int, coalesced: Int, written: Int) {
        state.withLock { ($0.queue.pendingLogs, $0.queue.pendingStatuses, $0.queue.droppedTotal, $0.queue.coalesced, $0.written) }
    }

    private func enqueue(_ change: (inout WebClientQueue<WebStatus>) -> Void) {
        let schedule: Bool = state.withLock { state in
            guard !state.closed else { return false }
            change(&state.queue)
            // While the channel is not writable, `channelWritabilityChanged` flushes.
            guard !state.scheduled, channel.isWritable else { return false }
            state.scheduled = true
            return true
        }
        if schedule { channel.eventLoop.execute { self.flush() } }
    }

    /// Writes everything waiting, if the channel is writable. On the channel's event loop.
    func flush() {
        let frames: [WebClientQueue<WebStatus>.Frame]? = state.withLock { state in
            state.scheduled = false
            guard !state.closed, channel.isWritable, !state.queue.isEmpty else { return nil }
            return state.queue.drain()
        }
        guard let frames else { return }
        var text = ""
        for frame in frames {
            switch frame {
            case .text(let frame): text += frame
            case .gap(let dropped): text += WebFrame.event("gap", "{\"dropped\":\(dropped)}")
            case .status(let status): text += WebFrame.event("status", status.json.text)
            }
        }
        let buffer = channel.allocator.buffer(string: text)
        state.withLock { $0.written += buffer.readableBytes }
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
    }

    /// Writes a comment line if the channel is idle and writable (finds dead peers).
    func heartbeat() {
        let idle = state.withLock { !$0.closed && $0.queue.isEmpty }
        guard idle, channel.isWritable else { return }
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(string: WebFrame.heartbeat))), promise: nil)
    }
}
