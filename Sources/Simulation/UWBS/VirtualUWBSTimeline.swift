import NearbyBase
import UWBDevice

/// The time of a ``VirtualUWBSWorld``: world time (real or manual) and the scenario's clock.
/// Pure bookkeeping, apart from the devices and the scheduler that reads it.
struct VirtualUWBSTimeline: Sendable {
    /// How world time passes.
    let clock: SimulationClock
    /// When the scenario's clock starts.
    let scenarioStart: ScenarioStart
    private var manualTime = 0.0
    /// The real clock (`MonotonicTime`, the clock of range-sample timestamps) at world time 0.
    private let realStart = MonotonicTime.seconds()
    /// World time at which the scenario's clock is 0 (`nil` before it started).
    private var scenarioEpoch: Double?
    /// ``ScenarioStart/pairedSessions(_:maximumWait:)``: the sessions that ranged so far, and
    /// when the first did.
    private var pairedSessions: Set<String> = []
    private var firstPairing: Double?

    init(clock: SimulationClock, scenarioStart: ScenarioStart) {
        self.clock = clock
        self.scenarioStart = scenarioStart
    }

    /// World time, seconds since the world was created (or as far as the manual clock moved).
    var now: Double {
        switch clock {
        case .manual: manualTime
        case .realTime(let speed): (MonotonicTime.seconds() - realStart) * speed
        }
    }

    /// The real time (`MonotonicTime` seconds) at which world time `time` is (or was) with a
    /// real-time clock: when a round at `time` is due; `nil` with the manual clock, whose time
    /// is no real time.
    func monotonicTime(at time: Double) -> Double? {
        switch clock {
        case .manual: nil
        case .realTime(let speed): realStart + time / speed
        }
    }

    /// `true` for ``SimulationClock/manual``.
    var isManual: Bool {
        if case .manual = clock { true } else { false }
    }

    /// Manual clock: world time moves to `time` if that is later (a round due then runs).
    mutating func moveManualTime(to time: Double) {
        if isManual { manualTime = max(manualTime, time) }
    }

    /// Scenario time at world time `time`, `nil` before the scenario started.
    func scenarioTime(at time: Double) -> Double? {
        switch scenarioStart {
        case .worldCreation: time
        case .firstRanging, .pairedSessions: scenarioEpoch.map { time - $0 }
        }
    }

    /// Restarts the scenario: its clock is 0 now (with ``ScenarioStart/firstRanging``, at the
    /// next paired round).
    mutating func restartScenario() {
        scenarioEpoch = scenarioStart == .worldCreation ? now : nil
        pairedSessions = []
        firstPairing = nil
    }

    /// Scenario time of a paired round of `session` (any key naming the session, made only
    /// while the clock waits for sessions) at `time`, starting the scenario's clock when
    /// ``scenarioStart`` says so; 0 before.
    mutating func startScenarioIfNeeded(at time: Double, session: @autoclosure () -> String) -> Double {
        if scenarioEpoch == nil {
            switch scenarioStart {
            case .worldCreation: break
            case .firstRanging: scenarioEpoch = time
            case .pairedSessions(let count, let maximumWait):
                pairedSessions.insert(session())
                let first = firstPairing ?? time
                firstPairing = first
                if pairedSessions.count >= count || time - first >= maximumWait { scenarioEpoch = time }
            }
        }
        return scenarioTime(at: time) ?? 0
    }
}
