import ArgumentParser
import Foundation
import NearbyConfig
import NearbyTerminal

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
        let check = ConfigurationCheck(file: file, validators: ConfigOptions.validators) { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
        switch check {
        case .valid, .absent: for line in check.lines { print(line) }
        case .invalid:
            for line in check.lines { Console.error(line) }
            throw NearbyExit.failure
        case .noDefaultLocation:
            Console.error("error: neither XDG_CONFIG_HOME nor HOME is set; name the file: nearby config check FILE")
            throw NearbyExit.usage
        }
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
            Console.error("error: neither XDG_CONFIG_HOME nor HOME is set")
            throw NearbyExit.failure
        }
        print(path)
    }
}
