public import UCI

/// Where an open session's range samples go: called by the ``UCIClient``'s reader, in arrival
/// order, synchronously, for every measurement of every SESSION_INFO_NTF of the session.
///
/// The default (``UCIClient/openSession(id:type:parameters:samples:)`` without a sink) feeds the
/// session's ``UWBSession/samples`` stream. A consumer with its own inbox (an NI session's
/// mailbox) passes a sink that posts into it, so a sample crosses one queue instead of two.
/// `deliver` must not block: it runs on the client's reader.
public struct UWBSampleSink: Sendable {
    /// Delivers one sample; returns `false` if the consumer had to drop one (it is behind) —
    /// the client counts those and logs them.
    public let deliver: @Sendable (UCIPeerRangeSample) -> Bool
    /// Called once when the session is gone (closed, deinitialized by the UWBS, client closed).
    public let finish: @Sendable () -> Void

    /// A sink of two closures.
    public init(deliver: @escaping @Sendable (UCIPeerRangeSample) -> Bool, finish: @escaping @Sendable () -> Void = {}) {
        self.deliver = deliver
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
