public import Foundation

/// Wireshark's command-line dissector (Debian `tshark`, installed by `make deps`): tests open
/// the captures nearby writes (`--uci-log`, `--hci-log`) with it.
public enum Tshark {
    /// The executable.
    /// - Throws: ``MissingTool`` when tshark is not installed.
    public static func executable() throws -> URL {
        for path in ["/usr/bin/tshark", "/usr/local/bin/tshark"] where FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        throw MissingTool("tshark is not installed; run `make deps` (Debian package tshark)")
    }

    /// Runs `tshark -r file` with `arguments` and returns its standard output.
    /// - Throws: ``MissingTool``; ``ChildProcessError`` if tshark fails (its standard error).
    public static func read(_ file: String, _ arguments: [String]) async throws -> String {
        let result = try await ChildProcess.run(try executable(), ["-r", file] + arguments)
        guard result.status == 0 else {
            throw ChildProcessError("tshark -r \(file) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }

    /// One row per frame of `tshark -T fields -e ...` (tab-separated values, in `fields` order).
    public static func fields(_ file: String, _ fields: [String], filter: String? = nil) async throws -> [[String]] {
        var arguments = ["-T", "fields", "-E", "occurrence=a", "-E", "aggregator=,"]
        for field in fields { arguments += ["-e", field] }
        if let filter { arguments += ["-Y", filter] }
        return try await read(file, arguments).split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// `true` if this tshark dissects `protocolName` (`uci` needs Wireshark 4.2 or later).
    public static func knows(_ protocolName: String) async throws -> Bool {
        let result = try await ChildProcess.run(try executable(), ["-G", "protocols"])
        return result.stdout.split(separator: "\n").contains { $0.split(separator: "\t").dropFirst(2).first == Substring(protocolName) }
    }
}
