import Foundation

/// A private `dbus-daemon` for tests (Debian's `dbus`): a bus of its own in a temporary
/// directory, so tests never touch the machine's system bus. Point a child process at it with
/// `DBUS_SYSTEM_BUS_ADDRESS` (``environment``); sd-bus and dbus-python both honour it.
public final class PrivateDBus: Sendable {
    /// The bus daemon.
    public let process: ChildProcess
    /// `unix:path=/tmp/.../bus`.
    public let address: String
    /// The temporary directory (socket and config), removed by ``stop()``.
    public let directory: String

    /// `DBUS_SYSTEM_BUS_ADDRESS` for child processes.
    public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }

    /// Starts a bus. `policy` is the `<policy>` XML inside `<busconfig>` (default: everyone may
    /// own any name and send anything, as a test bus needs).
    /// - Throws: ``MissingTool`` without dbus-daemon; the daemon's output if it fails.
    public init(policy: String = PrivateDBus.openPolicy) async throws {
        let daemon = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        guard FileManager.default.isExecutableFile(atPath: daemon.path) else {
            throw MissingTool("/usr/bin/dbus-daemon is missing; run `make test`, which installs Debian's dbus")
        }
        var template = Array("/tmp/nearby-dbus-XXXXXX".utf8CString)
        _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        address = "unix:path=\(directory)/bus"
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>custom</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              \(policy)
            </busconfig>
            """
        try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        process = try ChildProcess(daemon, ["--config-file=\(directory)/bus.conf", "--nofork", "--nopidfile", "--print-address=1"])
        do {
            try await process.waitForOutput("unix:path=", timeout: .seconds(30))
        } catch {
            process.terminate()
            throw error
        }
    }

    /// Everyone may own any name and send anything.
    public static let openPolicy = """
        <policy context="default">
          <allow user="*"/>
          <allow own="*"/>
          <allow send_destination="*" eavesdrop="true"/>
          <allow eavesdrop="true"/>
        </policy>
        """

    /// Like ``openPolicy``, but `user` may not send to `org.bluez` (as on a system whose
    /// bluetooth.conf allows only a group the user is not in).
    public static func denyingBlueZ(to user: String) -> String {
        openPolicy + """
            <policy user="\(user)">
              <deny send_destination="org.bluez"/>
            </policy>
            """
    }

    /// Stops the bus and removes its directory.
    public func stop() {
        process.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
