import NearbyBase

/// An operation did not finish within its deadline.
public struct TimeoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being waited for, in words a user understands ("UCI CORE_GET_DEVICE_INFO response").
    public var operation: String
    /// The deadline that passed.
    public var timeout: Duration

    /// Creates a timeout error.
    public init(operation: String, timeout: Duration) {
        self.operation = operation
        self.timeout = timeout
    }

    public var description: String {
        "\(operation) timed out after \(timeout.compactText)"
    }
}

/// Runs `body` and throws ``TimeoutError`` if it has not finished after `timeout`.
///
/// The body is cancelled at the deadline. It must react to cancellation (all of Swift's
/// `Task.sleep`, `AsyncStream` iteration and ``Promise`` do); a body that ignores cancellation
/// delays the timeout until it returns. To wait for a reply from a peer, prefer ``Promise``.
public func withTimeout<T: Sendable>(
    _ timeout: Duration,
    operation: String,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw TimeoutError(operation: operation, timeout: timeout)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw CancellationError() }
        return first
    }
}
