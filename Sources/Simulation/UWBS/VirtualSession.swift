import UCI

/// The UWBS-side state of one session: lifecycle, configuration, counters and ranging schedule.
struct VirtualSession: Sendable {
    let id: UInt32
    /// The ID in UCI 1.1, the handle in 2.0.
    let token: UInt32
    let type: UCISessionType
    /// Creation order on the device (sessions are listed and scheduled in this order).
    let order: Int
    var state: UCISessionState = .initialized
    var configuration = VirtualSessionConfiguration()
    /// SESSION_INFO_NTF sequence number of the next round.
    var sequenceNumber: UInt32 = 0
    /// Rounds since the last SESSION_START.
    var rangingCount: UInt32 = 0
    /// Rounds in a row in which no peer answered.
    var consecutiveFailures = 0
    /// Schedule: round `k` (from 1) is due at `roundBase + k × interval`.
    var roundBase = 0.0
    var roundIndex = 0
    /// When the next round (controller) or reception check (controlee) is due; `nil` unless
    /// ACTIVE.
    var nextRoundTime: Double?
    /// Controlee: a controller's round reached this session since the last check.
    var servedSinceCheck = false
    /// Edge-triggered SESSION_INFO_NTF_CONFIG: whether the last round was inside the window.
    var lastTriggerInside = false

    var isController: Bool { configuration.deviceType == .controller }

    var interval: Double { Double(max(configuration.rangingInterval, 1)) / 1000 }

    /// Starts the schedule at `time` (SESSION_START, or a changed interval).
    mutating func startSchedule(at time: Double, delay: Double = 0) {
        roundBase = time + delay
        roundIndex = 0
        nextRoundTime = roundBase + interval
    }

    /// Moves the schedule past the round due now; a schedule more than a second behind `time`
    /// (a loaded machine) restarts from `time` instead of bursting.
    mutating func advanceSchedule(after time: Double) {
        roundIndex += 1
        var next = roundBase + Double(roundIndex + 1) * interval
        if next < time - 1 {
            startSchedule(at: time)
            next = nextRoundTime ?? time + interval
        }
        nextRoundTime = next
    }

    var snapshot: VirtualSessionSnapshot {
        VirtualSessionSnapshot(
            sessionID: id, token: token, type: type, state: state, configuration: configuration,
            rangingCount: rangingCount)
    }
}
