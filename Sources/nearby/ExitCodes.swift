import ArgumentParser
import NearbyTerminal

/// The exit codes of `nearby` (README, "Logging and exit codes"). ArgumentParser already exits
/// 64 for usage errors and 1 for errors thrown by a command; these name the sysexits(3) codes
/// our commands use on top.
enum NearbyExit {
    /// 1: the command ran and failed (a hook failed, a check found a blocking problem).
    static let failure = ExitCode(1)
    /// 64: bad command line (EX_USAGE; ArgumentParser's `ValidationError`).
    static let usage = ExitCode(64)
    /// 69: a device or controller is absent (EX_UNAVAILABLE).
    static let unavailable = ExitCode(69)
    /// 77: no permission for a device (EX_NOPERM): install the udev rule / grant the capability.
    static let permission = ExitCode(77)
    /// 78: the configuration file is invalid (EX_CONFIG).
    static let config = ExitCode(78)

    /// Runs `body`; an error it throws is printed as `error: ...` on standard error and the
    /// command exits with `code` (default 1).
    static func onError<T>(_ code: ExitCode = failure, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            Console.error("error: \(error)")
            throw code
        }
    }
}
