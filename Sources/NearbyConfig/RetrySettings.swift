/// `[retry]`: how a ranging session is restarted after the accessory was lost or the connection. Plain
/// values; the session layer builds its retry policy from them (unset = its defaults).
public struct RetrySettings: Sendable, Hashable {
    /// Restarts before giving up, ≥ 0 (`max_attempts`; 0 = never restart).
    public var maxAttempts: Int?
    /// Seconds before the first restart, > 0 (`initial_backoff`); doubles per attempt.
    public var initialBackoff: Double?
    /// Upper bound of the backoff, seconds, ≥ `initial_backoff` (`max_backoff`).
    public var maxBackoff: Double?

    /// Creates settings; `nil` = not set. (When a session restarts is decided by `lost`:
    /// `[zones] lost_after`.)
    public init(maxAttempts: Int? = nil, initialBackoff: Double? = nil, maxBackoff: Double? = nil) {
        self.maxAttempts = maxAttempts
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
    }

    /// These settings with every value set in `flags` replacing this one (flags win).
    public func overridden(by flags: RetrySettings) -> RetrySettings {
        RetrySettings(
            maxAttempts: flags.maxAttempts ?? maxAttempts, initialBackoff: flags.initialBackoff ?? initialBackoff,
            maxBackoff: flags.maxBackoff ?? maxBackoff)
    }
}
