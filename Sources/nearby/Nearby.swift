import ArgumentParser
import Foundation
import Hooks
import NearbyTerminal
import Synchronization

/// The `nearby` command line: UWB nearby interaction on Linux.
@main
struct Nearby: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearby",
        abstract: "UWB nearby interaction on Linux: range with UWB accessories through a USB dev kit.",
        // "0.1.0 (commit 8d203d6a1b2c)": BuildInfo is generated before each build (VERSION, git).
        version: "\(BuildInfo.version) (commit \(BuildInfo.commit))",
        subcommands: [
            RangeCommand.self, AccessoryRoleCommand.self, DemoCommand.self,
            ScanCommand.self, SetupCommand.self, AccessoriesCommand.self,
            ReplayCommand.self, BenchCommand.self,
            UWBCommand.self, UCIGroupCommand.self, SimCommand.self,
            WatchCommand.self, HouseCommand.self, ConfigCommand.self, DoctorCommand.self,
        ]
    )

    /// Parses and runs, with the hook command split off first: every command reads what follows
    /// `--` the same way, from ``HookCommandLine/command``.
    static func main() async {
        // A file-size limit (`ulimit -f`) makes a write fail with EFBIG instead of killing the
        // process: a capture or a trace that cannot grow is reported, ranging goes on.
        signal(SIGXFSZ, SIG_IGN)
        // A reader of standard output that goes away is an EPIPE, not a kill: `Console` stops
        // the run as SIGTERM does (hooks get default dispositions back: swift-subprocess resets them).
        signal(SIGPIPE, SIG_IGN)
        let (options, command) = HookTriggers.splitCommand(Array(CommandLine.arguments.dropFirst()))
        HookCommandLine.command = command
        do {
            var parsed = try parseAsRoot(options)
            if var command = parsed as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try parsed.run()
            }
        } catch {
            // A library's TerminalExit was already told to the user: only its status is left.
            exit(withError: (error as? TerminalExit).map { ExitCode($0.status) } ?? error)
        }
    }
}

/// The hook command: the argv that follows the first `--` of the command line (`nearby range tag
/// --on-enter near -- /usr/bin/logger -t nearby near`). Split off before the flags are parsed,
/// so `range` (whose accessories are a positional list), `demo` and `replay` read it the same way.
enum HookCommandLine {
    private static let stored = Mutex<[String]>([])

    /// The hook command of this process (empty when there is no `--`).
    static var command: [String] {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
