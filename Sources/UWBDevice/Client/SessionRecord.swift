import NearbySupport
import UCI

/// What the client knows about one open session: its cached configuration (for restores), its
/// token, the host's view of its state, and its output streams.
struct SessionRecord {
    let id: UInt32
    let type: UCISessionType
    var parameters: FiRaSessionParameters
    /// The SET_APP_CONFIG parameters last accepted (or being sent), replayed on restore.
    var configs: [UCIAppConfig]
    /// The session handle (UCI 2.0) or the ID (1.1) that commands and notifications carry.
    var token: UInt32
    /// `.deinitialized` until SESSION_INIT succeeded (and after a UWBS reset).
    var state: UCISessionState = .deinitialized
    /// The session was started and not stopped since: restores start it again.
    var wantsActive = false
    /// A recovery is bringing the session back.
    var interrupted = false
    /// The host is closing the session (SESSION_DEINIT sent).
    var closing = false
    let samples: UWBSampleSink
    let events: AsyncStream<UWBSessionEvent>.Continuation
    /// An operation waiting for the UWBS to report a state.
    var stateWaiter: StateWaiter?

    /// Finishes both streams (the session is gone).
    func finishStreams() {
        samples.finish()
        events.finish()
    }
}

/// An operation waiting for SESSION_STATUS_NTF to report `target`.
struct StateWaiter {
    let target: UCISessionState
    let command: String
    let promise: Promise<Void>
}

/// Where range data for one session token goes: the hot path's lookup.
struct SessionRoute {
    let id: UInt32
    var includeAzimuth: Bool
    var includeElevation: Bool
    let samples: UWBSampleSink
    /// Samples dropped because the consumer fell behind (logged in batches).
    var dropped = 0
}

/// The command waiting for its response.
struct PendingCommand {
    let opcode: UCIOpcode
    let name: String
    let promise: Promise<CommandReply>
    /// For SESSION_INIT: the session ID, so the reader maps the token as soon as the response
    /// arrives (the SESSION_STATUS_NTF that follows carries it).
    let initializingSession: UInt32?
}

/// What the reader hands to the waiting command.
enum CommandReply: Sendable {
    /// The response.
    case response(UCIResponse)
    /// CORE_GENERIC_ERROR_NTF(COMMAND_RETRY): send the command again.
    case retryRequested
}

/// Why the client is recovering.
enum RecoveryCause: Sendable {
    /// DEVICE_STATUS_NTF(ERROR): reset and restore.
    case deviceError
    /// The transport's stream ended: wait, reopen, reset and restore.
    case transportLost(UWBDeviceError)

    var needsReconnect: Bool {
        if case .transportLost = self { return true }
        return false
    }
}

/// Where the client is in its life.
enum ClientPhase {
    /// Not opened yet (or the last open failed).
    case idle
    /// ``UCIClient/open()`` is bringing the UWBS up.
    case opening
    /// Open and usable (possibly recovering after a device error).
    case open
    /// The dev kit went away; the client waits for it.
    case waitingForDevice
    /// Recovery gave up.
    case failed(UCIClientError)
    /// Closed for good.
    case closed
}
