import Foundation
import NearbyTestSupport
import Testing

/// Runs one test of this test bundle a second time, inside the umockdev emulator, so that the
/// in-process libusb code talks to an emulated dev kit.
///
/// The outer run (plain `swift test`) starts the scripted UWBS (a ``ScriptedUCIServer``) and
/// calls ``runInner(_:kit:server:)``: it starts
/// `emulator.py --uci tcp:127.0.0.1:PORT -- <this test binary> --filter <the test>` with
/// `NEARBY_USB_INNER_TEST` set, waits, and returns the inner run's output and the emulator's
/// event log. The inner run sees ``isInner(_:)`` true and does the USB work against the
/// emulated kit (asserting what the host receives); the outer run asserts what the UWBS
/// received and what the emulator logged.
enum USBEmulatedKit {
    static let innerVariable = "NEARBY_USB_INNER_TEST"

    /// `true` in the inner run of `test`.
    static func isInner(_ test: String) -> Bool {
        ProcessInfo.processInfo.environment[innerVariable] == test
    }

    /// The emulator's process id (inner run): SIGUSR1 unplugs the kit, SIGUSR2 plugs it in.
    static var emulatorPID: pid_t {
        get throws {
            guard let text = ProcessInfo.processInfo.environment["NEARBY_EMULATOR_PID"], let pid = pid_t(text) else {
                throw ChildProcessError("NEARBY_EMULATOR_PID is not set: this must run under the umockdev emulator")
            }
            return pid
        }
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The emulator's `emulator: ...` lines without the prefix.
        var events: [String] { UMockdevEmulator.events(in: stderr) }
        var transcript: String { "exit status \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }
    }

    /// Outer run: runs `<suite>/<test>` under the emulator, the board bridged to `server`, and
    /// checks it passed.
    static func runInner(_ test: String, kit: UMockdevEmulator.Kit, server: ScriptedUCIServer,
                         suite: String = "USBTransportTests",
                         sourceLocation: SourceLocation = #_sourceLocation) async throws -> Run {
        let port = server.port
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let result = try await UMockdevEmulator.run(
            kit: kit, uciPort: port,
            command: [binary, "--testing-library", "swift-testing", "--filter", "\(suite)/\(test)"],
            environment: [innerVariable: test],
            timeout: .seconds(180))
        let run = Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
        #expect(run.status == 0, "the test failed inside the emulator:\n\(run.transcript)", sourceLocation: sourceLocation)
        #expect((run.stdout + run.stderr).contains("Test \(test)() passed"), "the inner test did not run:\n\(run.transcript)",
                sourceLocation: sourceLocation)
        return run
    }
}
