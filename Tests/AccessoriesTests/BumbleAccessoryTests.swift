import Accessories
import Foundation
import Logging
import LowEnergy
import NearbySupport
import NearbyTestSupport
import Synchronization
import Testing

/// Descriptors, the picker and the setup flow against Bumble: real HCI advertising reports,
/// a real connection and GATT discovery. One peer process per test, run one at a time.
@Suite("Bumble: discovery and setup", .serialized)
struct BumbleAccessoryTests {
    static let logger: Logger = {
        var logger = Logger(label: "test.accessories")
        logger.logLevel = ProcessInfo.processInfo.environment["NEARBY_TEST_LOG"] == nil ? .critical : .trace
        return logger
    }()

    static func host(_ peer: BumblePeerProcess) async throws -> BLEHost {
        try await BLEHost.open(.tcp(host: "127.0.0.1", port: UInt16(peer.port)),
                               configuration: BLEHostConfiguration(commandTimeout: .seconds(5)), logger: logger)
    }

    /// Every report from the accessory at F0:F1:F2:F3:F4:F5 within `duration`.
    static func reports(_ peer: BumblePeerProcess, for duration: Duration = .seconds(2)) async throws -> [Advertisement] {
        let host = try await host(peer)
        let stream = try await host.scan()
        let box = Mutex<[Advertisement]>([])
        _ = try? await withTimeout(duration, operation: "collecting") {
            for await advertisement in stream where advertisement.address == BluetoothAddress("F0:F1:F2:F3:F4:F5") {
                box.withLock { $0.append(advertisement) }
            }
            return true
        }
        await host.close()
        return box.withLock { $0 }
    }

