import ArgumentParser
import NearbyConfig
import NearbyRuntime
import NearbyTerminal

/// `--config FILE`: the configuration file for any command: add
/// `@OptionGroup var configOptions: ConfigOptions` and call ``load()``. Without the flag the
/// default file (`$XDG_CONFIG_HOME/nearby/config.toml`, else `~/.config/nearby/config.toml`) is
/// read if it exists.
struct ConfigOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "Configuration file (default: $XDG_CONFIG_HOME/nearby/config.toml or ~/.config/nearby/config.toml, if present).",
            valueName: "file"))
    var path: String?

    /// The transport validators of the CLI: the real spec parsers.
    static let validators = TransportValidators.specs

    /// Loads the file.
    /// - Returns: the configuration (empty when there is no file) and its path.
    /// - Throws: `ExitCode` 78 after printing every problem to standard error.
    func load() throws -> (configuration: NearbyConfiguration, path: String?) {
        do {
            return try ConfigurationFile.load(path: path, validators: Self.validators)
        } catch {
            Console.error("error: invalid configuration file:\n\(error)")
            throw NearbyExit.config
        }
    }
}
