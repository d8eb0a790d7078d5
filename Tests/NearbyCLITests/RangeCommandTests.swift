import Foundation
import NearbyTestSupport
import Testing

/// `nearby range` argument handling (the BLE flow runs in the Bumble end-to-end test).
@Suite struct RangeCommandTests {
    func range(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(PackagePaths.nearby, ["range"] + arguments, timeout: .seconds(60))
    }

    @Test func accessoriesAreBLEAddresses() async throws {
        let bad = try await range(["keys", "--uwb", "sim"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("\"keys\" is not an accessory: give a BLE address like F0:F1:F2:F3:F4:F5"), "\(bad.stderr)")
        let type = try await range(["F0:F1:F2:F3:F4:F5/sideways", "--uwb", "sim"])
        #expect(type.status == 64 && type.stderr.contains("must be random or public"), "\(type.stderr)")
        let none = try await range(["--uwb", "sim"])
        #expect(none.status == 64 && none.stderr.contains("name at least one accessory"))
        let both = try await range(["F0:F1:F2:F3:F4:F5", "--all", "--uwb", "sim"])
        #expect(both.status == 64 && both.stderr.contains("not both"))
        let hci = try await range(["F0:F1:F2:F3:F4:F5", "--hci", "bogus", "--uwb", "sim"])
        #expect(hci.status == 64 && hci.stderr.contains("--hci"), "\(hci.stderr)")
    }

    @Test func anUnreachableControllerIsAnErrorWithExitCode1() async throws {
        let port = try freeTCPPort()
        let run = try await range(["F0:F1:F2:F3:F4:F5", "--hci", "tcp:127.0.0.1:\(port)", "--uwb", "sim"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("--hci tcp:127.0.0.1:\(port)"), "\(run.stderr)")
    }
}
