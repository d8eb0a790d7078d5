public import UCI

/// What happened to one session, in order, on ``UWBSession/events``.
public enum UWBSessionEvent: Sendable, Hashable, CustomStringConvertible {
    /// SESSION_STATUS_NTF: the UWBS moved the session to `state` for `reason` (0x00 = a host
    /// command; 0x01 MAX_RANGING_ROUND_RETRY_COUNT_REACHED = the peer stopped answering; 0x02 the
    /// measurement budget is used up; 0x1D-0x3F a parameter the UWBS could not use).
    case stateChanged(UCISessionState, reason: UCIReasonCode)
    /// The session stopped delivering samples because the dev kit went away or reported an
    /// error; the client is bringing it back.
    case interrupted(UWBSessionInterruption)
    /// After a reset, the session was initialized and configured again with its cached
    /// parameters, and started if it was ranging: it is now in `state`.
    case restored(UCISessionState)
    /// After a reset, the session could not be restored; it is closed and this stream ends.
    case restoreFailed(UCIClientError)
    /// A SESSION_INFO_NTF with OWR-AoA or DL-TDoA measurements, typed (two-way measurements
    /// arrive as samples; valid OWR-AoA ones also do, as angles without a distance).
    case measurements(UCISessionInfo)

    /// A sentence for people: `"SESSION_STATE_IDLE (0x03): MAX_RANGING_ROUND_RETRY_COUNT_REACHED (0x01)"`.
    public var description: String {
        switch self {
        case .stateChanged(let state, let reason): "\(state), reason \(reason)"
        case .interrupted(let cause): "interrupted: \(cause)"
        case .restored(let state): "restored, \(state)"
        case .restoreFailed(let error): "could not be restored: \(error.reason)"
        case .measurements(let info): "\(info.measurementType) measurements (\(info.measurementCount))"
        }
    }
}

/// Why a session was interrupted.
public enum UWBSessionInterruption: Sendable, Hashable, CustomStringConvertible {
    /// The UWBS reported DEVICE_STATE_ERROR; it is being reset.
    case deviceError
    /// The link to the dev kit is gone (unplugged, server closed); the reason in words.
    case transportLost(String)

    /// `"the UWBS reported DEVICE_STATE_ERROR"` or `"dev kit lost: ..."`.
    public var description: String {
        switch self {
        case .deviceError: "the UWBS reported DEVICE_STATE_ERROR"
        case .transportLost(let reason): "dev kit lost: \(reason)"
        }
    }
}
