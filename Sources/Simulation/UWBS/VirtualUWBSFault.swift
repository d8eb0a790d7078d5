public import UCI

/// A fault to inject into one virtual UWBS (``VirtualUWBSWorld/inject(_:into:)``), to test how
/// the layers above recover.
public enum VirtualUWBSFault: Sendable, Hashable, CustomStringConvertible {
    /// The UWBS fails: CORE_DEVICE_STATUS_NTF(ERROR). Its sessions are lost and every command
    /// but CORE_DEVICE_RESET is answered with CORE_DEVICE_STATUS_NTF(ERROR) until the host
    /// resets it.
    case deviceError
    /// The UWBS stops an ACTIVE session on its own: SESSION_STATUS_NTF(IDLE, `reason`). On a
    /// built-in peer this is "the peer stops ranging": its host then sees RX timeouts.
    case stopSession(id: UInt32, reason: UCIReasonCode = .maxRangingRoundRetryCountReached)
    /// `true`: the device stops transmitting and answering (a peer walked away, a dead
    /// battery): every session ranging with it gets RX_TIMEOUT (and, with MAX_RR_RETRY,
    /// SESSION_STATUS_NTF(IDLE, reason 0x01)), and its own sessions time out. `false` resumes.
    case radioSilence(Bool)
    /// The device goes away like an unplugged dev kit: the in-process transport's stream ends
    /// with `disconnected`, a TCP connection is closed. An in-process device can be opened
    /// again after `reconnectAfter` (real time) or after ``VirtualUWBSWorld/reconnect(_:)``
    /// when it is `nil`; a built-in peer is removed.
    case disconnect(reconnectAfter: Duration?)
    /// The next `count` commands are processed `delay` (real time) late, responses and
    /// notifications alike, to exercise a host's response timeout.
    case slowResponses(delay: Duration, count: Int)
    /// The next `count` commands are not executed but answered with COMMAND_RETRY (0x0A): as
    /// the response's status, or with `viaGenericError` as CORE_GENERIC_ERROR_NTF(0x0A) and no
    /// response (the two forms AOSP retries on).
    case commandRetry(count: Int = 1, viaGenericError: Bool = false)

    /// `"device error"`, `"stop session 42 (reason ...)"`, ...
    public var description: String {
        switch self {
        case .deviceError: "device error"
        case .stopSession(let id, let reason): "stop session \(id) (\(reason))"
        case .radioSilence(let on): on ? "radio silence" : "radio back on"
        case .disconnect(let after): after.map { "disconnect for \($0)" } ?? "disconnect"
        case .slowResponses(let delay, let count): "delay the next \(count) command(s) by \(delay)"
        case .commandRetry(let count, let generic):
            "answer the next \(count) command(s) with COMMAND_RETRY" + (generic ? " (CORE_GENERIC_ERROR_NTF)" : "")
        }
    }
}
