/// The web view's settings: where it listens and its token, checked together.
public struct WebSettings: Sendable, Hashable {
    /// Where to listen.
    public var address: WebAddress
    /// The token every request must carry, `nil` for none (loopback only).
    public var token: String?
    /// Most server-sent-event streams at once (more get 503).
    public var maxStreams = 16
    /// Log entries (events) kept per stream while its browser falls behind; older ones are
    /// dropped and reported as a `gap`. Statuses are coalesced to the latest per accessory.
    public var streamQueueLimit = 256
    /// Log entries a new viewer gets (`/api/state`, the first `hello`).
    public var historyLimit = 200

    /// Checks the pair.
    /// - Throws: ``WebError`` `invalidToken` for a malformed token; `tokenRequired` for an
    ///   address other machines can reach without a token.
    public init(address: WebAddress, token: String?) throws(WebError) {
        if let token { try WebAccess.validate(token: token) }
        guard address.isLoopback || token != nil else {
            throw WebError(
                .tokenRequired,
                "--web \(address) lets other machines connect, so it needs a token: give one with --web-token, the NEARBY_WEB_TOKEN environment variable or [web] token in the configuration file (make one with `openssl rand -hex 16`), or listen on this machine only (--web PORT)"
            )
        }
        self.address = address
        self.token = token
    }
}
