public import ArgumentParser
public import NearbyConfig
import NearbyTerminal

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

    /// For commands without a configuration file: the level is `--log-level`, else `debug` with
    /// `verbose` (their `--verbose` flag), else `warning`. See ``bootstrap(output:)``.
    func bootstrap(verbose: Bool) {
        bootstrap(output: OutputSettings(logLevel: verbose ? .debug : nil))
    }

    /// Sends swift-log to standard error at the level in effect (flag > config > `warning`). Only the first call in a process
    /// configures logging (swift-log allows one bootstrap); later calls do nothing.
    /// - Parameter output: the config file's `[output]` (for `log_level` and `color`).
    func bootstrap(output: OutputSettings = OutputSettings()) {
        StderrLogHandler.bootstrap(level: logLevel, output: output)
    }
}
