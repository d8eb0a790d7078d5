import NearbyBase

/// How an ``AccessorySession`` recovers when ranging stops (Apple's accessory guidance,
/// specs/reference/ni-accessory-protocol.md §6): how often to try again, and how long to wait
/// between tries (exponential backoff). When ranging has stopped is decided in one place: the
/// ranging pipeline's `lost` (``AccessorySessionConfiguration/lostAfter`` without a usable
/// sample, on the samples' clock).
///
/// A *recovery* starts at the first problem after ranging worked (or at the first failed
/// start) and ends at the next valid range sample. Every try in it counts against
/// ``maxAttempts``, whatever it is: a restart with the cached configuration, a fresh start
/// (stop, initialize, new configuration) or a reconnection of the data channel. Try `n` (1-based)
/// waits ``backoff(beforeAttempt:)`` first: `initialBackoff × multiplier^(n-1)`, at most
/// `maxBackoff`.
public struct RetryPolicy: Sendable, Hashable {
    /// Tries per recovery before giving up (≥ 0; 0 gives up at the first problem). Default 5.
    public var maxAttempts: Int
    /// Wait before the first try. Default 0.25 s.
    public var initialBackoff: Duration
    /// Longest wait between tries. Default 8 s.
    public var maxBackoff: Duration
    /// Growth of the wait from one try to the next (≥ 1). Default 2.
    public var multiplier: Double

    /// Creates a policy; every parameter has the default documented on its property.
    public init(
        maxAttempts: Int = 5, initialBackoff: Duration = .milliseconds(250), maxBackoff: Duration = .seconds(8),
        multiplier: Double = 2
    ) {
        self.maxAttempts = maxAttempts
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.multiplier = multiplier
    }

    /// The default policy.
    public static let `default` = RetryPolicy()

    /// `true` if try `attempt` (1-based) is allowed: `1 ≤ attempt ≤ maxAttempts`.
    public func allows(attempt: Int) -> Bool {
        attempt >= 1 && attempt <= maxAttempts
    }

    /// The wait before try `attempt` (1-based; values below 1 count as 1):
    /// `initialBackoff × multiplier^(attempt-1)`, capped at `maxBackoff`.
    public func backoff(beforeAttempt attempt: Int) -> Duration {
        let initial = initialBackoff.inSeconds
        guard initial > 0 else { return .zero }
        let growth = Self.power(multiplier, max(0, attempt - 1))
        guard growth.isFinite, initial * growth < maxBackoff.inSeconds else { return maxBackoff }
        return .nanoseconds(Int64((initial * growth * 1e9).rounded()))
    }

    /// Every wait of a recovery that uses all its tries, in order (for logs and documentation).
    public var schedule: [Duration] { (0..<max(0, maxAttempts)).map { backoff(beforeAttempt: $0 + 1) } }

    /// Checks the values.
    /// - Throws: ``RetryPolicyError`` naming the field: `maxAttempts` < 0, a negative backoff,
    ///   `maxBackoff` < `initialBackoff`, `multiplier` < 1 or not finite.
    public func validate() throws(RetryPolicyError) {
        if maxAttempts < 0 { throw RetryPolicyError(field: "maxAttempts", problem: "is \(maxAttempts), must be ≥ 0") }
        if initialBackoff < .zero {
            throw RetryPolicyError(field: "initialBackoff", problem: "is \(initialBackoff), must be ≥ 0")
        }
        if maxBackoff < initialBackoff {
            throw RetryPolicyError(field: "maxBackoff", problem: "is \(maxBackoff), must be ≥ initialBackoff (\(initialBackoff))")
        }
        if !(multiplier >= 1) || !multiplier.isFinite {
            throw RetryPolicyError(field: "multiplier", problem: "is \(multiplier), must be a finite number ≥ 1")
        }
    }

    /// `base^exponent` for a whole exponent ≥ 0 (repeated squaring; no C library needed).
    static func power(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        var factor = base
        var n = exponent
        while n > 0 {
            if n & 1 == 1 { result *= factor }
            factor *= factor
            n >>= 1
        }
        return result
    }
}

/// A ``RetryPolicy`` value out of range.
public struct RetryPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field, e.g. `multiplier`.
    public var field: String
    /// What is wrong with it.
    public var problem: String

    /// Creates an error.
    public init(field: String, problem: String) {
        self.field = field
        self.problem = problem
    }

    /// `retry policy: multiplier is 0.5, must be a finite number ≥ 1`.
    public var description: String { "retry policy: \(field) \(problem)" }
}
