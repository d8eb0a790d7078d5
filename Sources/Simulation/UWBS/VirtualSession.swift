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
    var configuration = VirtualSessionConfiguration() {
        didSet {
            isController = configuration.deviceType == .controller
            interval = Self.interval(of: configuration)
        }
    }
    /// SESSION_INFO_NTF sequence number of the next round.
    var sequenceNumber: UInt32 = 0
    /// Rounds since the last SESSION_START.
    var rangingCount: UInt32 = 0
    /// Rounds in a row in which no peer answered.
    var consecutiveFailures = 0
    /// Schedule: round `k` (from 1) is due at `roundBase + k × interval` (+ its hop, see
    /// ``hopOffset(block:)``).
    var roundBase = 0.0
    var roundIndex = 0
    /// When the next round (controller) or reception check (controlee) is due; `nil` unless
    /// ACTIVE.
    var nextRoundTime: Double?
    /// Controlee: a controller's round reached this session since the last check.
    var servedSinceCheck = false
    /// When the session's last round ran (sessions due at once take turns: the least recent first).
    var lastRoundTime = -Double.infinity
    /// Edge-triggered SESSION_INFO_NTF_CONFIG: whether the last round was inside the window.
    var lastTriggerInside = false

    /// DEVICE_TYPE is controller. Stored, kept with ``configuration`` by its `didSet` (never set
    /// it otherwise): the scheduler reads it for every session at every step, and a computed
    /// property copied the whole session to read it.
    var isController = false

    /// The ranging interval, seconds (RANGING_DURATION, at least 1 ms). Stored and kept with
    /// ``configuration`` as ``isController`` is.
    var interval = Self.interval(of: VirtualSessionConfiguration())

    private static func interval(of configuration: VirtualSessionConfiguration) -> Double {
        Double(max(configuration.rangingInterval, 1)) / 1000
    }

    /// Where a controller's round `block` sits in its block, seconds from the block's start:
    /// 0 without hopping; with HOPPING_MODE, one of the block's ``VirtualSessionConfiguration/roundsPerBlock``
    /// round positions, chosen per block from the session ID as FiRa's hopping sequence is
    /// (a seeded hash here, the same for both sides).
    func hopOffset(block: Int) -> Double {
        guard isController, configuration.hoppingMode != 0 else { return 0 }
        let rounds = configuration.roundsPerBlock
        guard rounds > 1 else { return 0 }
        return Double(Self.hopIndex(sessionID: id, block: block, rounds: rounds)) * configuration.roundDuration
    }

    /// The hopped round position of `block` (SplitMix64 of the session ID and the block).
    static func hopIndex(sessionID: UInt32, block: Int, rounds: Int) -> Int {
        var z = UInt64(sessionID) << 32 ^ UInt64(truncatingIfNeeded: block) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(rounds))
    }

    /// Starts the schedule at `time` (SESSION_START, or a changed interval).
    mutating func startSchedule(at time: Double, delay: Double = 0) {
        roundBase = time + delay
        roundIndex = 0
        nextRoundTime = roundBase + interval + hopOffset(block: 1)
    }

    /// Moves the schedule past the round due now; a schedule more than a second behind `time`
    /// (a loaded machine) restarts from `time` instead of bursting.
    mutating func advanceSchedule(after time: Double) {
        roundIndex += 1
        var next = roundBase + Double(roundIndex + 1) * interval + hopOffset(block: roundIndex + 1)
        if next < time - 1 {
            startSchedule(at: time)
            next = nextRoundTime ?? time + interval
        }
        nextRoundTime = next
    }

    /// The round due now waits until `time` (the device's radio is busy until then): this and
    /// every later round move by the same amount, so the session keeps its new place.
    mutating func deferRound(to time: Double) {
        guard let due = nextRoundTime, time > due else { return }
        roundBase += time - due
        nextRoundTime = time
    }

    /// Controlee with hopping: a controller's round of the block starting at `blockStart`
    /// reached the session; its next check is at the end of the following block, so a
    /// round anywhere in that block counts.
    mutating func served(blockStart: Double) {
        servedSinceCheck = true
        guard configuration.hoppingMode != 0 else { return }
        nextRoundTime = blockStart + 2 * interval + 1e-6
    }

    var snapshot: VirtualSessionSnapshot {
        VirtualSessionSnapshot(
            sessionID: id, token: token, type: type, state: state, configuration: configuration,
            rangingCount: rangingCount)
    }
}
