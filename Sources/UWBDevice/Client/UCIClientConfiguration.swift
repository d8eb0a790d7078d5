public import UCI

/// Timeouts, retries and recovery settings of a ``UCIClient``. The defaults follow AOSP's
/// uwb_core (2 s response timeout; a command sent at most `MAX_RETRY_COUNT` = 3 times in all)
/// and suit the supported dev kits.
public struct UCIClientConfiguration: Sendable, Hashable {
    /// How long the UWBS may take to answer one command (AOSP: 2 s). Not retried on expiry: a
    /// timeout is reported naming the command.
    public var responseTimeout: Duration
    /// How many times a command is sent again when the UWBS answers COMMAND_RETRY (0x0A) or
    /// sends CORE_GENERIC_ERROR_NTF(COMMAND_RETRY) while it is outstanding. Default 2: the
    /// command goes out at most 3 times in all, as in uwb_core (`uci_manager.rs`: the retryer
    /// starts at `MAX_RETRY_COUNT` = 3 and the first send uses one).
    public var commandRetries: Int
    /// After SESSION_INIT / SET_APP_CONFIG / START / STOP succeeded, how long to wait for the
    /// SESSION_STATUS_NTF with the new state before asking with SESSION_GET_STATE.
    public var stateChangeTimeout: Duration
    /// After CORE_DEVICE_RESET, how long to wait for CORE_DEVICE_STATUS_NTF(READY) before going on
    /// (a UWBS that never sends it is logged, not refused).
    public var readyTimeout: Duration
    /// Pauses between reconnection attempts after the dev kit went away: the n-th failed attempt
    /// waits the n-th entry, the last entry repeats (bounded backoff). Must not be empty.
    public var reconnectDelays: [Duration]
    /// How long to keep trying to get the dev kit back; `nil` keeps trying until
    /// ``UCIClient/close(deinitializingSessions:)``.
    public var reconnectTimeout: Duration?
    /// How many resets in a row may fail (DEVICE_STATUS_NTF(ERROR) again, timeouts) before the
    /// client gives up and reports ``UCIClientEvent/recoveryFailed(_:)``.
    public var maximumConsecutiveRecoveries: Int
    /// Range samples buffered per session when its consumer falls behind; beyond it the oldest
    /// are dropped (and the drops logged).
    public var sampleBufferSize: Int
    /// Read CORE_GET_CAPS_INFO during ``UCIClient/open()``.
    public var readsCapabilities: Bool
    /// NXP SR1xx board configuration, sent when the UWBS reports NXP's hardware-init state
    /// (DEVICE_STATUS_NTF 0x00) at bring-up. Default ``NXPBoardConfiguration/nxpReference``.
    public var boardConfiguration: NXPBoardConfiguration
    /// How the UWBS encodes angles and RSSI in range data: FiRa's Q9.7 degrees (default), or
    /// google/pica's whole degrees with RSSI 0xFF (`UCIMeasurementDialect.pica`).
    public var measurementDialect: UCIMeasurementDialect

    /// Creates a configuration; every parameter has the default described on its property.
    public init(
        responseTimeout: Duration = .seconds(2), commandRetries: Int = 2, stateChangeTimeout: Duration = .seconds(2),
        readyTimeout: Duration = .seconds(1),
        reconnectDelays: [Duration] = [.milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)],
        reconnectTimeout: Duration? = nil, maximumConsecutiveRecoveries: Int = 3, sampleBufferSize: Int = 1024,
        readsCapabilities: Bool = true, measurementDialect: UCIMeasurementDialect = .fira,
        boardConfiguration: NXPBoardConfiguration = .nxpReference
    ) {
        self.responseTimeout = responseTimeout
        self.commandRetries = max(0, commandRetries)
        self.stateChangeTimeout = stateChangeTimeout
        self.readyTimeout = readyTimeout
        self.reconnectDelays = reconnectDelays.isEmpty ? [.seconds(1)] : reconnectDelays
        self.reconnectTimeout = reconnectTimeout
        self.maximumConsecutiveRecoveries = max(1, maximumConsecutiveRecoveries)
        self.sampleBufferSize = max(1, sampleBufferSize)
        self.readsCapabilities = readsCapabilities
        self.measurementDialect = measurementDialect
        self.boardConfiguration = boardConfiguration
    }

}
