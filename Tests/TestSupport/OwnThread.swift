import Foundation

/// Runs CPU-bound test work on a thread of its own and waits for it without holding a thread
/// of Swift's cooperative pool.
///
/// The pool has as many threads as the machine has cores (2 in CI). A synchronous test body,
/// or a long computation inside an async one, holds one of them until it returns: two such at
/// once stall every other test of the process (seen: a 25 s filter bench starved the simulated
/// worlds of the runtime tests for 23 s, which then timed out their accessories). Put any
/// computation longer than about a second behind this.
/// - Parameter body: the work; it runs once, on a new thread.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try body() })
        }
    }
}
