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
            Advertises the Nordic UART service (Apple's sample app "Implementing spatial interactions with \
            third-party accessories" and Qorvo's Nearby Interaction app find it) with Qorvo's QNIS in the scan \
            response, serves both (--service chooses: nus, qnis, apple adds Apple's NI service), and answers \
            each phone's NI messages: its accessory configuration data from the dev kit (--uwb), then the \
            session the phone asks for (controlee / responder by default); Qorvo's 0x20 / 0x21 device \
            parameters too. A message written before the phone subscribes is answered once it does; a phone \
            that reconnects replaces its old session. One phone at a time by default (--max-phones: one UWB \
            radio cannot serve overlapping rounds). One live line per connected phone on a terminal; with \
            --json one object per update and event. Hooks get the phone's id in NEARBY_ACCESSORY_ID. Ctrl-C \
            stops every session (0x03 to each phone).

            Example:
              nearby accessory --hci bluez --uwb usb:1915:520f --name "front door" \\
                --on-enter near -- /usr/bin/loginctl unlock-sessions
            """
    )

    @Option(help: ArgumentHelp("Bluetooth: bluez[:hciN] (bluetoothd, the adapter stays shared; one phone at a time), hci:N, tcp:HOST:PORT or serial:PATH[@BAUD] (default: the config file's, else bluez when bluetoothd owns a powered adapter, else hci:0).", valueName: "spec"))
    var hci: String?

    @Flag(name: .customLong("hci-legacy"), help: "Use the legacy (Bluetooth 4.x) advertising commands (config: transports.hci_legacy).")
    var hciLegacy = false

    @Option(help: ArgumentHelp("The UWB dev kit: \(UWBDeviceTarget.forms) (default: the config file's, else the only one plugged in).", valueName: "spec"))
    var uwb: String?

    @Option(help: ArgumentHelp("The name phones see (default: the config file's, else nearby).", valueName: "name"))
    var name: String?

    @Option(name: .customLong("service"), help: ArgumentHelp("Services, comma-separated: nus, qnis, apple; every data channel is served, the first advertised, the next in the scan response (default nus,qnis).", valueName: "list"))
    var services: String?

    @Option(name: .customLong("config-version"), help: ArgumentHelp("UWB config data layout announced: 1.0 or 1.1 (default 1.1).", valueName: "version"))
    var configVersion: String?

    @Option(help: ArgumentHelp("The role announced: responder (default) or initiator.", valueName: "role"))
    var role: String?

    @Option(help: ArgumentHelp("A fixed UWB short MAC address in hex (default: one stored per kit beside the store).", valueName: "hex"))
    var mac: String?

    @Option(name: .customLong("max-phones"), help: ArgumentHelp("Phones at once, 1-8 (default 1: one radio; more phones share it and lose rounds); advertising pauses at the limit.", valueName: "n"))
    var maxPhones: Int?

    @Option(name: .customLong("advertising-interval"), help: ArgumentHelp("Advertising interval, ms, 20-10240 (default 100).", valueName: "ms"))
    var advertisingInterval: Double?

    @Option(help: ArgumentHelp("Write every raw range sample to this trace file (CSV, with the phone in the accessory column).", valueName: "file.csv"))
    var record: String?

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var uciLog: UCILogOptions

    @OptionGroup var hciLog: HCILogOptions

    @OptionGroup var options: SessionOptions

    func validate() throws {
        if let problem = hci.flatMap(TransportValidators.specs.hci) { throw ValidationError("--hci: \(problem)") }
        if let uwb { _ = try UWBClientSetup.spec(uwb) }
        _ = try roleOverlay()
    }

    /// The flags as an `[accessory]` overlay.
    private func roleOverlay() throws -> AccessoryRoleFileSettings {
        let overlay: AccessoryRoleFileSettings
        do {
            overlay = try AccessoryRoleFileSettings(
                flagsName: name, services: services, mac: mac, configVersion: configVersion, role: role, maxPhones: maxPhones,
                advertisingIntervalMilliseconds: advertisingInterval)
        } catch {
            throw ValidationError(error.description)
        }
        if options.mqtt.url != nil { throw ValidationError("--mqtt is not supported by nearby accessory yet") }
        return overlay
    }

    func run() async throws {
        var configuration = try options.settings(
            transports: TransportSettings(hci: hci, uwb: uwb, hciLegacy: hciLegacy ? true : nil), hookCommand: HookCommandLine.command)
        configuration.accessory = configuration.accessory.overridden(by: try roleOverlay())
        let settings = try options.runSettings(configuration)
        let role = AccessoryRoleSettings(file: configuration.accessory, keyByteOrder: settings.session.planning.keyByteOrder)
        let hci = try await BluetoothBackends.resolve(configuration.transports.hci).spec
        if hci.isBlueZ, hciLog.path != nil { throw ValidationError(HCIOptions.hciLogWithBlueZ) }
        let uwbSpec = try configuration.transports.uwb.map(UWBClientSetup.spec)
        let captures = try CaptureFiles(uci: uciLog, hci: hciLog, interface: uwbSpec?.description ?? "uwb")
        defer { captures.finish() }
        let store = storeOptions.open()
        let logger = Logger(label: "nearby")
        let web = try await options.web.start(source: "accessory", configuration: configuration)
        let live: AccessoryRanging
        do {
            live = try await AccessoryRanging.open(
                uwb: uwbSpec, hci: hci, role: role,
                addresses: UWBAddressStore(besideStore: store.path),
                host: BLEHostConfiguration(commandSet: configuration.transports.hciLegacy == true ? .legacy : .automatic),
                security: store.securityContext(), settings: settings, uciCapture: captures.uci, hciCapture: captures.hci, logger: logger)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
        let session = TerminalRun(source: live, json: configuration.output.json ?? false, zones: settings.zones, stop: { await web?.stop() })
        if let web { session.screen.note(web.announcement) }
        let own = await live.peripheral.advertisedAddress().map(\.description) ?? "?"
        session.screen.note(
            "accessory \"\(role.name)\" advertising \(role.dataChannels.map(\.name).joined(separator: " + ")) as \(own), UWB MAC \(UCIMACAddress.short(live.profile.address)), "
                + "\(role.role); waiting for phones (Ctrl-C stops)")
        session.add(web?.output)
        try await session.record(to: record)
        // Until Ctrl-C / SIGTERM, or until the controller is gone.
        let (interrupted, _) = await session.run(accessories: [], hooks: settings.hookRunner(), until: { live.controllerClosed })
        if !interrupted { throw ExitCode(1) }
    }
}
