public import UCI

/// Where an open session's range samples go: called by the ``UCIClient``'s reader on the
/// transport's own thread (the thread that read the bytes), in arrival order, synchronously,
/// for every measurement of every SESSION_INFO_NTF of the session.
///
/// The default (``UCIClient/openSession(id:type:parameters:samples:)`` without a sink) feeds the
/// session's ``UWBSession/samples`` stream. A consumer that can take a sample where it arrives
/// (an NI session's ranging pipeline, `nearby uwb range`'s printer) passes a sink, so a sample
/// crosses no queue at all. `deliver` must not block: it runs on the transport's reader.
public struct UWBSampleSink: Sendable {
    /// Delivers one sample; returns `false` if the consumer had to drop one (it is behind) —
    /// the client counts those and logs them.
    public let deliver: @Sendable (UCIPeerRangeSample) -> Bool
    /// Called after the last sample of each notification (a batch: one write per burst).
    public let endOfBatch: @Sendable () -> Void
    /// Called once when the session is gone (closed, deinitialized by the UWBS, client closed).
    public let finish: @Sendable () -> Void

    /// A sink of closures.
    public init(
        deliver: @escaping @Sendable (UCIPeerRangeSample) -> Bool, endOfBatch: @escaping @Sendable () -> Void = {},
        finish: @escaping @Sendable () -> Void = {}
    ) {
        self.deliver = deliver
        self.endOfBatch = endOfBatch
        self.finish = finish
    }

    /// A sink feeding an `AsyncStream` continuation (a dropped sample when its buffer is full).
    static func stream(_ continuation: AsyncStream<UCIPeerRangeSample>.Continuation) -> UWBSampleSink {
        UWBSampleSink(
            deliver: { sample in
                if case .dropped = continuation.yield(sample) { return false }
                return true
            },
            finish: { continuation.finish() })
    }
}
