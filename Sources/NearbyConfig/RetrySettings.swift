/// `[retry]`: how a ranging session is restarted after a timeout or a lost connection. Plain
/// values; the session layer builds its retry policy from them (unset = its defaults).
public struct RetrySettings: Sendable, Hashable {
    /// Restarts before giving up, ≥ 0 (`max_attempts`; 0 = never restart).
    public var maxAttempts: Int?
    /// Seconds before the first restart, > 0 (`initial_backoff`); doubles per attempt.
    public var initialBackoff: Double?
    /// Upper bound of the backoff, seconds, ≥ `initial_backoff` (`max_backoff`).
    public var maxBackoff: Double?
    /// Seconds without a range notification before a session counts as timed out, > 0
    /// (`ranging_timeout`).
    public var rangingTimeout: Double?

    /// Creates settings; `nil` = not set.
    public init(maxAttempts: Int? = nil, initialBackoff: Double? = nil, maxBackoff: Double? = nil, rangingTimeout: Double? = nil) {
        self.maxAttempts = maxAttempts
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.rangingTimeout = rangingTimeout
    }

    /// These settings with every value set in `flags` replacing this one (flags win).
    public func overridden(by flags: RetrySettings) -> RetrySettings {
        RetrySettings(
            maxAttempts: flags.maxAttempts ?? maxAttempts, initialBackoff: flags.initialBackoff ?? initialBackoff,
            maxBackoff: flags.maxBackoff ?? maxBackoff, rangingTimeout: flags.rangingTimeout ?? rangingTimeout)
    }
}
