import Accessories
import ArgumentParser
import Foundation
import LowEnergy

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

    /// `true` if only the name and range flags are given: a scan filter needs no service UUID or
    /// company identifier (a setup descriptor does).
    var filtersByNameAndRangeOnly: Bool {
        descriptorOptions.service == nil && descriptorOptions.company == nil && descriptorOptions.manufacturerData == nil
            && descriptorOptions.serviceData == nil
    }

    func validate() throws {
        _ = try hciOptions.spec()
        if !descriptorOptions.isEmpty(name: name), !filtersByNameAndRangeOnly { _ = try descriptorOptions.descriptor(name: name) }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be more than 0 seconds, got \(duration)") }
    }

    func run() async throws {
        let descriptor = descriptorOptions.isEmpty(name: name) || filtersByNameAndRangeOnly ? nil : try descriptorOptions.descriptor(name: name)
        let name = self.name
        let ignoreCase = descriptorOptions.ignoreCase
        let range: DiscoveryRange = descriptorOptions.range == .immediate ? .immediate : .default
        let host = try await hciOptions.openHost()
        let advertisements: AsyncStream<Advertisement>
        do {
            advertisements = try await host.scan()
        } catch {
            UWBConsole.error("error: \(error)")
            await host.close()
            throw ExitCode(1)
        }
        let nameFilter = name.map { " for names containing \"\($0)\"\(ignoreCase ? " (any case)" : "")" } ?? ""
        UWBConsole.error("scanning on \(hciOptions.hci)" + (descriptor.map { " for \($0)" } ?? nameFilter)
            + (duration.map { " for \(Self.seconds($0))" } ?? "; Ctrl-C stops"))
        let json = self.json
        let printer = Task {
            var printed: [AccessoryCandidate.Key: ScanLine] = [:]
            for await advertisement in advertisements {
                if let descriptor, !descriptor.matches(advertisement) { continue }
                if descriptor == nil, !DiscoveryDescriptor.matches(advertisement, nameSubstring: name, ignoringCase: ignoreCase, range: range) {
                    continue
                }
                if json {
                    AccessoryConsole.out(AccessoryJSON.line(AdvertisementJSON(advertisement)))
                    continue
                }
                let key = AccessoryCandidate.Key(address: advertisement.address, addressType: advertisement.addressType)
                let line = ScanLine(advertisement)
                if let last = printed[key], !line.differs(from: last) { continue }
                printed[key] = line
                AccessoryConsole.out(line.text)
            }
        }
        let signals = SignalStream([SIGINT, SIGTERM])
        let stopper = Task {
            if let duration {
                try? await Task.sleep(for: .milliseconds(Int(duration * 1000)))
            } else {
                for await _ in signals.stream { break }
            }
        }
        let watcher = Task {
            for await _ in signals.stream { stopper.cancel() }
        }
        await stopper.value
        watcher.cancel()
        signals.cancel()
        await host.stopScanning()
        await printer.value
        await host.close()
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// The human line for one device, and whether a new report is worth another line.
struct ScanLine {
    let rssi: Int?
    let text: String
    let content: String

    init(_ advertisement: Advertisement) {
        rssi = advertisement.rssi.map(Int.init)
        let data = advertisement.data
        var parts: [String] = []
        if let name = advertisement.name { parts.append("\"\(name)\"") }
        if !data.serviceUUIDs.isEmpty { parts.append("services " + data.serviceUUIDs.map(\.description).joined(separator: ",")) }
        // `data` merges advertising and scan response data, which often repeat each other.
        for field in data.manufacturerData {
            let text = "company 0x\(String(format: "%04X", field.companyIdentifier)) \(HexBytes.encode(field.data))"
            if !parts.contains(text) { parts.append(text) }
        }
        for field in data.serviceData {
            let text = "service data \(field.uuid) \(HexBytes.encode(field.data))"
            if !parts.contains(text) { parts.append(text) }
        }
        content = parts.joined(separator: "  ")
        let address = "\(advertisement.address) (\(advertisement.addressType))".uwbPadded(to: 27)
        let level = (rssi.map { "\($0) dBm" } ?? "? dBm").uwbPadded(to: 8)
        text = "\(address)  \(level)  \(content)"
    }

    func differs(from last: ScanLine) -> Bool {
        if content != last.content { return true }
        switch (rssi, last.rssi) {
        case let (now?, before?): return abs(now - before) >= 3
        case (nil, nil): return false
        default: return true
        }
    }
}

/// `nearby scan --json`: one advertisement.
struct AdvertisementJSON: Encodable {
    let advertisement: Advertisement

    init(_ advertisement: Advertisement) { self.advertisement = advertisement }

    enum CodingKeys: String, CodingKey {
        case address, rssi, name, manufacturer
        case addressType = "address_type"
        case serviceUUIDs = "service_uuids"
        case serviceData = "service_data"
    }

    struct Manufacturer: Encodable {
        let company: UInt16
        let data: String
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let data = advertisement.data
        try container.encode(advertisement.address.description, forKey: .address)
        try container.encode(advertisement.addressType.description, forKey: .addressType)
        if let rssi = advertisement.rssi { try container.encode(rssi, forKey: .rssi) } else { try container.encodeNil(forKey: .rssi) }
        if let name = advertisement.name { try container.encode(name, forKey: .name) } else { try container.encodeNil(forKey: .name) }
        try container.encode(data.serviceUUIDs.map(\.description), forKey: .serviceUUIDs)
        if let first = data.manufacturerData.first {
            try container.encode(Manufacturer(company: first.companyIdentifier, data: HexBytes.encode(first.data)), forKey: .manufacturer)
        } else {
            try container.encodeNil(forKey: .manufacturer)
        }
        var serviceData: [String: String] = [:]
        for field in data.serviceData where serviceData[field.uuid.description] == nil {
            serviceData[field.uuid.description] = HexBytes.encode(field.data)
        }
        try container.encode(serviceData, forKey: .serviceData)
    }
}
