import Foundation
import NearbySupport
import NearbyTestSupport
import Testing

/// The pairing policy end to end (issue 24, docs/pairing.md): the built executable against Bumble
/// accessories that do what real ones do wrong: bond nothing, use the debug key, claim a bonded
/// accessory's identity, flood Security Requests while ranging. Every refusal is printed with
/// what to do, and is an object with `"event":"security"` under `--json`; nothing stored changes.
@Suite("nearby setup / range: the pairing policy", .serialized)
struct PairingPolicyCommandTests {
    static func nearby(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await AccessoryCommandTests.nearby(arguments)
    }

    /// The `"event":"security"` objects of `--json` output.
    static func securityEvents(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").filter { $0.contains("\"event\":\"security\"") }.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test("an accessory that does not bond: setup pairs, stores no keys and says so; setting it up again pairs again, no 'reset' message")
    func noBonding() async throws {
        let peer = try await BumblePeerProcess(["--no-bonding", "--services", "nus,qorvo,test"])
        defer { peer.stop() }
        let directory = AccessoryCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/accessories.json"
        let first = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "first", "--timeout", "30", "--name", "Tag",
                                           "--pair", "--store", store, "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("but not bonded: the accessory keeps no keys"), "\(first.stderr)")
        let record = try #require(try AccessoryCommandTests.jsonObjects(first.stdout).first)
        #expect(record["bonding"] as? String == "none" && record["bonded"] as? Bool != true, "\(record)")
        let file = String(decoding: try #require(try AtomicFile.read(store)), as: UTF8.self)
        #expect(!file.contains("peer_ltk"), "no LTK stored")

        let again = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "first", "--timeout", "30", "--pair",
                                           "--store", store])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("no longer has this computer's bond"), "\(again.stderr)")
        try await peer.process.waitForOutput("PAIRED", timeout: .seconds(20))
        for _ in 0..<100 where peer.lines("PAIRED").count < 2 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(peer.lines("PAIRED").count == 2, "paired again")
    }

    @Test("the debug key: refused with what to do (text and JSON), nothing stored; --allow-debug-keys pairs, unauthenticated")
    func debugKey() async throws {
        let peer = try await BumblePeerProcess(["--debug-key", "--services", "nus,qorvo,test"])
        defer { peer.stop() }
        let directory = AccessoryCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let refused = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "first", "--timeout", "30", "--pair",
                                             "--store", directory + "/refused.json", "--json"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("debug public key") && refused.stderr.contains("--allow-debug-keys"), "\(refused.stderr)")
        let event = try #require(try Self.securityEvents(refused.stdout).first, "\(refused.stdout)")
        #expect(event["type"] as? String == "refused" && event["code"] as? String == "debug_key", "\(event)")
        #expect(event["address"] as? String == "F0:F1:F2:F3:F4:F5" && (event["action"] as? String)?.contains("--allow-debug-keys") == true)
        #expect(event["smp_reason"] as? String == "0x03 Authentication Requirements")
        #expect(try AtomicFile.read(directory + "/refused.json") == nil, "nothing stored")

        let allowed = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "first", "--timeout", "30", "--pair",
                                             "--allow-debug-keys", "--store", directory + "/allowed.json"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stderr.contains("paired (LE Secure Connections, Just Works, 16-byte key)"), "\(allowed.stderr)")
    }

    @Test("--allow-debug-keys with --hci bluez is an error that says why (the kernel pairs there), for setup and range")
    func debugKeysWithBlueZ() async throws {
        let directory = AccessoryCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let setup = try await Self.nearby(["setup", "--hci", "bluez", "--pick", "first", "--pair", "--allow-debug-keys",
                                           "--store", directory + "/accessories.json"])
        #expect(setup.status == 64, "\(setup.stderr)")
        #expect(setup.stderr.contains("--allow-debug-keys is for this program's own Security Manager")
                    && setup.stderr.contains("btmgmt debug-keys on"), "\(setup.stderr)")
        let range = try await Self.nearby(["range", "F0:F1:F2:F3:F4:F5", "--hci", "bluez", "--allow-debug-keys",
                                           "--store", RangeCommandTests.emptyStore()])
        #expect(range.status == 64 && range.stderr.contains("through BlueZ the kernel pairs"), "\(range.stderr)")
    }

    @Test("identity takeover: a second device pairing Just Works with the first one's identity is refused; the store is byte-for-byte unchanged")
    func identityTakeover() async throws {
        // Accessory 1 (…F5) is genuine; accessory 2 (…F6) distributes …F5 as its identity, with its own IRK.
        let peer = try await BumblePeerProcess(["--accessories", "2", "--claim-identity", "F0:F1:F2:F3:F4:F5",
                                                "--services", "nus,qorvo,test"])
        defer { peer.stop() }
        let directory = AccessoryCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/accessories.json"
        let genuine = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "F0:F1:F2:F3:F4:F5", "--timeout", "30",
                                             "--name", "Genuine", "--pair", "--store", store])
        #expect(genuine.status == 0, "\(genuine.stderr)")
        try await peer.process.waitForOutput("PAIRED sc=1", timeout: .seconds(20))
        let before = try #require(try AtomicFile.read(store))
        #expect(String(decoding: before, as: UTF8.self).contains("\"peer_irk\""))

        let impostor = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "F0:F1:F2:F3:F4:F6", "--timeout", "30",
                                              "--name", "Impostor", "--pair", "--store", store, "--json"])
        #expect(impostor.status == 1)
        #expect(impostor.stderr.contains("refused pairing with F0:F1:F2:F3:F4:F6")
                    && impostor.stderr.contains("identity F0:F1:F2:F3:F4:F5 (random) of a bonded accessory")
                    && impostor.stderr.contains("nearby setup --repair"), "\(impostor.stderr)")
        let event = try #require(try Self.securityEvents(impostor.stdout).first, "\(impostor.stdout)")
        #expect(event["type"] as? String == "refused" && event["code"] as? String == "identity_conflict", "\(event)")
        #expect(event["address"] as? String == "F0:F1:F2:F3:F4:F6")
        try await peer.process.waitForOutput("PAIRING-FAILED-RECEIVED reason=0x03 accessory=F0:F1:F2:F3:F4:F6", timeout: .seconds(20))
        #expect(try AtomicFile.read(store) == before, "the genuine accessory's bond (the whole store) is byte-for-byte unchanged")
        let list = try await Self.nearby(["accessories", "list", "--json", "--store", store])
        #expect(!list.stdout.contains("Impostor"), "\(list.stdout)")
    }

    @Test("range: a flood of 10 Security Requests on one connection: at most 2 pairings, then Repeated Attempts refusals as events; ranging goes on")
    func securityRequestFlood() async throws {
        let (server, peer, uwbsPort, hciPort) = try await RangeEndToEndTests.startPeers(
            peerArguments: ["--security-request-flood", "10", "--refuse-pairing"])
        defer {
            peer.terminate()
            server.terminate()
        }
        let range = try ChildProcess(PackagePaths.nearby, [
            "range", NIAccessoryPeer.address, "--hci", "tcp:127.0.0.1:\(hciPort)", "--uwb", "tcp:127.0.0.1:\(uwbsPort)", "--json",
            "--store", RangeCommandTests.emptyStore(),
        ])
        defer { range.terminate() }
        try await peer.waitForOutput("SECURITY-REQUEST-FLOOD-DONE", timeout: .seconds(90))
        // Ranging goes on after the flood: more updates arrive.
        let updatesAtEnd = range.stdout.components(separatedBy: "\"event\":\"update\"").count
        for _ in 0..<400 where range.stdout.components(separatedBy: "\"event\":\"update\"").count < updatesAtEnd + 5 {
            try await Task.sleep(for: .milliseconds(50))
        }
        range.signal(SIGINT)
        #expect(try await range.waitForExit(timeout: .seconds(30)) == 0, "it ranged: \(range.stderr)")
        #expect(range.stdout.components(separatedBy: "\"event\":\"update\"").count >= updatesAtEnd + 5, "ranging went on")

        let requests = peer.stdout.split(separator: "\n").filter { $0.hasPrefix("SECURITY-REQUEST-SENT") }.count
        let pairings = peer.stdout.split(separator: "\n").filter { $0.hasPrefix("PAIRING-FAILED reason=0x05") }.count
        let refusals = peer.stdout.split(separator: "\n").filter { $0.hasPrefix("PAIRING-FAILED-RECEIVED reason=0x09") }.count
        #expect(requests == 10)
        #expect((1...2).contains(pairings), "a small bounded number of pairings: \(pairings)")
        // A request that arrives while the failed pairing is still being wound up is ignored (at most one per pairing).
        #expect(refusals >= 10 - 2 * pairings, "the others answered with Repeated Attempts: \(refusals)")
        let events = try Self.securityEvents(range.stdout)
        let refused = events.filter { $0["type"] as? String == "refused" }
        #expect(!refused.isEmpty && refused.count <= 4, "reported, not once per request: \(events)")
        #expect(refused.allSatisfy { ["repeated_attempts", "too_many_pairings"].contains($0["code"] as? String ?? "") }, "\(refused)")
        #expect(refused.allSatisfy { $0["accessory"] as? String == NIAccessoryPeer.address && $0["action"] is String })
        if let waiting = refused.first(where: { $0["code"] as? String == "repeated_attempts" }) {
            #expect((waiting["retry_after_s"] as? Double ?? 0) > 0, "\(waiting)")
        }
    }
}
