import ArgumentParser
import NearbyTerminal
import UWBDevice

/// `nearby uwb`: the UWB dev kit (UCI over USB, serial or TCP).
struct UWBCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uwb",
        abstract: "Work with the UWB dev kit: list kits, show what one is, range with explicit parameters, send raw UCI packets.",
        subcommands: [UWBListCommand.self, UWBInfoCommand.self, UWBRangeCommand.self, UWBRawCommand.self]
    )
}

/// `nearby uwb list`: known dev kits on USB and USB serial ports.
struct UWBListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List UWB dev kits on USB (libusb) and USB serial ports.",
        discussion: """
            Known kits: \(DevKit.all.map(\.description).joined(separator: "; ")).
            Each line starts with the device spec to pass as --device.
            """
    )

    @Flag(name: .long, help: "Also list USB devices that are not known UWB dev kits.")
    var all = false

    func run() async throws {
        let devices = try await NearbyExit.onError { try UWBDeviceDiscovery.usbDevices(includeUnknown: all) }
        for line in UWBDeviceDiscovery.listing(devices: devices, ports: UWBDeviceDiscovery.serialPorts(), all: all) { print(line) }
    }
}
