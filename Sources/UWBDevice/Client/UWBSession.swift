public import UCI

/// An open FiRa session on a ``UCIClient``: its range samples, its status events, and the
/// operations of its state machine (INIT → IDLE → ACTIVE → IDLE → DEINIT).
///
/// Made by ``UCIClient/openSession(id:type:parameters:samples:)`` (the session is then IDLE). Survives
/// device errors and unplugs: the client restores it (same ID, same parameters, started again if
/// it was ranging) and the streams go on; ``events`` reports the interruption and the restore.
/// Both streams end when the session is closed (by ``close()``, by the UWBS, or when a restore
/// fails).
public final class UWBSession: Sendable {
    /// The session ID chosen by the host (UCI 2.0 handles are mapped by the client).
    public let id: UInt32
    /// The client the session belongs to.
    public let client: UCIClient
    /// Range samples, one per peer per SESSION_INFO_NTF, in arrival order: `session` is ``id``,
    /// `peer` the peer's MAC address, `sample` the measurement with a host timestamp on
    /// ``MonotonicTime`` (seconds). Angles the session does not request are `nil`. A sample whose
    /// status is not OK (e.g. RANGING_RX_TIMEOUT) has no values. Single consumer; if it falls
    /// behind by more than ``UCIClientConfiguration/sampleBufferSize`` samples, the oldest are
    /// dropped and the drops logged. Empty (and finished) when the session was opened with its
    /// own ``UWBSampleSink``.
    public let samples: AsyncStream<UCIPeerRangeSample>
    /// State changes reported by the UWBS (with their reason, e.g. 0x01 max ranging-round
    /// retries reached), interruptions and restores. Single consumer.
    public let events: AsyncStream<UWBSessionEvent>

    init(id: UInt32, client: UCIClient, samples: AsyncStream<UCIPeerRangeSample>, events: AsyncStream<UWBSessionEvent>) {
        self.id = id
        self.client = client
        self.samples = samples
        self.events = events
    }

    /// Starts ranging; see ``UCIClient/startSession(_:)``.
    /// - Throws: ``UCIClientError``, `invalidState` if the session is not IDLE.
    public func start() async throws(UCIClientError) { try await client.startSession(id) }

    /// Stops ranging, keeping the configuration; see ``UCIClient/stopSession(_:)``.
    /// - Throws: ``UCIClientError``, `invalidState` if the session is not ACTIVE.
    public func stop() async throws(UCIClientError) { try await client.stopSession(id) }

    /// Reconfigures the IDLE session; see ``UCIClient/updateSession(_:parameters:)``.
    /// - Throws: ``UCIClientError``.
    public func update(_ parameters: FiRaSessionParameters) async throws(UCIClientError) {
        try await client.updateSession(id, parameters: parameters)
    }

    /// Stops (if ranging) and deinitializes the session; its streams end. See
    /// ``UCIClient/closeSession(_:)``.
    /// - Throws: ``UCIClientError``.
    public func close() async throws(UCIClientError) { try await client.closeSession(id) }

    /// The host's view of the session's state (`SESSION_STATE_DEINIT` once closed).
    public var state: UCISessionState {
        get async { await client.sessionState(id) ?? .deinitialized }
    }

    /// The parameters in use, `nil` once closed.
    public var parameters: FiRaSessionParameters? {
        get async { await client.sessionParameters(id) }
    }
}
