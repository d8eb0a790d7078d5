public import Foundation

/// Runs a program against an emulated UWB dev kit on USB (`Tests/Peers/umockdev/emulator.py`
/// under Debian's `/usr/bin/python3` with umockdev): the program's libusb sees the kit, its bulk
/// pipes are bridged to a UCI server over TCP. One emulator per test.
///
/// The program gets `NEARBY_EMULATOR_PID`: `kill(pid, SIGUSR1)` unplugs the kit, `SIGUSR2`
/// plugs it in again (new device address). The emulator logs every USB event on stderr as
/// `emulator: ...` lines.
public enum UMockdevEmulator {
    /// The emulated kits.
    public enum Kit: String, Sendable {
        /// Qorvo DWM3001CDK, CDC-ACM 1915:520f.
        case dwm3001cdk
        /// NXP SR150 EVK behind an FTDI FT230X, 0403:6015.
        case sr150
    }

    /// The emulator script.
    public static var script: URL { PackagePaths.file("Tests/Peers/umockdev/emulator.py") }

    /// Checks that umockdev and its Python bindings are installed.
    /// - Throws: ``MissingTool`` naming the Debian packages (`make test` installs them).
    public static func checkTools() throws {
        _ = try PackagePaths.systemPython()
        let libraries = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
        let fm = FileManager.default
        guard libraries.contains(where: { fm.fileExists(atPath: $0 + "/libumockdev-preload.so.0") }) else {
            throw MissingTool("umockdev is not installed (libumockdev-preload.so.0 not found); run `make test`, which installs umockdev gir1.2-umockdev-1.0 python3-gi")
        }
        guard libraries.contains(where: { fm.fileExists(atPath: $0 + "/girepository-1.0/UMockdev-1.0.typelib") }) else {
            throw MissingTool("umockdev's GObject bindings are not installed (UMockdev-1.0.typelib not found); run `make test`, which installs gir1.2-umockdev-1.0 python3-gi")
        }
    }

    /// Starts `command` under the emulator.
    /// - Parameters:
    ///   - uciPort: the UCI server on 127.0.0.1 the board is bridged to (`nil`: the board has
    ///     no UWBS and stays silent).
    ///   - environment: extra environment for the command.
    ///   - needsBoardConfiguration: the SR150 starts like NXP's firmware, refusing everything
    ///     until it gets its board configuration (`--board-config`).
    public static func start(kit: Kit = .dwm3001cdk, uciPort: Int?, command: [String],
                             environment: [String: String] = [:], needsBoardConfiguration: Bool = false) throws -> ChildProcess {
        try checkTools()
        var arguments = [script.path, "--kit", kit.rawValue]
        if needsBoardConfiguration { arguments.append("--board-config") }
        if let uciPort { arguments += ["--uci", "tcp:127.0.0.1:\(uciPort)"] }
        arguments += ["--"] + command
        return try ChildProcess(try PackagePaths.systemPython(), arguments, environment: environment)
    }

    /// Runs `command` under the emulator to completion.
    /// - Returns: the command's exit status, its stdout, and stderr (with the emulator's log).
    /// - Throws: ``MissingTool`` if umockdev is missing, or if the run exceeds `timeout`.
    public static func run(kit: Kit = .dwm3001cdk, uciPort: Int?, command: [String], environment: [String: String] = [:],
                           needsBoardConfiguration: Bool = false,
                           timeout: Duration = .seconds(120)) async throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try start(
            kit: kit, uciPort: uciPort, command: command, environment: environment, needsBoardConfiguration: needsBoardConfiguration)
        let status = try await child.waitForExit(timeout: timeout)
        if status == 3 && child.stderr.contains("GObject bindings are missing") {
            throw MissingTool(child.stderr)
        }
        return (status, child.stdout, child.stderr)
    }

    /// The `emulator: ...` lines of a run's stderr, without the prefix.
    public static func events(in stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in
            line.hasPrefix("emulator: ") ? String(line.dropFirst("emulator: ".count)) : nil
        }
    }
}
