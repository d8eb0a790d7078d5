import Foundation

/// A bluetoothd for tests (`Tests/Peers/bluez_mock.py`: python-dbusmock's bluez5 template,
/// extended, with Bumble's host as its radio) on a private `dbus-daemon`: the BlueZ backend's
/// peer. Its radio is controller C0 of a Bumble peer (``BumblePeerProcess``,
/// ``NIAccessoryPeer``), reached over `tcp-client:`.
///
/// Child processes that should use it get ``environment`` (`DBUS_SYSTEM_BUS_ADDRESS`).
public final class BlueZMockProcess: Sendable {
    /// The private bus.
    public let bus: PrivateDBus
    /// The mock bluetoothd (stdout: one line per event, `BLUEZ-...`).
    public let process: ChildProcess

    /// `DBUS_SYSTEM_BUS_ADDRESS` for processes that talk to this bluetoothd.
    public var environment: [String: String] { bus.environment }
    /// The adapter's address (what phones see the accessory role advertise from).
    public var adapterAddress: String {
        process.stdout.split(separator: "\n").first { $0.hasPrefix("BLUEZ-READY") }?
            .split(separator: " ").first { $0.hasPrefix("address=") }.map { String($0.dropFirst("address=".count)) } ?? ""
    }

    /// Starts a bus and a bluetoothd whose radio is the Bumble controller on `hciPort`.
    /// - Parameters:
    ///   - arguments: more `bluez_mock.py` options (`--powered-off`, `--version 5.47`, ...).
    ///   - policy: the bus's `<policy>` XML (``PrivateDBus/openPolicy`` by default).
    /// - Throws: ``MissingTool`` without dbus-daemon, the venv or Debian's python3-dbusmock; the
    ///   mock's output if it does not start.
    public init(hciPort: Int, arguments: [String] = [], policy: String = PrivateDBus.openPolicy) async throws {
        let bus = try await PrivateDBus(policy: policy)
        let python = try PackagePaths.venvPython()
        let process = try ChildProcess(
            python, [PackagePaths.file("Tests/Peers/bluez_mock.py").path, "--hci", "tcp-client:127.0.0.1:\(hciPort)"] + arguments,
            environment: bus.environment.merging(["PYTHONUNBUFFERED": "1"]) { $1 })
        do {
            try await process.waitForOutput("BLUEZ-READY", timeout: .seconds(60))
        } catch {
            process.terminate()
            bus.stop()
            if process.stderr.contains("No module named 'dbusmock'") || process.stderr.contains("No module named 'dbus'") {
                throw MissingTool("Debian's python3-dbus / python3-dbusmock are missing; run `make test`, which installs them")
            }
            throw error
        }
        self.bus = bus
        self.process = process
    }

    /// Lines the mock printed that start with `prefix`.
    public func lines(_ prefix: String) -> [String] {
        process.lines(startingWith: prefix)
    }

    /// Stops the mock and its bus.
    public func stop() {
        process.terminate()
        bus.stop()
    }
}
