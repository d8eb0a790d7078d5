extension UWBDeviceDiscovery {
    /// The readable list of `nearby uwb list`: one line per USB device and per serial port,
    /// each starting with the device spec to pass as `--device`, then what it is, its strings,
    /// serial number, port and kernel driver; `NO ACCESS` where this user may not open it, and
    /// then how to install the udev rule.
    /// - Parameters:
    ///   - devices: from ``usbDevices(includeUnknown:)``.
    ///   - ports: from ``serialPorts()``.
    ///   - all: the list includes devices that are not known dev kits (changes the heading).
    public static func listing(devices: [AttachedUSBDevice], ports: [SerialPortInfo], all: Bool) -> [String] {
        var lines = [all ? "USB devices:" : "UWB dev kits on USB:"]
        if devices.isEmpty {
            lines.append("  none found (supported: \(DevKit.all.map { "\($0.name) \($0.usbID)" }.joined(separator: ", ")))")
        }
        var needsRule = false
        for device in devices {
            var line = "  " + padded(device.spec.description, to: 22)
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
            lines.append(line)
        }
        lines.append("Serial ports:")
        if ports.isEmpty { lines.append("  none (/dev/ttyACM*, /dev/ttyUSB*)") }
        for port in ports {
            var line = "  " + padded(port.spec.description, to: 22)
            if let kit = port.kit {
                line += "  \(kit.name) (\(kit.usbID)), use serial:\(port.path)@\(kit.defaultBaud)"
            } else if let vendor = port.vendorID, let product = port.productID {
                line += "  USB \(UWBDeviceSpec.usb(vendorID: vendor, productID: product, bus: nil, address: nil).description.dropFirst(4))"
            }
            lines.append(line)
        }
        if needsRule {
            lines.append("\nNO ACCESS: install the udev rule, then replug the kit:")
            lines.append("  sudo cp \(UWBDeviceError.udevRulePath) /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger")
        }
        return lines
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
