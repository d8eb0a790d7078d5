import Foundation

/// The Bumble NI accessory peer: `Tests/Peers/ble_peer.py` with the
/// `blepeer.ni_accessory:NIAccessoryBehaviour` behaviour, an advertising accessory
/// (`F0:F1:F2:F3:F4:F5`, Nordic UART) that speaks the NI accessory protocol over GATT and ranges
/// through a virtual UWBS over TCP. Its controller C0 listens for our host on an H4 TCP port.
public enum NIAccessoryPeer {
    /// The accessory's BLE address.
    public static let address = "F0:F1:F2:F3:F4:F5"

    /// Starts the peer and waits for its READY line.
    /// - Parameters:
    ///   - uwbs: the virtual UWBS it ranges through, `HOST:PORT`.
    ///   - environment: more `NEARBY_NI_*` settings (`NEARBY_NI_MAC`, `NEARBY_NI_ROLE`).
    /// - Returns: the process and the TCP port of its HCI controller (`tcp:127.0.0.1:PORT`).
    /// - Throws: ``MissingTool`` without the test venv; the peer's output if it does not start.
    ///   - arguments: more `ble_peer.py` arguments (`--accessories 4`: four accessories, addresses
    ///     and UWB addresses counting up).
    public static func start(uwbs: String, environment: [String: String] = [:], arguments: [String] = []) async throws -> (process: ChildProcess, hciPort: Int) {
        let python = try PackagePaths.venvPython()
        let port = try freeTCPPort()
        var env = ["PYTHONUNBUFFERED": "1", "NEARBY_NI_UWBS": uwbs]
        for (key, value) in environment { env[key] = value }
        let process = try ChildProcess(
            python,
            [PackagePaths.file("Tests/Peers/ble_peer.py").path, "--port", "\(port)", "--behaviour", "blepeer.ni_accessory:NIAccessoryBehaviour"] + arguments,
            environment: env)
        do {
            try await process.waitForOutput("READY", timeout: .seconds(60))
        } catch {
            if process.stderr.contains("No module named 'bumble'") {
                throw MissingTool("Bumble is not installed in the test venv; run `make test` (it runs `make venv`)")
            }
            throw error
        }
        return (process, port)
    }
}
