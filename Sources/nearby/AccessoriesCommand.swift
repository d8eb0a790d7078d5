import Accessories
import ArgumentParser
import Foundation
import Logging
import LowEnergy
import NearbyRuntime
import NearbyConfig
import NearbyMQTT
import NearbyTerminal

/// `nearby accessories`: the store of set-up accessories.
struct AccessoriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accessories",
        abstract: "List, rename, forget and migrate set-up accessories (the accessory store).",
        discussion: """
            The store is $XDG_STATE_HOME/nearby/accessories.json (else \
            ~/.local/state/nearby/accessories.json); --store or $NEARBY_STORE choose another file. \
            ACCESSORY is an id, an id prefix (4+ digits), an address or a name.
            """,
        subcommands: [AccessoriesListCommand.self, AccessoriesRenameCommand.self, AccessoriesForgetCommand.self,
                      AccessoriesMigrateCommand.self],
        defaultSubcommand: AccessoriesListCommand.self
    )
}

/// `nearby accessories list`.
struct AccessoriesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the set-up accessories (--json: an array of the stored records).")

    @Flag(name: .long, help: "Print the records as a JSON array (the store's keys).")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let store = storeOptions.open()
        let records = try await NearbyExit.onError { try await store.list() }
        if json {
            Console.out(AccessoryJSON.pretty(records))
        } else if records.isEmpty {
            Console.out("no accessories in \(store.path); set one up with `nearby setup` or `nearby accessories migrate`")
        } else {
            for line in AccessoryRecord.table(records) { Console.out(line) }
        }
    }
}

/// `nearby accessories rename ACCESSORY NAME`.
struct AccessoriesRenameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename an accessory.")

    @Argument(help: "The accessory: id, id prefix, address or name.")
    var accessory: String
    @Argument(help: "The new display name.")
    var name: String
    @Flag(name: .long, help: "Print the changed record as JSON.")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if name.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the new name is empty") }
    }

    func run() async throws {
        let store = storeOptions.open()
        let record = try await NearbyExit.onError { try await store.rename(accessory, to: name) }
        Console.out(json ? AccessoryJSON.line(record) : "renamed \(record)")
    }
}

/// `nearby accessories forget ACCESSORY`.
struct AccessoriesForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget", abstract: "Remove an accessory from the store (and from BlueZ when BlueZ keeps its bond).")

    @Argument(help: "The accessory: id, id prefix, address or name.")
    var accessory: String
    @Flag(name: .long, help: "Print the removed record as JSON.")
    var json = false
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var mqtt: MQTTOptions

    func run() async throws {
        let store = storeOptions.open()
        let mqttSettings = try configOptions.load().configuration.mqtt
        let setup = try mqtt.setup(mqttSettings, configPath: configOptions.path, role: .forget, notes: { Console.error($0) })
        let record = try await NearbyExit.onError { try await store.forget(accessory) }
        Console.out(json ? AccessoryJSON.line(record) : "forgot \(record)")
        if record.bondHolder == .bluez {
            // Its bond lives in BlueZ: remove the device there too (its keys go with it).
            var logger = Logger(label: "nearby.bluez")
            logger.logLevel = .error
            switch await BluetoothBackends.removeFromBlueZ(record.address, adapter: nil, logger: logger) {
            case .success(true): if !json { Console.out("removed \(record.address) from BlueZ (its bond there too)") }
            case .success(false): if !json { Console.out("BlueZ no longer knew \(record.address)") }
            case .failure(let error):
                Console.error("warning: \(record.address) could not be removed from BlueZ: \(error); remove it with `bluetoothctl remove \(record.address)`")
            }
        }
        // With MQTT: its Home Assistant entities and retained state go too (specs/mqtt.md).
        guard let setup else { return }
        let (removed, message) = await setup.forgetAccessory(record.id)
        if !removed { Console.error("warning: " + message) } else if !json { Console.out(message) }
    }
}

/// `nearby accessories migrate`.
struct AccessoriesMigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Add accessories the system already knows: by address, or from BlueZ's bond directory.",
        discussion: """
            --address ADDR adds one accessory without scanning (bonding unknown). The address type \
            is random when the address's two top bits are 11 (a static random address), else \
            public; --random or --public override. --bluez reads BlueZ's bond directory \
            (/var/lib/bluetooth, root only: run with sudo, or use --address) and adds its LE \
            devices, or only --address. Accessories already stored are left as they are.

            Examples:
              nearby accessories migrate --address F0:F1:F2:F3:F4:F5 --name "Kitchen tag"
              sudo nearby accessories migrate --bluez --store ~/.local/state/nearby/accessories.json
            """
    )

    @Option(name: .long, help: "The accessory's address (AA:BB:CC:DD:EE:FF).")
    var address: String?
    @Flag(name: .long, help: "The address is a random (static) address.")
    var random = false
    @Flag(name: .long, help: "The address is a public address.")
    var `public` = false
    @Option(name: .long, help: "The display name (default: BlueZ's name, else the address).")
    var name: String?
    @Flag(name: .long, help: "Read BlueZ's bond directory.")
    var bluez = false
    @Option(name: .customLong("bluez-dir"), help: "BlueZ's bond directory.")
    var bluezDirectory = BlueZBondDirectory.defaultRoot
    @Flag(name: .long, help: "Print the migrated records as JSON lines.")
    var json = false
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if address == nil && !bluez { throw ValidationError("give --address ADDR or --bluez") }
        if random && `public` { throw ValidationError("--random and --public exclude each other") }
        if bluez && (random || `public`) { throw ValidationError("--random / --public are for --address without --bluez (BlueZ records the type)") }
        if let address, BluetoothAddress(address) == nil {
            throw ValidationError("--address \"\(address)\" is not a Bluetooth address (AA:BB:CC:DD:EE:FF)")
        }
    }

    func run() async throws {
        let store = storeOptions.open()
        let parsed = address.flatMap(BluetoothAddress.init)
        let outcomes = try await NearbyExit.onError {
            if bluez { return try await store.migrate(from: BlueZBondDirectory(root: bluezDirectory), only: parsed, displayName: name) }
            let address = parsed!
            let type: BluetoothAddressType = random ? .random : `public` ? .public : (address.randomAddressKind == .staticAddress ? .random : .public)
            return [try await store.migrate(address: address, type: type, displayName: name)]
        }
        if outcomes.isEmpty { Console.error("BlueZ (\(bluezDirectory)) knows no LE device; nothing migrated") }
        for outcome in outcomes { Console.out(json ? AccessoryJSON.line(outcome.record) : outcome.migrationSummary) }
    }
}
