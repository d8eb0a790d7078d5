import Accessories
import ArgumentParser
import LowEnergy
import NearbyRuntime
import NearbyTerminal

/// `nearby scan`: BLE advertisements, filtered by a discovery descriptor.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan for BLE advertisements, filtered like AccessorySetupKit discovery descriptors.",
        discussion: """
            Without descriptor flags every advertiser is shown. With flags, an advertisement must \
            match all of them; --service or --company is required then. Human output: one line \
            when a device is first heard and whenever its name, data or RSSI (by 3 dB or more) \
            changes. --json: one JSON object per advertising report on standard output (keys \
            address, address_type, rssi, name, service_uuids, manufacturer {company, data} or \
            null, service_data {uuid: hex}); messages go to standard error. Stops after \
            --duration seconds or on Ctrl-C.

            Examples:
              nearby scan --hci tcp:127.0.0.1:5000 --duration 5
              nearby scan --hci bluez --duration 5
              nearby scan --service 6E400001-B5A3-F393-E0A9-E50E24DCCA9E --name tag --ignore-case
              nearby scan --company 0x004C --manufacturer-data 0a0b/ff0f --json
            """
    )

    @OptionGroup var descriptorOptions: DescriptorOptions
    @Option(name: [.customLong("name"), .customLong("name-contains")], help: "Text the advertised name contains.")
    var name: String?
    @Option(name: .long, help: "Stop after this many seconds (default: until Ctrl-C).")
    var duration: Double?
    @Flag(name: .long, help: "Print one JSON object per advertisement.")
    var json = false
    @OptionGroup var hciOptions: HCIOptions

    func validate() throws {
        _ = try descriptorOptions.filter(name: name)
        if let duration, !(duration > 0) { throw ValidationError("--duration must be more than 0 seconds, got \(duration)") }
    }

    func run() async throws {
        let filter = try descriptorOptions.filter(name: name)
        let (central, capture, choice) = try await hciOptions.openCentral()
        defer { CaptureReport.finish("--hci-log", capture?.file) }
        let advertisements: AsyncStream<Advertisement>
        do {
            advertisements = try await central.scan(ScanParameters())
        } catch {
            Console.error("error: \(error)")
            await central.close()
            throw ExitCode(1)
        }
        Console.error("scanning on \(central.shownName(choice))\(filter)" + (duration.map { " for \(Self.seconds($0))" } ?? "; Ctrl-C stops"))
        await ScanPrinter.run(advertisements, filter: filter, json: json, duration: duration, stop: { await central.stopScanning() })
        await central.close()
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
