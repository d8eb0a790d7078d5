import Accessories
import Foundation
import LowEnergy
import NearbySupport
import Testing

@Suite("Accessory store")
struct AccessoryStoreTests {
    static func record(_ last: UInt8, name: String = "Tag", advertised: String? = "nb-peer") -> AccessoryRecord {
        AccessoryRecord(
            displayName: name, advertisedName: advertised,
            address: BluetoothAddress(bytes: [0xF0, 0xF1, 0xF2, 0xF3, 0xF4, last])!, addressType: .random,
            descriptor: try! DiscoveryDescriptor(serviceUUID: Fixtures.nus, nameSubstring: "nb", nameIgnoresCase: true),
            dataChannel: DataChannelReference(.nordicUART), bonding: .none, origin: .setup,
            addedAt: Date(timeIntervalSince1970: 1_750_000_000.75), lastSeenAt: Date(timeIntervalSince1970: 1_750_000_100))
    }

    /// The store error `body` throws, or `nil` if it succeeds.
    static func failure<T>(_ body: () async throws -> T) async -> AccessoryStoreError? {
        do {
            _ = try await body()
            return nil
        } catch let error as AccessoryStoreError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test("round trip through the versioned JSON file, mode 0600, another instance reads the same records")
    func roundTrip() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state/nearby/accessories.json")
        let store = AccessoryStore(path: path)
        #expect(try await store.list().isEmpty)
        #expect(access(path, F_OK) != 0, "listing an empty store creates nothing")
        let outcome = try await store.add(Self.record(0xF5))
        guard case .added(let stored) = outcome else { Issue.record("\(outcome)"); return }
        #expect(stored.id.count == 8 && stored.id.allSatisfy(\.isHexDigit))
        #expect(stored.addedAt == Date(timeIntervalSince1970: 1_750_000_000), "whole seconds")
        #expect(Self.mode(path) == 0o600)
        #expect(try await AccessoryStore(path: path).list() == [stored])

        let text = String(decoding: try #require(try AtomicFile.read(path)), as: UTF8.self)
        #expect(text.contains(#""version" : 1"#))
        for key in ["\"id\"", "\"display_name\" : \"Tag\"", "\"advertised_name\" : \"nb-peer\"", "\"address\" : \"F0:F1:F2:F3:F4:F5\"",
                    "\"address_type\" : \"random\"", "\"bonding\" : \"none\"", "\"origin\" : \"setup\"",
                    "\"added_at\" : \"2025-06-15T15:06:40Z\"", "\"last_seen_at\" : \"2025-06-15T15:08:20Z\"",
                    "\"service_uuid\" : \"6E400001-B5A3-F393-E0A9-E50E24DCCA9E\"", "\"name\" : \"Nordic UART\""] {
            #expect(text.contains(key), "\(key) in\n\(text)")
        }
        // Re-adding the same address updates it, keeping id and addedAt.
        var again = Self.record(0xF5, name: "Renamed by setup")
        again.addedAt = Date()
        let second = try await store.add(again)
        guard case .updated(let updated, let previous) = second else { Issue.record("\(second)"); return }
        #expect(updated.id == stored.id && updated.addedAt == stored.addedAt && updated.displayName == "Renamed by setup")
        #expect(previous == stored)
        // Keep policy leaves it alone.
        let third = try await store.add(Self.record(0xF5, name: "ignored"), ifPresent: .keep)
        #expect(third == .alreadyStored(updated))
        #expect(try await store.list().count == 1)
        // Refresh (setting up again) takes what the accessory reports and keeps the user's name.
        let renamed = try await store.rename(stored.id, to: "Front door")
        var reported = Self.record(0xF5, name: "Tag", advertised: "nb-peer v2")
        reported.lastSeenAt = Date(timeIntervalSince1970: 1_760_000_000)
        let fourth = try await store.add(reported, ifPresent: .refresh)
        guard case .updated(let refreshed, let before) = fourth else { Issue.record("\(fourth)"); return }
        #expect(before == renamed)
        #expect(refreshed.id == stored.id && refreshed.addedAt == stored.addedAt && refreshed.displayName == "Front door")
        #expect(refreshed.advertisedName == "nb-peer v2" && refreshed.lastSeenAt == Date(timeIntervalSince1970: 1_760_000_000))
    }

    @Test("rename, touch, forget and resolve by id, id prefix, address, display and advertised name")
    func operations() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = AccessoryStore(path: directory.file("accessories.json"))
        let a = try await store.add(Self.record(1, name: "Kitchen", advertised: "nb-a")).record
        let b = try await store.add(Self.record(2, name: "Garage", advertised: "nb-b")).record
        #expect(try await store.resolve(a.id) == a)
        #expect(try await store.resolve(String(b.id.prefix(5)).uppercased()) == b)
        #expect(try await store.resolve("f0:f1:f2:f3:f4:02") == b)
        #expect(try await store.resolve("kitchen") == a)
        #expect(try await store.resolve("NB-B") == b)
        await #expect(throws: AccessoryStoreError.notFound(query: "attic", known: [a.description, b.description])) {
            try await store.resolve("attic")
        }
        let renamed = try await store.rename(a.id, to: "  Hall  ")
        #expect(renamed.displayName == "Hall" && renamed.id == a.id)
        await #expect(throws: AccessoryStoreError.invalidArgument(detail: "the new name is empty")) { try await store.rename(a.id, to: " ") }
        // Two with the same display name: ambiguous by name, fine by id.
        try await store.rename(b.id, to: "hall")
        do {
            _ = try await store.resolve("Hall")
            Issue.record("resolved an ambiguous name")
        } catch {
            #expect(error.description.hasPrefix("\"Hall\" matches 2 accessories ("))
            #expect(error.description.hasSuffix("): give the id or the address instead"))
        }
        let seen = Date(timeIntervalSince1970: 1_760_000_000.9)
        #expect(try await store.touch(b.id, at: seen).lastSeenAt == Date(timeIntervalSince1970: 1_760_000_000))
        #expect(try await store.forget("F0:F1:F2:F3:F4:01").id == a.id)
        #expect(try await store.list().map(\.id) == [b.id])
        let empty = AccessoryStore(path: directory.file("other.json"))
        do {
            _ = try await empty.resolve("x")
        } catch {
            #expect(error.description == "no accessory matches \"x\": the store is empty (set one up with nearby setup)")
        }
    }

    @Test("events: added, changed, removed from this instance, and another instance's changes on reload and while watching")
    func events() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("accessories.json")
        let store = AccessoryStore(path: path)
        let events = store.events()
        let a = try await store.add(Self.record(1)).record
        let renamed = try await store.rename(a.id, to: "Hall")
        try await store.forget(a.id)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .added(a))
        #expect(await iterator.next() == .changed(renamed, previous: a))
        #expect(await iterator.next() == .removed(renamed))

        // Another process (another instance on the same file).
        let other = AccessoryStore(path: path)
        let b = try await other.add(Self.record(2)).record
        #expect(try await store.reload() == [.added(b)])
        #expect(await iterator.next() == .added(b))
        await store.startWatching(interval: .milliseconds(50))
        let watched = store.events()
        let c = try await other.add(Self.record(3)).record
        let seen = try await withTimeout(.seconds(10), operation: "the watched change") { () -> AccessoryStoreEvent? in
            for await event in watched { return event }
            return nil
        }
        #expect(seen == .added(c))
        #expect(await iterator.next() == .added(c))
        await store.close()
        #expect(await iterator.next() == nil, "close() ends the stream")
    }

    @Test("a damaged file is moved aside (never overwritten), the error says where; the next access starts empty")
    func corruption() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("accessories.json")
        let garbage = Array(#"{"version": 1, "accessories": [{"id": "#.utf8)
        try AtomicFile.write(garbage, to: path)
        let store = AccessoryStore(path: path)
        var keptAt = ""
        let first = await Self.failure { try await store.list() }
        if case .corrupt(let reported, let kept, let detail)? = first {
            #expect(reported == path)
            keptAt = kept
            #expect(kept.hasPrefix(path + ".corrupt-") && kept.hasSuffix("Z"))
            #expect(detail.hasPrefix("not valid JSON"))
            let message = AccessoryStoreError.corrupt(path: reported, keptAt: kept, detail: detail).description
            #expect(message.contains("It was moved aside to \(kept) (nothing was overwritten); nearby starts with an empty store"))
        } else {
            Issue.record("expected a corrupt-store error, got \(String(describing: first))")
        }
        #expect(try AtomicFile.read(keptAt) == garbage, "the copy holds the damaged bytes")
        #expect(access(path, F_OK) != 0)
        #expect(try await store.list().isEmpty)

        // Valid JSON of the wrong shape is damaged too; a second copy in the same second gets its own name.
        try AtomicFile.write(#"{"version": 1, "accessories": [{"id": 5}]}"#, to: path)
        let second = await Self.failure { try await store.add(Self.record(1)) }
        if case .corrupt(_, let kept, let detail)? = second {
            #expect(kept != keptAt)
            #expect(try AtomicFile.read(keptAt) == garbage, "the first copy is not overwritten")
            #expect(detail.contains("accessories[0].id"), "\(detail)")
        } else {
            Issue.record("expected a corrupt-store error, got \(String(describing: second))")
        }
        #expect(access(path, F_OK) != 0, "the failed add wrote nothing")
    }

    @Test("a file from a newer nearby is left alone with a clear error")
    func newerVersion() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("accessories.json")
        let text = #"{"version": 2, "accessories": [], "groups": []}"#
        try AtomicFile.write(text, to: path)
        let store = AccessoryStore(path: path)
        await #expect(throws: AccessoryStoreError.unsupportedVersion(path: path, version: 2)) { try await store.add(Self.record(1)) }
        #expect(try AtomicFile.read(path) == Array(text.utf8))
        #expect(AccessoryStoreError.unsupportedVersion(path: path, version: 2).description.contains("upgrade nearby, or use another store with --store"))
    }

    @Test("40 concurrent writers (separate store instances, so separate locks and file reads) lose nothing")
    func concurrentWriters() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("accessories.json")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    let store = AccessoryStore(path: path, lockTimeout: .seconds(30))
                    try await store.add(Self.record(UInt8(index), name: "T\(index)"))
                    try await store.rename(String(format: "F0:F1:F2:F3:F4:%02X", index), to: "R\(index)")
                }
            }
            try await group.waitForAll()
        }
        let records = try await AccessoryStore(path: path).list()
        #expect(records.count == 40)
        #expect(Set(records.map(\.displayName)) == Set((0..<40).map { "R\($0)" }))
        #expect(Set(records.map(\.id)).count == 40)
    }

    @Test("default path: XDG_STATE_HOME if absolute, else ~/.local/state")
    func defaultPath() {
        #expect(AccessoryStore.defaultPath(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/nearby/accessories.json")
        #expect(AccessoryStore.defaultPath(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]) == "/h/.local/state/nearby/accessories.json")
        #expect(AccessoryStore.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/state/nearby/accessories.json")
    }

    @Test("a program's store: --store, else NEARBY_STORE (empty: unset), else the default path")
    func programPath() {
        let environment = ["NEARBY_STORE": "/e.json", "XDG_STATE_HOME": "/s"]
        #expect(AccessoryStore.path("/flag.json", environment: environment) == "/flag.json")
        #expect(AccessoryStore.path(nil, environment: environment) == "/e.json")
        #expect(AccessoryStore.path(nil, environment: ["NEARBY_STORE": "", "XDG_STATE_HOME": "/s"]) == "/s/nearby/accessories.json")
    }
}