    @Test("every descriptor field on real reports: service UUID, company + blob/mask, service data + mask, name ignoring case")
    func descriptorFields() async throws {
        let peer = try await BumblePeerProcess([
            "--name", "Tag-K", "--advertise-uuid", "FE9A", "--manufacturer-data", "004C:0A0B0C", "--service-data", "FE9A:0102",
        ])
        defer { peer.stop() }
        #expect(peer.lines("READY").first?.contains("adv=02010603039afe05169afe010206ff4c000a0b0c06095461672d4b") == true)
        let reports = try await Self.reports(peer)
        try #require(reports.count >= 2)
        func matches(_ descriptor: DiscoveryDescriptor) -> Bool { reports.contains(where: descriptor.matches) }
        func all(_ descriptor: DiscoveryDescriptor) -> Bool { reports.allSatisfy(descriptor.matches) }
        let fe9a = BluetoothUUID(0xFE9A)
        #expect(all(try DiscoveryDescriptor(serviceUUID: fe9a)))
        #expect(!matches(try DiscoveryDescriptor(serviceUUID: DataChannelService.nordicUART.service)))
        #expect(all(try DiscoveryDescriptor(companyIdentifier: 0x004C)))
        #expect(!matches(try DiscoveryDescriptor(companyIdentifier: 0x0059)))
        #expect(all(try DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x0A, 0x0B])))
        #expect(all(try DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x0A, 0x00], manufacturerDataMask: [0xFF, 0x00])))
        #expect(!matches(try DiscoveryDescriptor(companyIdentifier: 0x004C, manufacturerDataBlob: [0x0A, 0x0C])))
        #expect(all(try DiscoveryDescriptor(serviceUUID: fe9a, serviceDataBlob: [0x01, 0x02])))
        #expect(all(try DiscoveryDescriptor(serviceUUID: fe9a, serviceDataBlob: [0x01, 0x00], serviceDataMask: [0xFF, 0x00])))
        #expect(!matches(try DiscoveryDescriptor(serviceUUID: fe9a, serviceDataBlob: [0x02])))
        #expect(all(try DiscoveryDescriptor(serviceUUID: fe9a, nameSubstring: "tag-k", nameIgnoresCase: true)))
        #expect(!matches(try DiscoveryDescriptor(serviceUUID: fe9a, nameSubstring: "tag-k")))
        #expect(all(try DiscoveryDescriptor(
            serviceUUID: fe9a, companyIdentifier: 0x004C, manufacturerDataBlob: [0x0A], serviceDataBlob: [0x01],
            nameSubstring: "K", range: .default)))
    }

    @Test("range immediate: a peer at -40 dBm matches, one at -72 dBm does not", arguments: [(Int8(-40), true), (Int8(-72), false)])
    func rangeImmediate(rssi: Int8, expected: Bool) async throws {
        let peer = try await BumblePeerProcess(["--rssi", "\(rssi)"])
        defer { peer.stop() }
        let reports = try await Self.reports(peer)
        try #require(!reports.isEmpty)
        #expect(reports.allSatisfy { $0.rssi == rssi })
        let immediate = try DiscoveryDescriptor(serviceUUID: DataChannelService.nordicUART.service, range: .immediate)
        #expect(reports.contains(where: immediate.matches) == expected)
        #expect(reports.allSatisfy(try DiscoveryDescriptor(serviceUUID: DataChannelService.nordicUART.service).matches))
    }

    @Test("setup with a scripted pick: connects, finds the Nordic UART data channel, disconnects, stores the record")
    func scriptedSetup() async throws {
        let peer = try await BumblePeerProcess()
        defer { peer.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = AccessoryStore(path: directory.file("accessories.json"))
        let events = store.events()
        let host = try await Self.host(peer)
        let item = DisplayItem(name: "Kitchen tag", descriptor: try DiscoveryDescriptor(serviceUUID: DataChannelService.nordicUART.service),
                               imagePath: "/usr/share/icons/tag.png")
        let setup = AccessorySetup(central: host, items: [item], store: store, logger: Self.logger)
        let result = try await setup.run(timeout: .seconds(30), chooser: ScriptedChooser(.first))
        await host.close()
        let record = result.record
        #expect(result.dataChannel == .nordicUART)
        #expect(record.displayName == "Kitchen tag" && record.advertisedName == "nb-peer")
        #expect(record.address == BluetoothAddress("F0:F1:F2:F3:F4:F5") && record.addressType == .random)
        #expect(record.dataChannel == DataChannelReference(name: "Nordic UART", service: DataChannelService.nordicUART.service))
        #expect(record.descriptor == item.descriptor && record.imagePath == "/usr/share/icons/tag.png")
        #expect(record.bonding == .none && record.origin == .setup && record.lastSeenAt != nil)
        #expect(try await store.list() == [record])
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .added(record))
        #expect(peer.lines("CONNECTED").count == 1)
        try await peer.process.waitForOutput("DISCONNECTED")
    }

    /// A chooser driven by commands, like the terminal picker: waits for two candidates,
    /// moves down and picks the highlighted one.
    final class KeyboardChooser: AccessoryChooser {
        let stream: AsyncStream<PickerCommand>
        let continuation: AsyncStream<PickerCommand>.Continuation
        let sent = Atomic(false)

        init() { (stream, continuation) = AsyncStream<PickerCommand>.makeStream() }

        func commands() -> AsyncStream<PickerCommand> { stream }

        func pickerChanged(_ picker: AccessoryPicker, update: PickerUpdate) -> AccessoryCandidate? {
            if picker.candidates.count == 2 && !sent.exchange(true, ordering: .relaxed) {
                continuation.yield(.move(.down))
                continuation.yield(.move(.down))
                continuation.yield(.pickHighlighted)
            }
            return nil
        }
    }

    @Test("two accessories: arrow-key commands move the highlight and Enter picks the second")
    func keyboardPick() async throws {
        let peer = try await BumblePeerProcess(["--accessories", "2"])
        defer { peer.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let host = try await Self.host(peer)
        let setup = AccessorySetup(
            central: host, items: [DisplayItem(name: "", descriptor: try DiscoveryDescriptor(serviceUUID: DataChannelService.nordicUART.service))],
            store: AccessoryStore(path: directory.file("accessories.json")), logger: Self.logger)
        let candidate = try await setup.choose(timeout: .seconds(30), chooser: KeyboardChooser())
        // First heard is listed first; which one that is depends on timing, the pick is the other one.
        #expect(["nb-peer", "nb-peer2"].contains(candidate.advertisedName ?? ""))
        #expect(candidate.displayName == candidate.advertisedName, "an empty display item name shows the advertised name")
        let result = try await setup.setUp(candidate)
        #expect(result.record.address == candidate.address)
        await host.close()
    }

    @Test("an accessory without a known data channel is not stored; the error lists the services it offers")
    func noDataChannel() async throws {
        let peer = try await BumblePeerProcess(["--services", "test", "--advertise-uuid", "FE9A"])
        defer { peer.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = AccessoryStore(path: directory.file("accessories.json"))
        let host = try await Self.host(peer)
        let setup = AccessorySetup(central: host, items: [DisplayItem(name: "Tag", descriptor: try DiscoveryDescriptor(serviceUUID: BluetoothUUID(0xFE9A)))],
                                   store: store, logger: Self.logger)
        do {
            _ = try await setup.run(timeout: .seconds(30), chooser: ScriptedChooser(.first))
            Issue.record("set up an accessory without a data channel")
        } catch .noDataChannel(let address, let offered, let known) {
            #expect(address == BluetoothAddress("F0:F1:F2:F3:F4:F5"))
            #expect(offered.contains(BluetoothUUID("6E62746B-0001-4A50-9D3F-6E6561726279")!))
            #expect(!offered.contains(DataChannelService.nordicUART.service))
            #expect(known == DataChannelService.known)
            let text = AccessorySetupError.noDataChannel(address: address, offered: offered, known: known).description
            #expect(text.contains("F0:F1:F2:F3:F4:F5 offers no known data channel: its services are "))
            #expect(text.contains("6E62746B-0001-4A50-9D3F-6E6561726279"))
            #expect(text.contains("nearby needs one of Nordic UART (6E400001-B5A3-F393-E0A9-E50E24DCCA9E), Qorvo NI (2E938FD0-6A61-11ED-A1EB-0242AC120002)"))
        } catch {
            Issue.record("unexpected \(error)")
        }
        await host.close()
        #expect(try await store.list().isEmpty)
        #expect(access(store.path, F_OK) != 0)
    }

    @Test("nothing matching before the timeout: a clear error naming what was looked for")
    func nothingFound() async throws {
        let peer = try await BumblePeerProcess()
        defer { peer.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let host = try await Self.host(peer)
        let item = DisplayItem(name: "Tag", descriptor: try DiscoveryDescriptor(serviceUUID: DataChannelService.qorvoNI.service))
        let setup = AccessorySetup(central: host, items: [item], store: AccessoryStore(path: directory.file("a.json")), logger: Self.logger)
        await #expect(throws: AccessorySetupError.nothingFound(items: [item], timeout: .seconds(2))) {
            try await setup.run(timeout: .seconds(2), chooser: ScriptedChooser(.first))
        }
        // Found, but the pick designates nobody.
        let nus = DisplayItem(name: "Tag", descriptor: try DiscoveryDescriptor(serviceUUID: DataChannelService.nordicUART.service))
        let other = AccessorySetup(central: host, items: [nus], store: AccessoryStore(path: directory.file("a.json")), logger: Self.logger)
        do {
            _ = try await other.run(timeout: .seconds(2), chooser: ScriptedChooser(.name("garage")))
            Issue.record("picked something")
        } catch .noMatch(let choice, _, let found) {
            #expect(choice == .name("garage"))
            #expect(found.count == 1 && found[0].contains("F0:F1:F2:F3:F4:F5"))
        } catch {
            Issue.record("unexpected \(error)")
        }
        await host.close()
    }

    @Test("advertising monitor: an advertiser is heard, a silent address is not after listening, sightings are remembered")
    func advertisingMonitor() async throws {
        let peer = try await BumblePeerProcess()
        defer { peer.stop() }
        let host = try await Self.host(peer)
        let monitor = AdvertisingMonitor(central: host, window: .seconds(5), listen: .milliseconds(800), logger: Self.logger)
        let accessory = try #require(BluetoothAddress("F0:F1:F2:F3:F4:F5"))
        let nobody = try #require(BluetoothAddress("C0:00:00:00:00:01"))
        #expect(await monitor.lastHeard(accessory) == nil)
        let asked = ContinuousClock.now
        #expect(await monitor.seenRecently(accessory))
        let heard = try #require(await monitor.lastHeard(accessory))
        #expect(heard >= asked, "heard while listening, after the question")
        // The scan ends with the check (the host stops it once its last stream ends).
        func scanEnds() async throws -> Bool {
            for _ in 0..<200 where await host.scanning { try await Task.sleep(for: .milliseconds(10)) }
            return await !host.scanning
        }
        #expect(try await scanEnds(), "the scan ends with the check")

        let clock = ContinuousClock()
        let start = clock.now
        #expect(await monitor.seenRecently(nobody) == false)
        #expect(start.duration(to: clock.now) >= .milliseconds(790), "listened for the whole 0.8 s")
        #expect(await monitor.lastHeard(accessory)! > heard, "the accessory was heard again meanwhile")
        #expect(try await scanEnds())

        // A sighting reported by another scanner counts without scanning.
        await monitor.heard(nobody)
        #expect(await monitor.seenRecently(nobody))
        #expect(await host.scanning == false)
        // When the scan cannot start (the host is closed), the check says "maybe": try anyway.
        await host.close()
        #expect(await monitor.seenRecently(try #require(BluetoothAddress("C0:00:00:00:00:02"))))
    }

    @Test("a bonded accessory with resolvable private addresses is heard under its identity (stored IRK)")
    func monitorResolvesPrivateAddresses() async throws {
        let irk = try #require(SecurityKey(hex: "ec0234a357c8ad05341010a60a397d9b"))
        let peer = try await BumblePeerProcess(["--rpa-irk", irk.hexString])
        defer { peer.stop() }
        let identity = IdentityAddress(address: try #require(BluetoothAddress("F0:F1:F2:F3:F4:F5")), type: .random)
        let bonds = InMemoryBondStore([Bond(peerIdentity: identity, peerLongTermKey: nil, localLongTermKey: nil, peerIRK: irk,
                                            keySize: 16, authenticated: false, secureConnections: true)])
        let host = try await BLEHost.open(.tcp(host: "127.0.0.1", port: UInt16(peer.port)),
                                          configuration: BLEHostConfiguration(commandTimeout: .seconds(5)),
                                          security: SecurityContext(bonds: bonds), logger: Self.logger)
        let monitor = AdvertisingMonitor(central: host, window: .seconds(5), listen: .seconds(3), logger: Self.logger)
        #expect(await monitor.seenRecently(identity.address), "advertising only from private addresses, found by identity")
        let rpaLine = try #require(peer.lines("RPA address=").first)
        let rpa = try #require(BluetoothAddress(String(rpaLine.dropFirst("RPA address=".count).prefix(17))))
        #expect(rpa != identity.address && rpa.randomAddressKind == .resolvablePrivate)
        #expect(await monitor.lastHeard(rpa) != nil)
        #expect(await monitor.lastHeard(identity.address) != nil)
        await host.close()
    }
}
