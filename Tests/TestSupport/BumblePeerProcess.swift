import Foundation

/// A Bumble BLE test peer (`Tests/Peers/ble_peer.py`) on a free TCP port, for test targets
/// that do not link LowEnergy's test helpers (Accessories, the CLI): controller C0 for the
/// host under test on `tcp:127.0.0.1:PORT`, plus advertising accessories.
public final class BumblePeerProcess: Sendable {
    /// The peer process (its stdout has one line per event: READY, CONNECTED, ...).
    public let process: ChildProcess
    /// C0's TCP port.
    public let port: Int

    /// `tcp:127.0.0.1:PORT`, for `--hci`.
    public var hciSpec: String { "tcp:127.0.0.1:\(port)" }

    /// Starts a peer with `arguments` (see `ble_peer.py --help`) and waits for READY.
    /// - Throws: ``MissingTool`` without the venv; the peer's output if it fails to start.
    public init(_ arguments: [String] = []) async throws {
        let python = try PackagePaths.venvPython()
        let port = try freeTCPPort()
        let process = try ChildProcess(python, [PackagePaths.file("Tests/Peers/ble_peer.py").path, "--port", "\(port)"] + arguments,
                                       environment: ["PYTHONUNBUFFERED": "1"])
        do {
            try await process.waitForOutput("READY", timeout: .seconds(60))
        } catch {
            if process.stderr.contains("No module named 'bumble'") {
                throw MissingTool("Bumble is not installed in the test venv; run `make test` (it runs `make venv`)")
            }
            throw error
        }
        self.process = process
        self.port = port
    }

    /// Lines the peer printed that start with `prefix`.
    public func lines(_ prefix: String) -> [String] {
        process.lines(startingWith: prefix)
    }

    /// Stops the peer.
    public func stop() { process.terminate() }
}
