import Accessories
import ArgumentParser
import Foundation
import Logging
import LowEnergy
import NIProtocol
import NearbyConfig
import NearbyInteraction
import NearbyRuntime
import NearbyWeb
import Simulation
import UCI
import UWBDevice
import NearbyTerminal

/// `nearby accessory`: this host as a Nearby Interaction accessory that phones range with.
struct AccessoryRoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accessory",
        abstract: "Be a UWB accessory: iPhones and Android phones find this host over BLE and range with its dev kit.",
        discussion: """
            Advertises the data-channel service (--service: qnis for Qorvo's Nearby Interaction app, the \
            default; nus for Apple's sample app "Implementing spatial interactions with third-party \
            accessories"; apple adds Apple's NI service) with the name (--name) in the scan response, \
            serves the GATT database, and answers each phone's NI messages: its accessory configuration \
            data from the dev kit (--uwb), then the session the phone asks for (controlee / responder by \
            default). One live line per connected phone on a terminal; with --json one object per update \
            and event. Hooks get the phone's id in NEARBY_ACCESSORY_ID. Ctrl-C stops every session (0x03 \
            to each phone).

            Example:
              nearby accessory --hci hci:0 --uwb usb:1915:520f --name "front door" \\
                --on-enter near -- /usr/bin/loginctl unlock-sessions
            """
    )

    @Option(help: ArgumentHelp("The BLE controller: hci:N, tcp:HOST:PORT or serial:PATH[@BAUD] (default: the config file's, else hci:0).", valueName: "spec"))
    var hci: String?

    @Flag(name: .customLong("hci-legacy"), help: "Use the legacy (Bluetooth 4.x) advertising commands (config: transports.hci_legacy).")
    var hciLegacy = false

    @Option(help: ArgumentHelp("The UWB dev kit: \(UWBDeviceTarget.forms) (default: the config file's, else the only one plugged in).", valueName: "spec"))
    var uwb: String?

    @Option(help: ArgumentHelp("The name phones see (default: the config file's, else nearby).", valueName: "name"))
    var name: String?

    @Option(name: .customLong("service"), help: ArgumentHelp("Services, comma-separated, the first data channel advertised: qnis, nus, apple (default qnis).", valueName: "list"))
    var services: String?

    @Option(name: .customLong("config-version"), help: ArgumentHelp("UWB config data layout announced: 1.0 or 1.1 (default 1.1).", valueName: "version"))
    var configVersion: String?

    @Option(help: ArgumentHelp("The role announced: responder (default) or initiator.", valueName: "role"))
    var role: String?

    @Option(help: ArgumentHelp("A fixed UWB short MAC address in hex (default: one stored per kit beside the store).", valueName: "hex"))
    var mac: String?

    @Option(name: .customLong("max-phones"), help: ArgumentHelp("Phones at once, 1-8 (default 4); advertising pauses at the limit.", valueName: "n"))
    var maxPhones: Int?

    @Option(name: .customLong("advertising-interval"), help: ArgumentHelp("Advertising interval, ms, 20-10240 (default 100).", valueName: "ms"))
    var advertisingInterval: Double?

    @Option(help: ArgumentHelp("Write every raw range sample to this trace file (CSV, with the phone in the accessory column).", valueName: "file.csv"))
    var record: String?

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var options: SessionOptions

    func validate() throws {
        if let hci {
            do {
                _ = try HCITransportSpec(parsing: hci)
            } catch {
                throw ValidationError("--hci: \(error)")
            }
        }
        if let uwb { _ = try UWBClientSetup.spec(uwb) }
        _ = try roleOverlay()
    }

    /// The flags as an `[accessory]` overlay.
    private func roleOverlay() throws -> AccessoryRoleFileSettings {
        var flags = AccessoryRoleFileSettings(name: name, configVersion: configVersion, role: role, maxPhones: maxPhones,
                                              advertisingIntervalMilliseconds: advertisingInterval)
        if let services {
            let names = services.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard !names.isEmpty, names.allSatisfy(AccessoryRoleFileSettings.serviceNames.contains) else {
                throw ValidationError("--service must list qnis, nus or apple, not \"\(services)\"")
            }
            flags.services = names
        }
        if let mac {
            guard let address = AccessoryRoleFileSettings.address(mac) else { throw ValidationError("--mac must be 1-4 hex digits, 0001-FFFE, not \"\(mac)\"") }
            flags.mac = address
        }
        if let configVersion, configVersion != "1.0", configVersion != "1.1" { throw ValidationError("--config-version must be 1.0 or 1.1") }
        if let role, role != "responder", role != "initiator" { throw ValidationError("--role must be responder or initiator") }
        if let maxPhones, !(1...8).contains(maxPhones) { throw ValidationError("--max-phones must be 1-8, not \(maxPhones)") }
        if let advertisingInterval, !(20...10_240).contains(advertisingInterval) {
            throw ValidationError("--advertising-interval must be 20-10240 ms, not \(advertisingInterval)")
        }
        if options.mqtt.url != nil { throw ValidationError("--mqtt is not supported by nearby accessory yet") }
        return flags
    }

    func run() async throws {
        var configuration = try options.settings(
            transports: TransportSettings(hci: hci, uwb: uwb, hciLegacy: hciLegacy ? true : nil), hookCommand: HookCommandLine.command)
        configuration.accessory = configuration.accessory.overridden(by: try roleOverlay())
        let settings = try options.runSettings(configuration)
        let file = configuration.accessory
        let role = AccessoryRoleSettings(
            name: file.name ?? "nearby", services: (file.services ?? ["qnis"]).compactMap(AccessoryRoleSettings.Service.init(rawValue:)),
            layout: file.configVersion == "1.0" ? .v1_0 : .v1_1, role: file.role == "initiator" ? .initiator : .responder, address: file.mac,
            maximumPhones: file.maxPhones ?? 4, advertisingIntervalMilliseconds: file.advertisingIntervalMilliseconds ?? 100,
            keyByteOrder: settings.session.planning.keyByteOrder)
        let hci = try HCITransportSpec(parsing: configuration.transports.hci ?? "hci:0")
        let store = storeOptions.open()
        let logger = Logger(label: "nearby")
        let web = try await options.web.start(source: "accessory", configuration: configuration)
        let live: AccessoryRanging
        do {
            live = try await AccessoryRanging.open(
                uwb: try configuration.transports.uwb.map(UWBClientSetup.spec), hci: hci, role: role,
                addresses: UWBAddressStore(besideStore: store.path),
                host: BLEHostConfiguration(commandSet: configuration.transports.hciLegacy == true ? .legacy : .automatic),
                security: store.securityContext(), settings: settings, logger: logger)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        let start = MonotonicTime.seconds()
        let screen = RangeScreen(mode: RangeScreen.mode(json: configuration.output.json ?? false), zones: settings.zones, start: start)
        if let web { screen.note(WebOptions.announcement(web)) }
        let own = await live.host.ownAddress.map(\.description) ?? "?"
        screen.note("accessory \"\(role.name)\" advertising \(role.dataChannels[0].name) as \(own), UWB MAC \(UCIMACAddress.short(live.profile.address)), "
                    + "\(role.role); waiting for phones (Ctrl-C stops)")
        var outputs: [any RunOutput] = [screen.output]
        if let web { outputs.append(web.output) }
        if let record {
            do {
                outputs.append(try TraceRecorder(path: record))
            } catch {
                Console.error("error: --record: \(error)")
                await live.close()
                throw ExitCode(1)
            }
        }
        let context = RunContext(accessories: [], zones: settings.zones, start: start, wallStart: WallClock.now())
        let run = RangingRun(context: context, outputs: outputs, hooks: settings.hookRunner())
        let manager = live.manager
        let consumer = Task { await run.consume(manager.events, droppedUpdates: { manager.droppedUpdates }) }

        // Until Ctrl-C / SIGTERM, or until the controller is gone.
        let interrupted = await waitForSignalOr { live.controllerClosed }
        await live.close()
        await consumer.value
        let summary = await run.finish(interrupted: interrupted)
        await web?.stop()
        screen.note((interrupted ? "stopped; " : "") + "summary:")
        for line in summary.lines { screen.note("  " + line) }
        if !interrupted { throw ExitCode(1) }
    }
}
