import Accessories
import ArgumentParser
import Foundation
import Logging
import LowEnergy
import NearbyRuntime
import NearbyTerminal
import NearbyWeb
import NearbyConfig
import NearbyMQTT
import NearbyInteraction
import NearbySupport
import Ranging
import Simulation
import Synchronization
import UWBDevice
import NIProtocol

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

            Pairing: bonded accessories are encrypted with their stored keys; an accessory that asks \
            for security (a Security Request, or an ATT error) is paired Just Works within the \
            pairing policy, and refusals (a bond it would weaken or take over, the debug key \
            without --allow-debug-keys, repeated requests) are printed as events, with --json as \
            objects with "event":"security" (docs/pairing.md).

            Hooks run commands on zone changes: --on-enter near -- /usr/bin/logger -t nearby near \
            (the event reaches the command in NEARBY_* environment variables only).

            Example:
              nearby range "Kitchen tag" --hci bluez --uwb usb:1915:520f --zones 1.5,3
            """
    )

    @Argument(help: ArgumentHelp("Accessories: set-up accessories (id, name or address) or BLE addresses (F0:F1:F2:F3:F4:F5[/public]).", valueName: "accessory"))
    var accessories: [String] = []

    @Flag(help: "Range with every set-up accessory (if none is set up: every accessory advertising an NI data channel).")
    var all = false

    @Option(help: ArgumentHelp("Bluetooth: bluez[:hciN] (bluetoothd, the adapter stays shared), hci:N, tcp:HOST:PORT or serial:PATH[@BAUD] (default: the config file's, else bluez when bluetoothd owns a powered adapter, else hci:0).", valueName: "spec"))
    var hci: String?

    @Flag(name: .customLong("hci-legacy"), help: "Use the legacy (Bluetooth 4.x) scan and connect commands (config: transports.hci_legacy).")
    var hciLegacy = false

    @Option(name: .customLong("own-address"), help: "The own BLE address: random (stored per controller) or public (config: transports.own_address).")
    var ownAddress: HCIOptions.OwnAddressArgument?

    @Option(help: ArgumentHelp("The UWB dev kit: \(UWBDeviceTarget.forms) (default: the config file's, else the only one plugged in).", valueName: "spec"))
    var uwb: String?

    @Option(help: ArgumentHelp("Write every raw range sample to this trace file (CSV).", valueName: "file.csv"))
    var record: String?

    @Option(name: .customLong("scan-seconds"), help: ArgumentHelp("How long --all scans.", valueName: "s"))
    var scanSeconds: Double = 3

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var pairingPolicy: PairingPolicyOptions

    @OptionGroup var options: SessionOptions

    @OptionGroup var uciLog: UCILogOptions

    @OptionGroup var hciLog: HCILogOptions

    func validate() throws {
        if all != accessories.isEmpty {
            throw ValidationError(all ? "give accessories or --all, not both" : "name at least one accessory or use --all (nearby accessories list shows them)")
        }
        if let problem = hci.flatMap(TransportValidators.specs.hci) { throw ValidationError("--hci: \(problem)") }
        if let uwb { _ = try UWBClientSetup.spec(uwb) }
        guard scanSeconds > 0 else { throw ValidationError("--scan-seconds must be > 0") }
    }

    func run() async throws {
        let configuration = try options.settings(
            transports: TransportSettings(hci: hci, uwb: uwb, hciLegacy: hciLegacy ? true : nil, ownAddress: ownAddress?.rawValue),
            hookCommand: HookCommandLine.command)
        let settings = try options.runSettings(configuration)
        let choice = try await BluetoothBackends.resolve(configuration.transports.hci)
        let hci = choice.spec
        if hci.isBlueZ, hciLog.path != nil { throw ValidationError(HCIOptions.hciLogWithBlueZ) }
        if hci.isBlueZ, pairingPolicy.allowDebugKeys { throw ValidationError(PairingPolicyOptions.debugKeysWithBlueZ) }
        let logger = Logger(label: "nearby")
        let store = storeOptions.open()
        if !all {
            // Unknown names fail before any device is opened.
            _ = try await targets(accessories, store: store)
        }
        let uwbSpec = try configuration.transports.uwb.map(UWBClientSetup.spec)
        let captures = try CaptureFiles(uci: uciLog, hci: hciLog, interface: uwbSpec?.description ?? "uwb")
        defer { captures.finish() }
        let web = try await options.web.start(source: "range", configuration: configuration)
        let live: LiveRanging
        do {
            // Bonded accessories are encrypted with their stored keys; this host's stored identity
            // makes it the central they paired with.
            let host = BLEHostConfiguration(
                ownAddress: configuration.transports.ownAddress == "public" ? .public : .randomStatic(nil),
                commandSet: configuration.transports.hciLegacy == true ? .legacy : .automatic)
            live = try await LiveRanging.open(
                uwb: uwbSpec, hci: hci, host: host, security: store.securityContext(configuration: pairingPolicy.apply(to: SecurityConfiguration())), settings: settings, uciCapture: captures.uci,
                hciCapture: captures.hci, logger: logger)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        let session = TerminalRun(source: live, json: configuration.output.json ?? false, zones: settings.zones, stop: { await web?.stop() })
        let screen = session.screen
        if let web { screen.note(web.announcement) }
        var advertisers: [Advertisement] = []
        if all, (try? await store.list())?.isEmpty ?? true {
            screen.note("no accessory is set up (nearby setup); scanning \(scanSeconds) s for NI accessories")
            advertisers = await live.scanForAccessories(seconds: scanSeconds)
            if advertisers.isEmpty { screen.note("no accessory advertising Nordic UART or Qorvo NI found in \(scanSeconds) s") }
        }
        let targets: [RangeTarget]
        do {
            targets = try await self.targets(accessories, store: store, advertisers: advertisers)
        } catch {
            Console.error("error: \(error)")
            await session.abandon()
            throw NearbyExit.usage
        }
        session.add(StoreTouchOutput(store: store, targets: targets))
        session.add(web?.output)
        try await session.record(to: record)
        try await session.add { try options.mqtt.publisher(configuration, configPath: options.config.path, role: .range, webURL: web?.url, notes: { screen.note($0) }) }
        // Until Ctrl-C / SIGTERM, or until every session ended by itself.
        let (interrupted, summary) = await session.run(
            accessories: targets.map(\.identity), hooks: settings.hookRunner(), startSessions: { run in await live.connect(targets) { run.note($0) } },
            until: { await live.allSessionsEnded })
        if !interrupted || !summary.anythingRanged { throw ExitCode(1) }
    }

    /// The targets the arguments (or `--all`) name.
    /// - Throws: `ValidationError` naming an argument that matches nothing.
    private func targets(_ accessories: [String], store: AccessoryStore, advertisers: [Advertisement] = []) async throws -> [RangeTarget] {
        do {
            return try await resolveRangeTargets(accessories, all: all, store: store, advertisers: advertisers)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
