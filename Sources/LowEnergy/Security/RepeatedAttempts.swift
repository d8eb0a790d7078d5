import Synchronization

/// Who failed to pair recently, per peer identity: the Repeated Attempts waiting interval of Vol 3
/// Part H 2.3.6. After a failed pairing the peer may not pair with this host again until the
/// interval has passed; every further failure doubles it (``PairingPolicy/waitingInterval(afterFailures:)``),
/// a successful pairing forgets it, and so does a peer that has not failed for
/// ``SecurityConfiguration/maximumWaitingInterval`` after its interval ended.
///
/// One per host, shared by all its connections (it is part of the ``SecurityContext``), so a peer
/// that reconnects does not start from zero. Keyed by identity address (a resolved private
/// address counts as its identity). Bounded: at most ``capacity`` peers (the oldest is dropped).
public final class RepeatedAttempts: Sendable {
    private struct Entry {
        var failures: Int
        var waitUntil: ContinuousClock.Instant
    }

    /// The most peers remembered.
    public static let capacity = 256
    private let entries = Mutex<[IdentityAddress: Entry]>([:])

    /// An empty record.
    public init() {}

    /// How long `peer` must still wait before it may pair, and after how many failures; `nil` if
    /// it may pair now.
    public func waiting(_ peer: IdentityAddress, policy: PairingPolicy,
                        now: ContinuousClock.Instant = .now) -> (remaining: Duration, failures: Int)? {
        entries.withLock { entries in
            guard let entry = Self.current(entries, peer, policy: policy, now: now), now < entry.waitUntil else { return nil }
            return (entry.waitUntil - now, entry.failures)
        }
    }

    /// The failed pairings in a row `peer` has on record.
    public func failures(of peer: IdentityAddress, policy: PairingPolicy, now: ContinuousClock.Instant = .now) -> Int {
        entries.withLock { Self.current($0, peer, policy: policy, now: now)?.failures ?? 0 }
    }

    /// A pairing with `peer` failed.
    /// - Returns: the waiting interval that starts now.
    @discardableResult
    public func failed(_ peer: IdentityAddress, policy: PairingPolicy, now: ContinuousClock.Instant = .now) -> Duration {
        entries.withLock { entries in
            let failures = (Self.current(entries, peer, policy: policy, now: now)?.failures ?? 0) + 1
            let interval = policy.waitingInterval(afterFailures: failures)
            if entries[peer] == nil, entries.count >= Self.capacity,
               let oldest = entries.min(by: { $0.value.waitUntil < $1.value.waitUntil })?.key {
                entries[oldest] = nil
            }
            entries[peer] = Entry(failures: failures, waitUntil: now + interval)
            return interval
        }
    }

    /// A pairing with `peer` completed: its record is cleared.
    public func succeeded(_ peer: IdentityAddress) {
        _ = entries.withLock { $0.removeValue(forKey: peer) }
    }

    /// The entry of `peer` unless it has expired (no failure for the maximum interval after its
    /// waiting interval ended).
    private static func current(_ entries: [IdentityAddress: Entry], _ peer: IdentityAddress, policy: PairingPolicy,
                                now: ContinuousClock.Instant) -> Entry? {
        guard let entry = entries[peer], now < entry.waitUntil + policy.configuration.maximumWaitingInterval else { return nil }
        return entry
    }
}
