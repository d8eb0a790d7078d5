import ArgumentParser
import LowEnergy
import NearbyConfig
import Simulation
import UWBDevice

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
    static let validators = TransportValidators(
        hci: { spec in
            do {
                _ = try HCITransportSpec(parsing: spec)
                return nil
            } catch {
                return "\(error)"
            }
        },
        uwb: { spec in
            do {
                _ = try UWBDeviceTarget(parsing: spec)
                return nil
            } catch {
                return "\(error)"
            }
        })

    /// Loads the file.
    /// - Returns: the configuration (empty when there is no file) and its path.
    /// - Throws: `ExitCode` 78 after printing every problem to standard error.
    func load() throws -> (configuration: NearbyConfiguration, path: String?) {
        do {
            return try ConfigurationFile.load(path: path, validators: Self.validators)
        } catch {
            UWBConsole.error("error: invalid configuration file:\n\(error)")
            throw NearbyExit.config
        }
    }
}
