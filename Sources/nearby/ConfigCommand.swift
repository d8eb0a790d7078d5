import ArgumentParser
import Foundation
import NearbyConfig
import NearbySupport

/// `nearby config`: the configuration file.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check the configuration file, print an example, or show where it is read from.",
        subcommands: [ConfigCheckCommand.self, ConfigExampleCommand.self, ConfigPathCommand.self]
    )
}

/// `nearby config check [FILE]`: every problem with its line, or a summary.
struct ConfigCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a configuration file: every problem with its line and key (exit 1), or a summary (exit 0).",
        discussion: """
            Without FILE, checks the file nearby reads by default ($XDG_CONFIG_HOME/nearby/config.toml, \
            else ~/.config/nearby/config.toml). '-' reads standard input: \
            nearby config example | nearby config check -
            """)

    @Argument(help: ArgumentHelp("The file to check; '-' for standard input (default: the default file).", valueName: "file"))
    var file: String?

    func run() async throws {
        let source: String
        let configuration: NearbyConfiguration
        do {
            if file == "-" {
                source = "-"
                let bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
                configuration = try ConfigurationFile.parse(bytes: bytes, source: "<stdin>", validators: ConfigOptions.validators)
            } else {
                guard let path = file ?? ConfigurationFile.defaultPath() else {
                    UWBConsole.error("error: neither XDG_CONFIG_HOME nor HOME is set; name the file: nearby config check FILE")
                    throw NearbyExit.usage
                }
                let loaded = try ConfigurationFile.load(path: file, validators: ConfigOptions.validators)
                guard loaded.path != nil else {
                    print("no configuration file at \(path); every setting has its default")
                    print("create one with: mkdir -p \(AtomicFile.parentDirectory(of: path)) && nearby config example > \(path)")
                    return
                }
                source = path
                configuration = loaded.configuration
            }
        } catch let error as ConfigError {
            UWBConsole.error(error.description)
            UWBConsole.error("\(error.issues.count) problem\(error.issues.count == 1 ? "" : "s") in \(error.source)")
            throw NearbyExit.failure
        }
        print("\(source == "-" ? "<stdin>" : source): OK")
        print(configuration.summary)
    }
}

/// `nearby config example`: a commented example that passes `check`.
struct ConfigExampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "example",
        abstract: "Print a commented example configuration (every section and key).")

    func run() {
        print(ConfigurationFile.example, terminator: "")
    }
}

/// `nearby config path`: where the default file is.
struct ConfigPathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "path",
        abstract: "Print the path of the default configuration file (whether or not it exists).")

    func run() throws {
        guard let path = ConfigurationFile.defaultPath() else {
            UWBConsole.error("error: neither XDG_CONFIG_HOME nor HOME is set")
            throw NearbyExit.failure
        }
        print(path)
    }
}
