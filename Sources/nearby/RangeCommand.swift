import Accessories
import ArgumentParser
import Foundation
import Logging
import LowEnergy
import NearbyConfig
import NearbyInteraction
import NearbySupport
import Ranging
import Simulation
import Synchronization
import UWBDevice

/// `nearby range`: Nearby Interaction with real accessories: BLE data channel, the NI exchange,
/// the dev kit, live distance per accessory.
struct RangeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "range",
        abstract: "Range with UWB accessories the way an iPhone app does: live distance, direction and zone per accessory.",
        discussion: """
            Connects to each ACCESSORY over BLE (--hci), opens its NI data channel (Nordic UART or Qorvo), \
            asks for its configuration, configures the dev kit (--uwb) and ranges. One live line per \
            accessory on a terminal; events (zone changes, lost, retries) scroll above. Ctrl-C stops \
            every session (stop 0x0C to each accessory). With --json, one object per update and event. \
            With --record, every raw sample goes to a trace file (an extra `accessory` column).

            ACCESSORY is a set-up accessory (nearby setup; nearby accessories list): its id, name or \
            address; or any BLE address: F0:F1:F2:F3:F4:F5 (random) or F0:F1:F2:F3:F4:F5/public. \
            --all ranges with every set-up accessory (or, if none is set up, with whatever advertises \
            an NI data channel).

            Hooks run commands on zone changes: --on-enter near -- /usr/bin/logger -t nearby near \
            (the event reaches the command in NEARBY_* environment variables only).

            Example:
              nearby range "Kitchen tag" --hci hci:0 --uwb usb:1915:520f --zones 1.5,3
            """
    )

    @Argument(help: ArgumentHelp("Accessories: set-up accessories (id, name or address) or BLE addresses (F0:F1:F2:F3:F4:F5[/public]).", valueName: "accessory"))
    var accessories: [String] = []

    @Flag(help: "Range with every set-up accessory (if none is set up: every accessory advertising an NI data channel).")
    var all = false

    @Option(help: ArgumentHelp("The BLE controller: hci:N, tcp:HOST:PORT or serial:PATH[@BAUD] (default: the config file's, else hci:0).", valueName: "spec"))
    var hci: String?

    @Flag(name: .customLong("hci-legacy"), help: "Use the legacy (Bluetooth 4.x) scan and connect commands (config: transports.hci_legacy).")
    var hciLegacy = false

    @Option(name: .customLong("own-address"), help: "The own BLE address: random (stored per controller) or public (config: transports.own_address).")
    var ownAddress: HCIOptions.OwnAddressArgument?

    @Option(help: ArgumentHelp("The UWB dev kit: \(UWBDeviceSpec.forms) (default: the config file's, else the only one plugged in).", valueName: "spec"))
    var uwb: String?

    @Option(help: ArgumentHelp("Write every raw range sample to this trace file (CSV).", valueName: "file.csv"))
    var record: String?

    @Option(name: .customLong("scan-seconds"), help: ArgumentHelp("How long --all scans.", valueName: "s"))
    var scanSeconds: Double = 3

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var options: SessionOptions

    func validate() throws {
        let accessories = accessoriesAndHookCommand.accessories
        if all != accessories.isEmpty {
            throw ValidationError(all ? "give accessories or --all, not both" : "name at least one accessory or use --all (nearby accessories list shows them)")
        }
        if let hci {
            do {
                _ = try HCITransportSpec(parsing: hci)
            } catch {
                throw ValidationError("--hci: \(error)")
            }
        }
        if let uwb { _ = try UWBClientSetup.spec(uwb) }
        guard scanSeconds > 0 else { throw ValidationError("--scan-seconds must be > 0") }
    }

    /// The accessories and the hook command: ArgumentParser appends what follows `--` to the
    /// one positional array, so the command is split off by the process's own arguments.
    var accessoriesAndHookCommand: (accessories: [String], command: [String]) {
        let arguments = CommandLine.arguments
        guard let terminator = arguments.firstIndex(of: "--") else { return (accessories, []) }
        let command = Array(arguments[(terminator + 1)...])
        guard command.count <= accessories.count, Array(accessories.suffix(command.count)) == command else { return (accessories, []) }
        return (Array(accessories.dropLast(command.count)), command)
    }

    func run() async throws {
        let (accessories, hookCommand) = accessoriesAndHookCommand
        let settings = try options.settings(
            transports: TransportSettings(hci: hci, uwb: uwb, hciLegacy: hciLegacy ? true : nil, ownAddress: ownAddress?.rawValue),
            hookCommand: hookCommand)
        let configuration = try options.sessionConfiguration(settings)
        let hci = settings.transports.hci ?? "hci:0"
        let logger = Logger(label: "nearby")
        let store = storeOptions.open()
        if !all {
            // Unknown names fail before any device is opened.
            _ = try await resolveRangeTargets(accessories, all: false, store: store)
        }
        let start = MonotonicTime.seconds()
        let screen = RangeScreen(mode: RangeScreen.mode(json: settings.output.json ?? false), zones: configuration.zones, start: start)
        let uwbSpec: UWBDeviceSpec
        do {
            uwbSpec = try settings.transports.uwb.map(UWBClientSetup.spec) ?? Self.onlyDevKit()
        } catch {
            UWBConsole.error("error: \(error)")
            throw ExitCode(1)
        }

        // The dev kit first: without it there is nothing to range with.
        let client: UCIClient
        do {
            client = UCIClient(transport: try UWBClientSetup.transport(for: uwbSpec, logger: logger), logger: logger)
            try await client.open()
        } catch {
            UWBConsole.error("error: \(error)")
            throw ExitCode(1)
        }
        let host: BLEHost
        do {
            // Bonded accessories are encrypted with their stored keys; this host's stored
            // identity makes it the central they paired with.
            let configuration = BLEHostConfiguration(
                ownAddress: settings.transports.ownAddress == "public" ? .public : .randomStatic(nil),
                commandSet: settings.transports.hciLegacy == true ? .legacy : .automatic)
            host = try await BLEHost.open(try HCITransportSpec(parsing: hci), configuration: configuration,
                                          security: store.securityContext(), logger: logger)
        } catch {
            UWBConsole.error("error: --hci \(hci): \(error)")
            await client.close()
            throw ExitCode(1)
        }
        var advertisers: [Advertisement] = []
        if all, (try? await store.list())?.isEmpty ?? true {
            screen.note("no accessory is set up (nearby setup); scanning \(scanSeconds) s for NI accessories")
            advertisers = await Self.scan(host, seconds: scanSeconds)
            if advertisers.isEmpty { screen.note("no accessory advertising Nordic UART or Qorvo NI found in \(scanSeconds) s") }
        }
        let targets: [RangeTarget]
        do {
            targets = try await resolveRangeTargets(accessories, all: all, store: store, advertisers: advertisers)
        } catch {
            UWBConsole.error("error: \(error)")
            await host.close()
            await client.close()
            throw NearbyExit.usage
        }

        var recorder: TraceRecorder?
        if let record {
            do {
                recorder = try TraceRecorder(path: record, start: start)
            } catch {
                UWBConsole.error("error: --record: \(error)")
                await host.close()
                await client.close()
                throw ExitCode(1)
            }
        }
        let manager = NearbySessionManager(client: client, configuration: configuration, logger: logger)
        let hooks = options.hookRunner(settings).map { SessionHooks(runner: $0, zones: configuration.zones, screen: screen) }
        let loop = SessionEventLoop(screen: screen, recorder: recorder, hooks: hooks)
        for target in targets { loop.add(target.identity) }
        // A set-up accessory's last-seen time is updated once it ranges.
        let recordIDs = Dictionary(targets.compactMap { t in t.recordID.map { (t.identity.id, $0) } }, uniquingKeysWith: { a, _ in a })
        let consumer = Task {
            var seen = Set<String>()
            await loop.run(manager.events) { event, _ in
                guard case .state(.ranging) = event.kind, let id = event.accessory?.id, let recordID = recordIDs[id],
                    seen.insert(id).inserted
                else { return }
                Task { _ = try? await store.touch(recordID) }
            }
        }

        // While a data channel is down, a reconnection is tried only if the accessory advertises.
        let monitor = AdvertisingMonitor(host: host, logger: logger)
        var channels: [any DataChannel] = []
        for target in targets {
            do {
                let channel = try await GATTDataChannel.connect(
                    host: host, address: target.address, type: target.addressType, services: target.services)
                channels.append(channel)
                var perAccessory = configuration
                let address = target.address
                perAccessory.advertisingSeenRecently = { await monitor.seenRecently(address) }
                try await manager.add(target.identity, channel: channel, configuration: perAccessory)
            } catch {
                screen.note("error: \(target.identity): cannot connect: \(error)")
            }
        }

        // Until Ctrl-C / SIGTERM, or until every session ended by itself.
        let sessions = await manager.allSessions
        let interrupted = await waitForSignalOr {
            for session in sessions where await !session.state.isFinal { return false }
            return true
        }
        await manager.stop()
        await consumer.value
        await hooks?.end(interrupted: interrupted)
        for channel in channels { await channel.close() }
        await host.close()
        await client.close()
        recorder?.close()
        screen.note((interrupted ? "stopped; " : "") + "summary:")
        for line in loop.summaryLines { screen.note("  " + line) }
        let ranged = loop.tallies.contains { $0.measured > 0 }
        if !interrupted || !ranged { throw ExitCode(1) }
    }

    /// The dev kit when exactly one known kit is on USB.
    static func onlyDevKit() throws -> UWBDeviceSpec {
        let kits = try UWBDeviceDiscovery.usbDevices()
        guard kits.count == 1, let kit = kits.first else {
            throw ValidationError(
                kits.isEmpty
                    ? "no UWB dev kit found on USB; plug one in or name it with --uwb (nearby uwb list shows what is there)"
                    : "\(kits.count) dev kits found (\(kits.map(\.spec.description).joined(separator: ", "))); choose one with --uwb")
        }
        return kit.spec
    }

    /// Advertisers of an NI data-channel service seen within `seconds`.
    static func scan(_ host: BLEHost, seconds: Double) async -> [Advertisement] {
        let services = DataChannelService.known.map(\.service)
        let found = Mutex<[Advertisement]>([])
        guard let stream = try? await host.scan() else { return [] }
        _ = try? await withTimeout(.milliseconds(Int64(seconds * 1000)), operation: "scanning") {
            for await advertisement in stream where advertisement.data.serviceUUIDs.contains(where: services.contains) {
                found.withLock { $0.append(advertisement) }
            }
            return true
        }
        await host.stopScanning()
        return found.withLock { $0 }
    }
}
