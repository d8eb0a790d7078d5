import Synchronization

/// A one-shot reply slot: one task waits for a value that another party delivers later.
///
/// This is the building block for "send a request, wait for its reply with a deadline" (a UCI
/// command and its response, an HCI command and its Command Complete, an ATT request). Unlike
/// racing a body against a sleep in a task group, waiting on a `Promise` returns as soon as the
/// deadline passes even if the other side never answers, and it honours task cancellation.
///
/// The first of ``fulfill(_:)``, ``fail(_:)``, the deadline or cancellation wins; later ones are
/// ignored (and report `false`).
public final class Promise<Value: Sendable>: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<Value, any Error>)
        case done(Result<Value, any Error>)
    }

    private let state = Mutex<State>(.pending)

    /// Creates an unfulfilled promise.
    public init() {}

    /// Delivers the value. Returns `false` if the promise was already settled.
    @discardableResult
    public func fulfill(_ value: Value) -> Bool { settle(.success(value)) }

    /// Delivers an error. Returns `false` if the promise was already settled.
    @discardableResult
    public func fail(_ error: any Error) -> Bool { settle(.failure(error)) }

    /// `true` once a value, an error, a timeout or a cancellation settled the promise.
    public var isSettled: Bool {
        state.withLock { if case .done = $0 { return true } else { return false } }
    }

    private enum Settlement {
        case alreadySettled
        case settled
        case resume(CheckedContinuation<Value, any Error>)
    }

    @discardableResult
    private func settle(_ result: Result<Value, any Error>) -> Bool {
        let action: Settlement = state.withLock { state in
            switch state {
            case .pending:
                state = .done(result)
                return .settled
            case .waiting(let continuation):
                state = .done(result)
                return .resume(continuation)
            case .done:
                return .alreadySettled
            }
        }
        switch action {
        case .alreadySettled:
            return false
        case .settled:
            return true
        case .resume(let continuation):
            continuation.resume(with: result)
            return true
        }
    }

    /// Waits for the value.
    ///
    /// - Parameters:
    ///   - timeout: give up after this long; `nil` waits forever.
    ///   - operation: named in the ``TimeoutError`` so a user knows what did not answer.
    /// - Throws: ``TimeoutError`` after `timeout`, `CancellationError` if the waiting task is
    ///   cancelled, or the error passed to ``fail(_:)``.
    public func value(timeout: Duration? = nil, operation: String = "operation") async throws -> Value {
        let timer: Task<Void, Never>? = timeout.map { duration in
            Task { [weak self] in
                try? await Task.sleep(for: duration)
                if !Task.isCancelled {
                    self?.fail(TimeoutError(operation: operation, timeout: duration))
                }
            }
        }
        defer { timer?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let ready: Result<Value, any Error>? = state.withLock { state in
                    switch state {
                    case .pending:
                        state = .waiting(continuation)
                        return nil
                    case .done(let result):
                        return result
                    case .waiting:
                        return .failure(PromiseMisuse())
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            self.fail(CancellationError())
        }
    }
}

/// Thrown by ``Promise/value(timeout:operation:)`` when a second task waits on the same promise.
struct PromiseMisuse: Error, CustomStringConvertible {
    var description: String { "internal error: two tasks waited on the same reply" }
}
