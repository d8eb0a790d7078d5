import Foundation
import NearbySupport
import NearbyTestSupport
import Testing

/// `nearby setup --pair` / `--repair` end to end: the built executable against Bumble's own
/// Security Manager; bonds stored with the record; a second process encrypts with them.
@Suite("nearby setup --pair", .serialized)
struct PairingCommandTests {
    static func nearby(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await AccessoryCommandTests.nearby(arguments)
    }

    @Test("setup --pair bonds (Just Works without a terminal); the keys stay in the 0600 store, never in any output; a second process encrypts with them")
    func pairAndReuse() async throws {
        let peer = try await BumblePeerProcess(["--services", "nus,qorvo,test"])
        defer { peer.stop() }
        let directory = AccessoryCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/accessories.json"
        let run = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "first", "--timeout", "30", "--name", "Tag",
                                         "--pair", "--store", store, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("paired (LE Secure Connections, Just Works, 16-byte key)"), "\(run.stderr)")
        let printed = try #require(try AccessoryCommandTests.jsonObjects(run.stdout).first)
        #expect(printed["bonded"] as? Bool == true && printed["secure_connections"] as? Bool == true && printed["key_size"] as? Int == 16)
        #expect(printed["bond"] == nil)
        #expect(printed["bonding"] as? String == "bonded")
        try await peer.process.waitForOutput("PAIRED sc=1")

        // The keys are in the store file (0600) and nowhere else.
        let file = String(decoding: try #require(try AtomicFile.read(store)), as: UTF8.self)
        #expect(file.contains("\"peer_ltk\""))
        let key = try #require(file.split(separator: "\"").first { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(!run.stdout.contains(key) && !run.stderr.contains(key))
        var info = stat()
        #expect(stat(store, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(directory + "/host-identity.json", &info) == 0 && info.st_mode & 0o777 == 0o600)
        let list = try await Self.nearby(["accessories", "list", "--json", "--store", store])
        #expect(!list.stdout.contains(key) && list.stdout.contains("\"secure_connections\" : true"), "\(list.stdout)")

        // A second process: same own address (stored identity), encrypts with the stored bond.
        let again = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "first", "--timeout", "30", "--store", store,
                                           "--log-level", "info"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("encrypted the link to F0:F1:F2:F3:F4:F5 with the stored bond"), "\(again.stderr)")
        #expect(peer.lines("PAIRED").count == 1, "no second pairing")
        #expect(peer.lines("ENCRYPTED encryption=1").count == 2)
        let stillBonded = String(decoding: try #require(try AtomicFile.read(store)), as: UTF8.self)
        #expect(stillBonded.contains(String(key)), "setting up again keeps the keys")

        // --repair: old keys removed, paired again.
        let repaired = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--timeout", "30", "--repair", "Tag", "--store", store])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(repaired.stderr.contains("its stored keys are replaced once the new pairing succeeds"), "\(repaired.stderr)")
        // The first pairing's line is there already: wait for the second (the accessory prints it
        // once it stored the keys, which can be after this process exited).
        try await peer.process.waitForOutput("PAIRED sc=1", count: 2, timeout: .seconds(20))
        #expect(peer.lines("PAIRED").count == 2)
        let forgot = try await Self.nearby(["accessories", "forget", "Tag", "--store", store])
        #expect(forgot.status == 0)
        let afterForget = String(decoding: try #require(try AtomicFile.read(store)), as: UTF8.self)
        #expect(!afterForget.contains("peer_ltk"), "forget deletes the keys")
    }

    @Test("setup --pair --passkey N: Passkey Entry for a display accessory; a wrong one fails clearly and stores nothing")
    func passkey() async throws {
        let peer = try await BumblePeerProcess(["--io", "display", "--passkey", "123456"])
        defer { peer.stop() }
        let directory = AccessoryCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let wrong = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "first", "--timeout", "30", "--pair",
                                           "--passkey", "111111", "--store", directory + "/wrong.json"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("pairing with F0:F1:F2:F3:F4:F5 failed") && wrong.stderr.contains("Confirm Value Failed"), "\(wrong.stderr)")
        #expect(try AtomicFile.read(directory + "/wrong.json") == nil, "nothing stored")
        let right = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "first", "--timeout", "30", "--pair",
                                           "--passkey", "123456", "--store", directory + "/right.json", "--json"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stderr.contains("authenticated"), "\(right.stderr)")
    }

    @Test("setup --pair --confirm: Numeric Comparison with a display + yes/no accessory, the same number on both sides")
    func comparisonNeedsConfirm() async throws {
        let peer = try await BumblePeerProcess(["--io", "displayyesno"])
        defer { peer.stop() }
        let directory = AccessoryCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // --confirm makes the host KeyboardDisplay: Numeric Comparison, accepted without asking.
        let confirmed = try await Self.nearby(["setup", "--hci", peer.hciSpec, "--pick", "first", "--timeout", "30", "--pair",
                                               "--confirm", "--store", directory + "/a.json"])
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        #expect(confirmed.stderr.contains("numeric comparison") && confirmed.stderr.contains("accepted (--confirm)"), "\(confirmed.stderr)")
        let number = try #require(confirmed.stderr.split(separator: "\n").first { $0.contains("numeric comparison") })
        let digits = try #require(number.split(separator: " ").map(String.init).first { $0.count == 6 && $0.allSatisfy(\.isNumber) })
        try await peer.process.waitForOutput("COMPARE number=" + digits)
    }
}
