import ArgumentParser

/// The `nearby` command line: UWB nearby interaction on Linux.
@main
struct Nearby: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearby",
        abstract: "UWB nearby interaction on Linux: range with UWB accessories through a USB dev kit.",
        version: "0.1.0",
        subcommands: [
            RangeCommand.self, DemoCommand.self,
            ScanCommand.self, SetupCommand.self, AccessoriesCommand.self,
            ReplayCommand.self, BenchCommand.self,
            UWBCommand.self, UCIGroupCommand.self, SimCommand.self,
            WatchCommand.self, ConfigCommand.self, DoctorCommand.self,
        ]
    )
}
