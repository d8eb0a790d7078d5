/// How one run of a hook ended: reported by ``HookRunner`` (logged and streamed).
public struct HookOutcome: Sendable, Hashable, CustomStringConvertible {
    /// How the command ended.
    public enum Status: Sendable, Hashable, CustomStringConvertible {
        /// It exited with this code.
        case exited(Int32)
        /// It was ended by this signal (15 = SIGTERM, 9 = SIGKILL).
        case signaled(Int32)
        /// It could not be started; the text says why and what to do.
        case failedToStart(String)

        /// `exit 0`, `signal 15 (SIGTERM)`, `failed to start: …`.
        public var description: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signaled(let signal): "signal \(signal)" + (Self.signalNames[signal].map { " (\($0))" } ?? "")
            case .failedToStart(let reason): "failed to start: \(reason)"
            }
        }

        static let signalNames: [Int32: String] = [
            1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 15: "SIGTERM",
        ]
    }

    /// The hook's index in the runner's hook list.
    public var hookIndex: Int
    /// The hook's name (``HookDefinition/name``).
    public var hookName: String
    /// The event the command ran for (the latest one, if events were coalesced).
    public var event: HookEvent
    /// How it ended.
    public var status: Status
    /// `true` if it was still running at its timeout and was sent SIGTERM (and SIGKILL after the
    /// grace period if it ignored SIGTERM).
    public var timedOut: Bool
    /// From start to exit, seconds (0 if it did not start).
    public var duration: Double
    /// How many events this run stands for because they arrived while the previous run of the
    /// same hook was still going (only the latest is passed to the command); 0 for a run started
    /// directly by its event.
    public var coalescedEvents: Int
    /// The last bytes of its standard output (at most the runner's tail limit, UTF-8, invalid
    /// sequences replaced); a leading `…` marks a cut.
    public var standardOutputTail: String
    /// The last bytes of its standard error, like ``standardOutputTail``.
    public var standardErrorTail: String

    /// Creates an outcome.
    public init(
        hookIndex: Int, hookName: String, event: HookEvent, status: Status, timedOut: Bool, duration: Double,
        coalescedEvents: Int, standardOutputTail: String, standardErrorTail: String
    ) {
        self.hookIndex = hookIndex
        self.hookName = hookName
        self.event = event
        self.status = status
        self.timedOut = timedOut
        self.duration = duration
        self.coalescedEvents = coalescedEvents
        self.standardOutputTail = standardOutputTail
        self.standardErrorTail = standardErrorTail
    }

    /// `true` if the command exited with 0 (and did not time out).
    public var succeeded: Bool { status == .exited(0) && !timedOut }

    /// One line for logs: `hook 'enter near' for enter near (accessory "tag"): exit 0 in 0.012 s`.
    public var description: String {
        var text = "hook '\(hookName)' for \(event): \(status)"
        if timedOut { text += " (timed out)" }
        if case .failedToStart = status {} else {
            text += " in \(HookEvent.fixed3(duration)) s"
        }
        if coalescedEvents > 0 { text += ", coalesced \(coalescedEvents) events" }
        return text
    }
}
