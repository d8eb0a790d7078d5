import Accessories
import BlueZ
import Foundation
import LowEnergy
import NearbyInteraction
import NearbyTestSupport
import Ranging
import Simulation
import Testing
import UCI
import UWBDevice
import NIProtocol

/// The whole NI flow over real bytes: our BLE host speaks HCI over TCP to Bumble's virtual
/// controller, the Bumble NI accessory (Tests/Peers/blepeer/ni_accessory.py) answers over GATT
/// and drives its own UWBS; our UCI client drives another; both UWBSs are devices of one
/// virtual UWBS server over TCP, ranging in the same simulated scene.
@Suite(.serialized) struct SessionBumbleEndToEndTests {
    /// Which backend carries the BLE side: this program's own host over HCI to Bumble's
    /// controller, or BlueZ (the mock bluetoothd of Tests/Peers/bluez_mock.py on a private bus,
    /// whose radio is the same Bumble controller).
    enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case host, bluez
        var testDescription: String { self == .host ? "own host over HCI" : "BlueZ over D-Bus" }
    }

    /// A virtual UWBS server, the Bumble NI accessory ranging through it, a central (our host or
    /// BlueZ) connected to the accessory's data channel, and our UCI client on the server.
    struct Rig {
        private static let testService = BluetoothUUID("6E62746B-0001-4A50-9D3F-6E6561726279")!
        private static let testControl = BluetoothUUID("6E62746B-0002-4A50-9D3F-6E6561726279")!

        let world: VirtualUWBSWorld
        let server: VirtualUWBSServer
        let peer: ChildProcess
        let bluez: BlueZMockProcess?
        let central: any BLECentral
        let address: BluetoothAddress
        let channel: any DataChannel
        let client: UCIClient

        /// - Parameter environment: `NEARBY_NI_*` settings of the accessory (its MAC, role, longer
        ///   configuration data, slots).
        static func start(seed: UInt64, backend: Backend = .host, environment: [String: String] = [:]) async throws -> Rig {
            let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, seed: seed, clock: .realTime(speed: 2), logger: sessionTestLogger)
            let server = try VirtualUWBSServer(world: world, port: 0, logger: sessionTestLogger)
            let (peer, hciPort) = try await NIAccessoryPeer.start(uwbs: "127.0.0.1:\(server.port)", environment: environment)
            let address = try #require(BluetoothAddress(NIAccessoryPeer.address))
            var bluez: BlueZMockProcess?
            let central: any BLECentral
            switch backend {
            case .host:
                central = try await BLEHost.open(.tcp(host: "127.0.0.1", port: UInt16(hciPort)), logger: sessionTestLogger)
            case .bluez:
                let mock = try await BlueZMockProcess(hciPort: hciPort)
                bluez = mock
                central = try await BlueZCentral.open(adapter: nil, bus: .address(mock.bus.address), logger: sessionTestLogger)
            }
            let channel = try await central.openDataChannel(to: address, type: .random, timeout: .seconds(10), services: DataChannelService.known)
            let client = UCIClient(
                transport: try UWBDeviceSpec(parsing: "tcp:127.0.0.1:\(server.port)").makeTransport(logger: sessionTestLogger),
                logger: sessionTestLogger)
            try await client.open()
            return Rig(world: world, server: server, peer: peer, bluez: bluez, central: central, address: address, channel: channel, client: client)
        }

        /// Writes `command` to the peer's test-control characteristic (0x08 link loss, 0x09
        /// vanish, 0x20 03 the accessory stops its session and sends 0x03): over the own host's
        /// GATT client, or with `WriteValue` through BlueZ.
        func control(_ command: [UInt8]) async throws {
            if let channel = channel as? GATTDataChannel {
                let connection = try #require(await channel.connection)
                let service = try #require(try await connection.gatt.discoverPrimaryServices(uuid: Self.testService).first)
                let control = try #require(try await connection.gatt.discoverCharacteristics(of: service).first { $0.uuid == Self.testControl })
                try await connection.gatt.write(command, to: control)
                return
            }
            let bluez = try #require((central as? BlueZCentral)?.bluez)
            let device = bluez.adapterPath + "/dev_" + NIAccessoryPeer.address.split(separator: ":").joined(separator: "_")
            let control = try #require(bluez.objects(with: "org.bluez.GattCharacteristic1", under: device).first {
                $0.properties["UUID"]?.string == Self.testControl.uuidString.lowercased() })
            _ = try await bluez.call(control.path, "org.bluez.GattCharacteristic1", "WriteValue",
                                     [.bytes(command), .properties(["type": .string("request")])])
        }

        /// How many times the channel subscribed to the accessory's TX (once per connection).
        var subscriptions: Int {
            get async {
                if let channel = channel as? GATTDataChannel { return await channel.subscriptionCount }
                return bluez?.lines("BLUEZ-ACQUIRE-NOTIFY").count ?? 0
            }
        }

        func shutdown() async {
            await channel.close()
            await central.close()
            await client.close()
            await server.stop()
            await world.shutdown()
            bluez?.stop()
        }
    }

    /// Eight Bumble accessories range at 100 Hz (10 ms); every BLE link of the controller is lost
    /// at once (SIGUSR1 to the peer: LINK-LOSS-ALL): every session reports the link loss,
    /// reconnects, starts over and ranges again, without a restart. The time until all eight
    /// range again is printed (a figure for specs/soak.md, not a limit).
    @Test func severalLinksLostAtOnceUnderLoadAllResume() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, seed: 3, logger: sessionTestLogger)
        let server = try VirtualUWBSServer(
            world: world, port: 0, configuration: VirtualUWBSConfiguration(maximumSessions: 8), logger: sessionTestLogger)
        let (peer, hciPort) = try await NIAccessoryPeer.start(uwbs: "127.0.0.1:\(server.port)", arguments: ["--accessories", "8"])
        defer { peer.terminate() }
        let host = try await BLEHost.open(.tcp(host: "127.0.0.1", port: UInt16(hciPort)), logger: sessionTestLogger)
        let client = UCIClient(
            transport: try UWBDeviceSpec(parsing: "tcp:127.0.0.1:\(server.port)").makeTransport(logger: sessionTestLogger),
            logger: sessionTestLogger)
        try await client.open()
        // Every 10 ms: 4 slots of 300 RSTU, a 1 ms round, so that the eight sessions' rounds fit
        // the host kit's one radio together (specs/virtual-uwbs.md §3).
        var configuration = fastSessionConfiguration(maxAttempts: 8, lostAfter: 3)
        configuration.planning = SessionPlanningOptions(slotsPerRound: 4, slotDurationRSTU: 300, rangingIntervalMS: 10)
        let manager = NearbySessionManager(client: client, configuration: configuration, logger: sessionTestLogger)
        let recorder = EventRecorder(manager.events)
        let addresses = (0..<8).map { "F0:F1:F2:F3:F4:" + String(0xF5 + $0, radix: 16, uppercase: true) }
        var channels: [GATTDataChannel] = []
        for address in addresses {
            let channel = try await GATTDataChannel.connect(host: host, address: try #require(BluetoothAddress(address)), type: .random)
            channels.append(channel)
            try await manager.add(AccessoryIdentity(id: address, displayName: address), channel: channel)
        }
        for address in addresses { try await recorder.waitForUpdates(10, of: address, timeout: .seconds(60)) }
        #expect(Set(addresses.compactMap { recorder.configurations(of: $0).first?.0.accessoryAddress }).count == 8, "eight UWB addresses")

        let before = addresses.map { recorder.updates(of: $0).count }
        let clock = ContinuousClock()
        let dropped = clock.now
        peer.signal(SIGUSR1)
        do {
            try await peer.waitForOutput("LINK-LOSS-ALL")
        } catch {
            let status = (try? String(contentsOfFile: "/proc/\(peer.pid)/status", encoding: .utf8)) ?? ""
            Issue.record("the peer did not drop its links: \(status.split(separator: "\n").filter { $0.hasPrefix("Sig") || $0.hasPrefix("State") }) \(peer.stderr.suffix(3000))")
            throw error
        }
        #expect(peer.stdout.contains("LINK-LOSS-ALL links=8"), "every link dropped at once: \(peer.stdout.split(separator: "\n").filter { $0.hasPrefix("LINK") })")
        var resumed: [String: Duration] = [:]
        while resumed.count < addresses.count, clock.now - dropped < .seconds(90) {
            for (index, address) in addresses.enumerated() where resumed[address] == nil {
                if recorder.configurations(of: address).count >= 2, recorder.updates(of: address).count > before[index] + 3 {
                    resumed[address] = clock.now - dropped
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // What an accessory that did not come back went through (states, retries, errors).
        let stuck = addresses.filter { resumed[$0] == nil }.map { address in
            "\(address): states \(recorder.states(of: address).suffix(12)), retries \(recorder.retries(of: address).suffix(6)), "
                + "errors \(recorder.errors(of: address).suffix(3)), configurations \(recorder.configurations(of: address).count)"
        }
        #expect(resumed.count == 8, "every accessory ranges again after the links were lost: \(resumed)\n\(stuck.joined(separator: "\n"))")
        for address in addresses {
            #expect(recorder.retries(of: address).contains { $0.reason == .linkLost(.connectionTimeout) && $0.action == .reconnect })
        }
        print("8 links lost at once at 100 Hz: all ranging again after \(resumed.values.max().map { "\($0)" } ?? "-") "
              + "(first after \(resumed.values.min().map { "\($0)" } ?? "-"))")
        await manager.stop()
        for channel in channels { await channel.close() }
        await host.close()
        await client.close()
        await server.stop()
        await world.shutdown()
    }

    @Test(arguments: Backend.allCases)
    func rangesWithTheBumbleAccessoryAndRecoversALinkLoss(backend: Backend) async throws {
        let rig = try await Rig.start(seed: 1, backend: backend)
        defer {
            rig.peer.terminate()
            rig.bluez?.stop()
        }
        let (peer, channel, client) = (rig.peer, rig.channel, rig.client)
        let manager = NearbySessionManager(
            client: client, configuration: fastSessionConfiguration(lostAfter: 3), logger: sessionTestLogger)
        let recorder = EventRecorder(manager.events)
        let id = NIAccessoryPeer.address
        try await manager.add(AccessoryIdentity(id: id, displayName: "bumble"), channel: channel)

        let updates = try await recorder.waitForUpdates(5, of: id)
        #expect(updates.suffix(3).allSatisfy { abs(($0.distance ?? 0) - 2.0) < 0.01 }, "\(updates.suffix(3))")
        let (plan, latency) = try #require(recorder.configurations(of: id).first)
        #expect(plan.accessoryAddress == 0x0A01 && plan.hostParameters.deviceType == .controller)
        print("latency over \(backend.testDescription) (Bumble) and TCP (virtual UWBS): \(latency); 0x0A -> 0x01 -> 0x0B \(latency.exchange)")
        // Measured and split (the 5 ms budget is checked by SessionBenchmarks, not by a wall clock here).
        #expect(latency.ownWork > .zero && latency.send > .zero && latency.ownWork + latency.uwbConfiguration + latency.send == latency.total, "\(latency)")
        #expect(latency.initialize > .zero && latency.exchange == latency.initialize + latency.total)
        try await peer.waitForOutput(String(format: "NI-START session=0x%08X channel=9", plan.sessionID))
        #expect(peer.stdout.contains("RECEIVED channel=nus length=1 data=0a"))
        #expect(peer.stdout.contains("RECEIVED channel=nus length=31 data=0b"), "configureAndStart: ID + 30-byte v1.1 shareable data")
        if let bluez = rig.bluez {
            // The data channel went through BlueZ's sockets, not a D-Bus call per message.
            #expect(bluez.lines("BLUEZ-ACQUIRE-NOTIFY").count == 1 && bluez.lines("BLUEZ-ACQUIRE-WRITE").count == 1, "\(bluez.process.stdout)")
            #expect(bluez.lines("BLUEZ-WRITE-VALUE").filter { !$0.contains("length=1 ") }.isEmpty, "messages are written through the socket")
        }

        // Link loss (the test-control service drops the link on both sides): reconnect, start over.
        try await rig.control([0x08])
        try await recorder.waitFor("a second configuration", timeout: .seconds(60)) { _ in recorder.configurations(of: id).count == 2 }
        let before = recorder.updates(of: id).count
        try await recorder.waitForUpdates(before + 3, of: id)
        let retry = try #require(recorder.retries(of: id).first)
        // BlueZ before 5.72 does not say why a link ended.
        #expect(retry.reason == .linkLost(backend == .host ? .connectionTimeout : .unspecifiedError) && retry.action == .reconnect, "\(retry)")
        try await peer.waitForOutput("NI-LINK-LOST")
        #expect(await rig.subscriptions == 2, "subscribed once per connection")

        await manager.stop()
        try await peer.waitForOutput("NI-STOP")
        try await recorder.waitForEnd()
        #expect(recorder.states(of: id).last == .stopped)
        await rig.shutdown()
    }

    /// The configuration exchange (0x0A sent -> 0x01 arrived -> 0x0B sent) over both backends in
    /// the same run, ten fresh connections each, against the same Bumble NI accessory and virtual
    /// UWBS: the figures of specs/ble-bluez.md (printed; a wall clock is not asserted).
    @Test func configurationExchangeTimesOverBothBackends() async throws {
        var lines: [String] = []
        for backend in Backend.allCases {
            let rig = try await Rig.start(seed: 5, backend: backend)
            defer {
                rig.peer.terminate()
                rig.bluez?.stop()
            }
            await rig.channel.close()
            var samples: [SessionLatency] = []
            for _ in 0..<10 {
                let channel = try await rig.central.openDataChannel(
                    to: rig.address, type: .random, timeout: .seconds(20), services: DataChannelService.known)
                let manager = NearbySessionManager(client: rig.client, configuration: fastSessionConfiguration(), logger: sessionTestLogger)
                let recorder = EventRecorder(manager.events)
                try await manager.add(AccessoryIdentity(id: NIAccessoryPeer.address, displayName: "bumble"), channel: channel)
                try await recorder.waitFor("configured", timeout: .seconds(60)) { _ in !recorder.configurations(of: NIAccessoryPeer.address).isEmpty }
                samples += recorder.configurations(of: NIAccessoryPeer.address).map(\.1)
                await manager.stop()
                await channel.close()
            }
            #expect(samples.count == 10 && samples.allSatisfy { $0.initialize > .zero && $0.exchange > $0.total }, "\(samples)")
            func ms(_ values: [Duration]) -> String {
                let sorted = values.map { Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15 }.sorted()
                let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
                return String(format: "median %.2f ms (min %.2f, max %.2f)", median, sorted.first ?? 0, sorted.last ?? 0)
            }
            lines.append("\(backend.testDescription): 0x0A -> 0x01 \(ms(samples.map(\.initialize))); 0x01 -> 0x0B \(ms(samples.map(\.total)))"
                + " (of which the 0x0B write \(ms(samples.map(\.send)))); 0x0A -> 0x0B \(ms(samples.map(\.exchange)))")
            await rig.shutdown()
        }
        print("configuration exchange, 10 connections per backend, same run:\n" + lines.joined(separator: "\n"))
    }

    /// The accessory goes out of range (link lost, no advertising) for 3 s: while it is not heard
    /// advertising no reconnection is tried (retries say `notNearby`); once it advertises again
    /// the session reconnects, starts over and ranges.
    @Test(arguments: Backend.allCases)
    func anAccessoryOutOfRangeIsNotReconnectedUntilItAdvertisesAgain(backend: Backend) async throws {
        let rig = try await Rig.start(seed: 2, backend: backend)
        defer {
            rig.peer.terminate()
            rig.bluez?.stop()
        }
        let (peer, central, channel, client, address) = (rig.peer, rig.central, rig.channel, rig.client, rig.address)
        let monitor = AdvertisingMonitor(central: central, window: .seconds(5), listen: .milliseconds(700), logger: sessionTestLogger)
        var configuration = fastSessionConfiguration(maxAttempts: 12)
        configuration.advertisingSeenRecently = { await monitor.seenRecently(address) }
        let manager = NearbySessionManager(client: client, configuration: configuration, logger: sessionTestLogger)
        let recorder = EventRecorder(manager.events)
        let id = NIAccessoryPeer.address
        try await manager.add(AccessoryIdentity(id: id, displayName: "bumble"), channel: channel)
        try await recorder.waitForUpdates(3, of: id)

        try await rig.control([0x09, 3])  // vanish, back after 3 s
        try await peer.waitForOutput("VANISHED back_after=3")
        try await recorder.waitFor("a second configuration", timeout: .seconds(60)) { _ in recorder.configurations(of: id).count == 2 }
        let before = recorder.updates(of: id).count
        try await recorder.waitForUpdates(before + 3, of: id)
        #expect(peer.stdout.contains("ADVERTISING-AGAIN"))

        let retries = recorder.retries(of: id)
        #expect(retries.first?.reason == .linkLost(backend == .host ? .connectionTimeout : .unspecifiedError), "\(retries)")
        let skipped = retries.filter { $0.reason == .notNearby }
        // How many 0.7 s checks fit in the 3 s depends on the machine's load; at least one did,
        // and (below) no connection was tried while the accessory was away.
        #expect(skipped.count >= 1, "checks while out of range: \(retries)")
        #expect(skipped.allSatisfy { $0.action == .reconnect })
        // Nothing was tried while it was away: one connection before, one after.
        #expect(peer.stdout.split(separator: "\n").filter { $0.hasPrefix("CONNECTED ") }.count == 2, "\(peer.stdout)")
        #expect(await monitor.lastHeard(address) != nil)

        await manager.stop()
        try await recorder.waitForEnd()
        await rig.shutdown()
    }
}
