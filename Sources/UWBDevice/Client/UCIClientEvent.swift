public import UCI

/// Something that happened to the UWB subsystem as a whole: state changes, errors, the dev kit
/// going away and coming back. Subscribe with ``UCIClient/events()``; session-level news comes
/// on each session's ``UWBSession/events``.
public enum UCIClientEvent: Sendable, Hashable, CustomStringConvertible {
    /// CORE_DEVICE_STATUS_NTF: the UWBS is READY, ACTIVE (a session ranges), or another state.
    case deviceStateChanged(UCIDeviceState)
    /// CORE_GENERIC_ERROR_NTF with a status (COMMAND_RETRY makes the client resend the
    /// outstanding command).
    case genericError(UCIStatus)
    /// CORE_DEVICE_STATUS_NTF(ERROR): the client resets the UWBS and restores the sessions.
    case deviceErrorReported(sessions: [UInt32])
    /// The link to the dev kit is gone (unplugged, server closed); the client waits for it and
    /// reopens it. The sessions are interrupted.
    case transportLost(UWBDeviceError)
    /// The dev kit is back and open again; the reset and the restore follow.
    case transportRestored
    /// The UWBS was reset and the sessions restored (re-initialized, configured, and started if
    /// they were ranging); the IDs that are back.
    case recovered(sessions: [UInt32])
    /// One session could not be restored after a reset; it is closed.
    case sessionRestoreFailed(session: UInt32, error: UCIClientError)
    /// The client gave up bringing the UWBS back; every operation now fails. Close the client.
    case recoveryFailed(UCIClientError)

    /// A sentence for people, e.g. `"dev kit back, sessions restored: 0x00000001"`.
    public var description: String {
        switch self {
        case .deviceStateChanged(let state): "device state: \(state)"
        case .genericError(let status): "the UWBS reported a generic error: \(status)"
        case .deviceErrorReported(let sessions):
            "the UWBS reported DEVICE_STATE_ERROR; resetting it"
                + (sessions.isEmpty ? "" : " and restoring \(sessions.count) session\(sessions.count == 1 ? "" : "s")")
        case .transportLost(let error): "dev kit lost: \(error.reason); waiting for it to come back"
        case .transportRestored: "dev kit reopened; resetting it"
        case .recovered(let sessions):
            sessions.isEmpty ? "dev kit back and reset" : "dev kit back, sessions restored: " + sessions.map(ClientText.hex32).joined(separator: ", ")
        case .sessionRestoreFailed(let session, let error): "session \(ClientText.hex32(session)) could not be restored: \(error.reason)"
        case .recoveryFailed(let error): "gave up bringing the dev kit back: \(error.reason)"
        }
    }
}
