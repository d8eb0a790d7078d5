/// `[web]`: the live web view (`--web`). The address is given on the command line only (a view
/// is served only when asked); the file can hold the token, so it stays off the command line
/// (where other users of the machine can read it).
public struct WebViewSettings: Sendable, Hashable {
    /// The token the page's address must carry (`token`); required to listen on an address other
    /// than loopback. Checked when used (16-256 URL-safe characters).
    public var token: String?

    /// Creates settings; `nil` = not set.
    public init(token: String? = nil) {
        self.token = token
    }

    /// These settings with every value set in `flags` replacing this one (flags win).
    public func overridden(by flags: WebViewSettings) -> WebViewSettings {
        WebViewSettings(token: flags.token ?? token)
    }
}
