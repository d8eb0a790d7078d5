import Foundation
import NearbyTestSupport
import Testing

/// `nearby accessory` end to end: the built executable as the accessory, Bumble's virtual
/// controllers for BLE, `nearby sim uwbs` for UWB; the phone is our own `nearby range` (a
/// second process on a second controller of the same air) or Bumble phones.
@Suite("nearby accessory", .serialized)
struct AccessoryRoleCommandTests {
    /// `nearby sim uwbs` on a free port, no noise.
    static func uwbs(_ extra: [String] = []) async throws -> (ChildProcess, Int) {
        let server = try ChildProcess(PackagePaths.nearby, ["sim", "uwbs", "--listen", "127.0.0.1:0", "--noise", "ideal"] + extra)
        try await server.waitForOutput("listening on 127.0.0.1:")
        guard let match = server.stdout.range(of: #"listening on 127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let port = Int(server.stdout[match].split(separator: ":").last ?? "") else {
            server.terminate()
            throw ChildProcessError("no port in: \(server.stdout)")
        }
        return (server, port)
    }

    /// A fresh store path under /tmp (the accessory's bonds and its kit's UWB address go beside it).
    static func store() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("nearby-accessory-\(UUID().uuidString)/accessories.json").path
    }

    static func jsonObjects(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Waits until `child` printed `count` update objects with a distance for `accessory`.
    static func waitForUpdates(_ child: ChildProcess, of accessory: String, count: Int, timeout: Duration = .seconds(90)) async throws -> [[String: Any]] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let updates = jsonObjects(child.stdout).filter {
                $0["event"] as? String == "update" && $0["accessory"] as? String == accessory && $0["distance_m"] is Double
            }
            if updates.count >= count { return updates }
            guard clock.now < deadline else {
                throw ChildProcessError("\(updates.count) of \(count) updates of \(accessory):\n\(child.stdout.suffix(3000))\n\(child.stderr.suffix(3000))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    @Test("argument errors are usage errors")
    func arguments() async throws {
        for (arguments, text) in [
            (["--service", "bogus"], "--service must list qnis, nus or apple"),
            (["--config-version", "2.0"], "--config-version must be 1.0 or 1.1"),
            (["--mac", "FFFF"], "--mac must be 1-4 hex digits"),
            (["--max-phones", "9"], "--max-phones must be 1-8"),
            (["--role", "tag"], "--role must be responder or initiator"),
            (["--hci", "bogus"], "--hci"),
        ] {
            let run = try await ChildProcess.run(PackagePaths.nearby, ["accessory", "--uwb", "sim"] + arguments, timeout: .seconds(60))
            #expect(run.status == 64 && run.stderr.contains(text), "\(arguments): \(run.stderr)")
        }
    }

    @Test("our phone role and our accessory role: two processes on two controllers of one air, both kits in one virtual world; both range")
    func phoneAndAccessoryProcesses() async throws {
        let (server, uwbsPort) = try await Self.uwbs()
        defer { server.terminate() }
        let phonePort = try freeTCPPort()
        let air = try await BumblePeerProcess(["--accessories", "0", "--second-port", "\(phonePort)"])
        defer { air.stop() }
        let accessory = try ChildProcess(PackagePaths.nearby, [
            "accessory", "--hci", air.hciSpec, "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--name", "door", "--json", "--store", Self.store(),
        ])
        defer { accessory.terminate() }
        try await accessory.waitForOutput("waiting for phones", timeout: .seconds(60))
        guard let match = accessory.stderr.range(of: #"as ([0-9A-F]{2}:){5}[0-9A-F]{2}"#, options: .regularExpression) else {
            throw ChildProcessError("no address in: \(accessory.stderr)")
        }
        let address = String(accessory.stderr[match].dropFirst(3))
        let phone = try ChildProcess(PackagePaths.nearby, [
            "range", address, "--hci", "tcp:127.0.0.1:\(phonePort)", "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--json", "--store", Self.store(),
        ])
        defer { phone.terminate() }
        let seenByPhone = try await Self.waitForUpdates(phone, of: address, count: 5)
        let accessoryUpdates = try await Self.waitForUpdates(accessory, of: try #require(Self.jsonObjects(accessory.stdout).first {
            $0["event"] as? String == "update" }?["accessory"] as? String), count: 5)
        #expect(seenByPhone.suffix(3).allSatisfy { abs(($0["distance_m"] as? Double ?? 0) - 2.0) < 0.05 }, "\(seenByPhone.suffix(3))")
        #expect(accessoryUpdates.suffix(3).allSatisfy { abs(($0["distance_m"] as? Double ?? 0) - 2.0) < 0.05 }, "\(accessoryUpdates.suffix(3))")
        let states = Self.jsonObjects(accessory.stdout).filter { $0["event"] as? String == "state" }.compactMap { $0["state"] as? String }
        #expect(Array(states.prefix(5)) == ["idle", "initializing", "configuring", "starting", "ranging"], "\(states)")

        phone.signal(SIGINT)
        #expect(try await phone.waitForExit(timeout: .seconds(30)) == 0, "\(phone.stderr)")
        // The phone sent 0x0C before disconnecting: the accessory stopped, then saw it leave.
        for _ in 0..<100 where !accessory.stdout.contains("\"state\":\"stopped\"") { try await Task.sleep(for: .milliseconds(100)) }
        let after = Self.jsonObjects(accessory.stdout).filter { $0["event"] as? String == "state" }.compactMap { $0["state"] as? String }
        #expect(after.suffix(2) == ["idle", "stopped"], "\(after)")
        accessory.signal(SIGINT)
        #expect(try await accessory.waitForExit(timeout: .seconds(30)) == 0, "\(accessory.stderr)")
        #expect(accessory.stderr.contains("stopped; summary:"))
    }
}
