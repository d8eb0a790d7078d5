#if canImport(Glibc)
import Glibc
#endif
import UCI
public import UWBDevice

/// Why a ``UWBRangeRun`` stopped before its sample count was reached.
public enum UWBRangeStop: Sendable, Hashable, CustomStringConvertible {
    /// A signal (SIGINT, SIGTERM) asked it to stop: not a failure.
    case signal(Int32)
    /// The session or the dev kit ended it: a failure, with the reason in words.
    case failed(String)

    /// The session events that end a run: the session could not be restored, or the UWBS
    /// deinitialized or stopped it on its own; `nil` for other events.
    public init?(_ event: UWBSessionEvent) {
        switch event {
        case .restoreFailed(let error): self = .failed("the session could not be restored: \(error.reason)")
        case .stateChanged(.deinitialized, let reason): self = .failed("the UWBS ended the session (\(reason))")
        case .stateChanged(.idle, let reason) where reason != .stateChangeWithSessionManagementCommands:
            self = .failed("the UWBS stopped the session (\(reason))")
        default: return nil
        }
    }

    /// `interrupted (SIGINT)`, `terminated (SIGTERM)` or the failure.
    public var description: String {
        switch self {
        case .signal(let number): number == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)"
        case .failed(let message): message
        }
    }
}
