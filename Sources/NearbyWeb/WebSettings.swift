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

extension WebSettings {
    /// Where the token of ``resolve(listen:token:environment:configured:)`` came from.
    public enum TokenOrigin: String, Sendable, Hashable, CustomStringConvertible {
        /// The command line (`--web-token`).
        case flag = "--web-token"
        /// The `NEARBY_WEB_TOKEN` environment variable.
        case environment = "NEARBY_WEB_TOKEN"
        /// The configuration file's `[web] token`.
        case configuration = "configuration file, [web] token"

        /// How messages name the origin: `--web-token`, `NEARBY_WEB_TOKEN`, `configuration file, [web] token`.
        public var description: String { rawValue }
    }

    /// The settings for `listen` (`[ADDRESS:]PORT`, as `--web`) with the token from the first
    /// of `token` (the command line), `environment["NEARBY_WEB_TOKEN"]` (empty counts as unset)
    /// and `configured` (the configuration file's `[web] token`).
    /// - Throws: ``WebError``: `invalidAddress` for `listen`; `invalidToken` with the message
    ///   starting with the token's ``TokenOrigin`` (`NEARBY_WEB_TOKEN: ...`), so the user knows
    ///   which one to fix; `tokenRequired` for an address other machines reach without a token.
    public static func resolve(listen: String, token: String?, environment: [String: String], configured: String?) throws(WebError) -> WebSettings {
        let fromEnvironment = environment["NEARBY_WEB_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let (token, origin): (String?, TokenOrigin) =
            if let token { (token, .flag) } else if let fromEnvironment { (fromEnvironment, .environment) } else { (configured, .configuration) }
        do {
            return try WebSettings(address: WebAddress(parsing: listen), token: token)
        } catch where error.code == .invalidToken {
            throw WebError(.invalidToken, "\(origin): \(error)")
        }
    }
}
