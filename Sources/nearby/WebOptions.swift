import ArgumentParser
import Foundation
import NearbyConfig
import NearbyTerminal
import NearbyWeb

/// `--web [ADDRESS:]PORT` and `--web-token`: the live web view of `range`, `demo`, `replay`,
/// `accessory` and `watch` (specs/web.md). The token comes from `--web-token`, else
/// `NEARBY_WEB_TOKEN`, else the configuration file's `[web] token`.
struct WebOptions: ParsableArguments {
    @Option(
        name: .customLong("web"),
        help: ArgumentHelp(
            "Serve a live web view (radar, status, events) on [ADDRESS:]PORT; PORT alone listens on 127.0.0.1 only, port 0 takes a free one.",
            valueName: "[address:]port"))
    var listen: String?

    @Option(
        name: .customLong("web-token"),
        help: ArgumentHelp(
            "The token the web view's address must carry (?token=...); needed for an address other than loopback (default: NEARBY_WEB_TOKEN, else [web] token).",
            valueName: "token"))
    var token: String?

    func validate() throws {
        if let listen {
            do {
                _ = try WebAddress(parsing: listen)
            } catch {
                throw ValidationError("--web: \(error)")
            }
        }
        if token != nil, listen == nil { throw ValidationError("--web-token needs --web [ADDRESS:]PORT") }
        if let token {
            do {
                try WebAccess.validate(token: token)
            } catch {
                throw ValidationError("--web-token: \(error)")
            }
        }
    }

    /// Starts the view if `--web` was given (before any device opens, so a bind problem shows first).
    /// - Parameters:
    ///   - source: the command (`range`, `demo`, `replay`, `accessory`, `watch`).
    ///   - configuration: the effective configuration (its `[web] token`).
    /// - Throws: `ValidationError` for a missing or bad token, `ExitCode` 69 when the address
    ///   cannot be bound (after saying why).
    func start(source: String, configuration: NearbyConfiguration) async throws -> WebView? {
        guard let listen else { return nil }
        let settings: WebSettings
        do {
            settings = try WebSettings.resolve(
                listen: listen, token: token, environment: ProcessInfo.processInfo.environment, configured: configuration.web.token)
        } catch {
            throw ValidationError("\(error)")
        }
        do {
            return try await WebView.start(settings, source: source)
        } catch {
            Console.error("error: --web: \(error)")
            throw NearbyExit.unavailable
        }
    }
}
