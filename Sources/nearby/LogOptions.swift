public import ArgumentParser
import Logging
public import NearbyConfig
import Synchronization

extension LogLevelName: ExpressibleByArgument {}

/// `--log-level`: where swift-log goes in the CLI. Add it to a command with
/// `@OptionGroup var logging: LogOptions` and call ``bootstrap(output:)`` first thing in `run()`.
///
/// Logs go to standard error, one line each (`12:00:00.123 warning nearby.hooks: message key=value`),
/// coloured by level only when standard error is a terminal, `NO_COLOR` is unset and the
/// configured colour mode allows it. The level comes from `--log-level`, else the config file's
/// `output.log_level`, else `warning`.
struct LogOptions: ParsableArguments {
    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "Log level on standard error: \(LogLevelName.allCases.map(\.rawValue).joined(separator: ", ")) (default: warning, or the config file's output.log_level).",
            valueName: "level"))
    var logLevel: LogLevelName?

    private static let bootstrapped = Mutex(false)

    /// The level in effect: flag > config > `warning`.
    func level(output: OutputSettings = OutputSettings()) -> Logger.Level {
        let name = Precedence.resolve(flag: logLevel, config: output.logLevel, default: .warning)
        return Logger.Level(rawValue: name.rawValue) ?? .warning
    }

    /// For commands without a configuration file: the level is `--log-level`, else `debug` with
    /// `verbose` (their `--verbose` flag), else `warning`. See ``bootstrap(output:)``.
    func bootstrap(verbose: Bool) {
        bootstrap(output: OutputSettings(logLevel: verbose ? .debug : nil))
    }

    /// Sends swift-log to standard error at the level in effect. Only the first call in a process
    /// configures logging (swift-log allows one bootstrap); later calls do nothing.
    /// - Parameter output: the config file's `[output]` (for `log_level` and `color`).
    func bootstrap(output: OutputSettings = OutputSettings()) {
        let first = Self.bootstrapped.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        let level = level(output: output)
        let colored = StderrLogHandler.shouldColor(mode: output.color ?? .auto)
        LoggingSystem.bootstrap { label in
            var handler = StderrLogHandler(label: label, colored: colored)
            handler.logLevel = level
            return handler
        }
    }
}
