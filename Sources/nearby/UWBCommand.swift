import ArgumentParser
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
        let devices: [AttachedUSBDevice]
        do {
            devices = try UWBDeviceDiscovery.usbDevices(includeUnknown: all)
        } catch {
            UWBConsole.error("error: \(error)")
            throw ExitCode(1)
        }
        print(all ? "USB devices:" : "UWB dev kits on USB:")
        if devices.isEmpty {
            print("  none found (supported: \(DevKit.all.map { "\($0.name) \($0.usbID)" }.joined(separator: ", ")))")
        }
        var needsRule = false
        for device in devices {
            var line = "  \(device.spec.description.uwbPadded(to: 22))"
            if let kit = device.kit {
                line += "  \(kit.name) (\(kit.kind))"
            } else {
                line += "  \(UWBDeviceSpec.usb(vendorID: device.vendorID, productID: device.productID, bus: nil, address: nil))"
            }
            let strings = [device.manufacturer, device.product].compactMap { $0 }.joined(separator: " ")
            if !strings.isEmpty { line += "  \"\(strings)\"" }
            if let serial = device.serialNumber { line += "  serial \(serial)" }
            line += "  port \(device.portName)"
            if let driver = device.kernelDriver { line += "  kernel driver: \(driver) (nearby detaches it)" }
            switch device.access {
            case .ok: break
            case .permissionDenied:
                line += "  NO ACCESS"
                needsRule = true
            case .failed(let reason): line += "  cannot open: \(reason)"
            }
            print(line)
        }
        let ports = UWBDeviceDiscovery.serialPorts()
        print("Serial ports:")
        if ports.isEmpty { print("  none (/dev/ttyACM*, /dev/ttyUSB*)") }
        for port in ports {
            var line = "  \(port.spec.description.uwbPadded(to: 22))"
            if let kit = port.kit {
                line += "  \(kit.name) (\(kit.usbID)), use serial:\(port.path)@\(kit.defaultBaud)"
            } else if let vendor = port.vendorID, let product = port.productID {
                line += "  USB \(UWBDeviceSpec.usb(vendorID: vendor, productID: product, bus: nil, address: nil).description.dropFirst(4))"
            }
            print(line)
        }
        if needsRule {
            print("\nNO ACCESS: install the udev rule, then replug the kit:")
            print("  sudo cp \(UWBDeviceError.udevRulePath) /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger")
        }
    }
}
