/// Why the web view cannot start: a bad `--web` address or token, or a bind that failed.
public struct WebError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// `--web` is not `[ADDRESS:]PORT`.
        case invalidAddress
        /// A non-loopback address without a token.
        case tokenRequired
        /// The token is too short or has characters that cannot go in a URL.
        case invalidToken
        /// The address could not be bound (in use, not on this machine, no permission).
        case bindFailed
    }

    /// The kind of problem.
    public var code: Code
    /// What is wrong and what to do.
    public var description: String

    /// Creates an error.
    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
