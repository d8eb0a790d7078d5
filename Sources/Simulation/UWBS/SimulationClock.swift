/// How time passes in a ``VirtualUWBSWorld``.
///
/// World time is in seconds since the world was created. Ranging rounds, SESSION_INFO_NTF
/// timestamps in the truth events and the scenario's motion all follow it.
public enum SimulationClock: Sendable, Hashable, CustomStringConvertible {
    /// World time follows the wall clock, `speed` simulated seconds per real second (1 for the
    /// CLI; 10 runs a 60 s scenario in 6 s). `speed` must be in 0.01 ... 1000.
    case realTime(speed: Double = 1)
    /// World time stands still until ``VirtualUWBSWorld/advance(by:)`` moves it: every round
    /// due in that span runs, in order, before the call returns. For deterministic tests.
    case manual

    /// The default: real time at speed 1.
    public static let realTime = SimulationClock.realTime(speed: 1)

    /// `"real time"`, `"real time × 10"`, `"manual"`.
    public var description: String {
        switch self {
        case .realTime(let speed): speed == 1 ? "real time" : "real time × \(speed)"
        case .manual: "manual"
        }
    }
}

/// When the scenario's clock (time 0 of every trajectory) starts.
public enum ScenarioStart: Sendable, Hashable {
    /// At the first ranging round in which two sessions are paired: a server started long
    /// before the host connects still shows the whole scenario (the default).
    case firstRanging
    /// When the world is created.
    case worldCreation
    /// When `sessions` distinct sessions have ranged with a peer, or `maximumWait` seconds of
    /// world time after the first one did, whichever comes first: a demo with N accessories
    /// whose NI setups end at different times (a busy machine) shows each of them the whole
    /// scenario; the wait bounds the time an accessory that never ranges holds the others.
    case pairedSessions(Int, maximumWait: Double)
}
