import Accessories
import ArgumentParser
import BlueZ
import Foundation
import LowEnergy
import NearbyRuntime
import NearbyTerminal

/// `nearby setup`: pick an accessory from a live list and store it.
struct SetupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Set up an accessory: scan, pick it from a live list, check its data channel, store it.",
        discussion: """
            Offers the advertisers that match the descriptor flags (as in nearby scan; the name \
            substring is --name-contains here). Without descriptor flags it offers accessories \
            advertising a known data-channel service (Nordic UART, Qorvo NI). On a terminal the \
            list is updated in place: pick with the arrow keys and Enter, or type the number and \
            Enter; q or Ctrl-C cancels. Without a terminal (or with NO_COLOR) the list is printed \
            line by line and a number, address or name is read from standard input. --pick \
            first|ADDRESS|NAME picks without asking (scripts). The picked accessory is connected, \
            must offer a known data channel, and is stored (set up again: its id is kept).

            --pair pairs with it (LE Secure Connections, or legacy pairing for older \
            accessories) and stores the keys with it: numeric comparisons and passkeys are asked \
            on the terminal, or answered by --confirm / --passkey N in scripts. --repair NAME \
            pairs a stored accessory again after it forgot the bond or was reset: its keys are \
            replaced once the new pairing succeeds. This computer keeps one random static \
            address per controller (or --own-address public), so a bonded accessory recognises it.

            Pairings that would weaken or take over a stored bond, accessories that use the \
            Bluetooth debug key (unless --allow-debug-keys) and accessories that keep asking to \
            pair are refused; the refusal says why and what to do (with --json also as an object \
            with "event":"security"). docs/pairing.md explains each one.

            Examples:
              nearby setup --name "Kitchen tag"
              nearby setup --hci tcp:127.0.0.1:5000 --pick first --timeout 20 --json
              nearby setup --service 6E400001-B5A3-F393-E0A9-E50E24DCCA9E --range immediate
              nearby setup --pair --name "Kitchen tag"
              nearby setup --repair "Kitchen tag" --passkey 123456
              nearby setup --hci bluez --pair --pick first --confirm
            """
    )

    @Option(name: .long, help: "The display name to store (default: the advertised name, or the name an accessory set up before has).")
    var name: String?
    @OptionGroup var descriptorOptions: DescriptorOptions
    @Option(name: .customLong("name-contains"), help: "Text the advertised name contains.")
    var nameContains: String?
    @Option(name: .long, help: ArgumentHelp("Pick without asking: first, an address, or an advertised name.", valueName: "first|ADDRESS|NAME"))
    var pick: String?
    @Option(name: .long, help: "Give up after this many seconds without a pick (default: 30 with --pick, else none).")
    var timeout: Double?
    @Option(name: .customLong("connect-timeout"), help: "Seconds the accessory may take to accept the connection.")
    var connectTimeout: Double = 10
    @Flag(name: .long, help: "Print the stored record as JSON on standard output.")
    var json = false
    @OptionGroup var pairingOptions: PairingOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var hciOptions: HCIOptions

    func validate() throws {
        _ = try items()
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be more than 0 seconds, got \(timeout)") }
        if !(connectTimeout > 0) { throw ValidationError("--connect-timeout must be more than 0 seconds, got \(connectTimeout)") }
        if let pick, pick.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--pick is empty: give first, an address or a name") }
    }

    /// The display items: the descriptor flags, else one per known data-channel service.
    func items() throws -> [DisplayItem] {
        let display = name ?? ""
        if !descriptorOptions.isEmpty(name: nameContains) {
            return [DisplayItem(name: display, descriptor: try descriptorOptions.descriptor(name: nameContains))]
        }
        return try DisplayItem.knownDataChannels(name: display)
    }

    func run() async throws {
        var items = try items()
        let store = storeOptions.open()
        var pick = pick
        var name = name
        var configuration = pairingOptions.policy.apply(to: pairingOptions.delegate.securityConfiguration)
        if let repair = pairingOptions.repair {
            // Pair a stored accessory again: its keys are not used, and the new pairing replaces
            // them (only if it succeeds: a failed repair leaves them as they were).
            let record = try await NearbyExit.onError { try await store.resolve(repair) }
            configuration.repairing = Set([record.address] + (record.bond.map { [$0.peerIdentity.address] } ?? []))
            Console.error("pairing \(record) again; its stored keys are replaced once the new pairing succeeds")
            pick = pick ?? record.address.description
            name = name ?? record.displayName
            items = [try record.displayItem]
        }
        let security = store.securityContext(configuration: configuration, delegate: pairingOptions.delegate)
        let (central, capture, choice) = try await hciOptions.openCentral(security: security)
        defer { CaptureReport.finish("--hci-log", capture?.file) }
        let logger = hciOptions.logger("nearby.accessories")
        if let repair = pairingOptions.repair, let blueZ = central as? BlueZCentral, let address = BluetoothAddress(pick ?? "") {
            // BlueZ keeps the old bond: remove the device, or Pair answers AlreadyExists.
            do {
                if try await blueZ.removeDevice(address) { Console.error("removed \(repair) from BlueZ (its bond there)") }
            } catch {
                Console.error("error: \(error)")
                await central.close()
                throw ExitCode(1)
            }
        }
        var setup = AccessorySetup(central: central, items: items, store: store,
                                   connectTimeout: .milliseconds(Int(connectTimeout * 1000)), logger: logger)
        // Setting a stored accessory up again keeps the name it was given unless --name says another.
        setup.whenStored = name == nil || pairingOptions.repair != nil ? .refresh : .update
        setup.pairing = pairingOptions.pairs
        let json = json
        setup.securityEvents = { error, address in
            // What a refusal means and what to do: always on standard error, as JSON too with --json.
            Console.error(error.refusal == nil ? "security: \(error)" : "\(error)")
            if json { Console.out(SecurityJSON.line(error, address: address)) }
        }
        let chooser = PickerFrontEnds.make(pick: pick)
        let run = setup
        let limit = pick != nil ? timeout ?? 30 : timeout
        Console.error("looking for " + items.map { $0.descriptor.description }.joined(separator: " or ")
            + " on \(central.shownName(choice))" + (limit.map { " for up to \(ScanCommand.seconds($0))" } ?? ""))
        let outcome = await cancellingOnSignal {
            let candidate = try await run.choose(timeout: limit.map { .milliseconds(Int($0 * 1000)) }, chooser: chooser)
            chooser.finish()
            Console.error("picked \(candidate); connecting")
            return try await run.setUp(candidate)
        }
        chooser.finish()
        await central.close()
        switch outcome {
        case .success(let result):
            if json { Console.out(AccessoryJSON.line(result.record)) }
            Console.error("\(result.summary(showingBond: pairingOptions.pairs)), stored in \(store.path)")
        case .failure(let error):
            Console.error("error: \(error)")
            throw ExitCode(1)
        }
    }
}
