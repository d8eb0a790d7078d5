/// A USB device that is (or may be) a UWB dev kit, as `nearby uwb list` shows it.
public struct AttachedUSBDevice: Sendable, Hashable {
    /// Whether this process may open the device.
    public enum Access: Sendable, Hashable {
        /// Opened fine.
        case ok
        /// The device node is not accessible (install the udev rule).
        case permissionDenied
        /// Opening failed for another reason (the text says why).
        case failed(String)
    }

    /// USB bus number.
    public var bus: UInt8
    /// Device address on the bus (changes on every replug).
    public var address: UInt8
    /// Hub port numbers from the root hub ("1-1.3" is [1, 3]).
    public var portPath: [UInt8]
    /// USB vendor ID.
    public var vendorID: UInt16
    /// USB product ID.
    public var productID: UInt16
    /// The catalogue entry, `nil` for an unknown device.
    public var kit: DevKit?
    /// iManufacturer, if readable.
    public var manufacturer: String?
    /// iProduct, if readable.
    public var product: String?
    /// iSerialNumber, if readable.
    public var serialNumber: String?
    /// The kernel driver bound to the kit's data interface ("cdc_acm", "ftdi_sio"), if any.
    public var kernelDriver: String?
    /// Whether nearby can open it.
    public var access: Access

    /// The spec string that opens exactly this device, e.g. `usb:1915:520f@1.4`.
    public var spec: UWBDeviceSpec { .usb(vendorID: vendorID, productID: productID, bus: bus, address: address) }
    /// The sysfs port name, e.g. "1-1.3".
    public var portName: String { "\(bus)-" + portPath.map(String.init).joined(separator: ".") }
}

/// Finds attached UWB dev kits.
public enum UWBDeviceDiscovery {
    /// The USB devices attached now, known dev kits first.
    ///
    /// Opens each listed device briefly to read its strings and kernel-driver state (blocking,
    /// a few milliseconds per device); a device that cannot be opened is still listed with its
    /// ``AttachedUSBDevice/access``.
    /// - Parameter includeUnknown: also list devices that are not in the ``DevKit`` catalogue.
    /// - Throws: ``UWBDeviceError`` if libusb cannot be initialised or cannot list devices.
    public static func usbDevices(includeUnknown: Bool = false) throws(UWBDeviceError) -> [AttachedUSBDevice] {
        let context = try LibUSBContext.get()
        let records = try context.devices().filter { record in
            includeUnknown || DevKit.matching(vendorID: record.vendorID, productID: record.productID) != nil
        }
        var result: [AttachedUSBDevice] = []
        for record in records {
            let kit = DevKit.matching(vendorID: record.vendorID, productID: record.productID)
            let spec = UWBDeviceSpec.usb(vendorID: record.vendorID, productID: record.productID, bus: record.bus, address: record.address)
            var device = AttachedUSBDevice(
                bus: record.bus, address: record.address, portPath: record.portPath, vendorID: record.vendorID,
                productID: record.productID, kit: kit, manufacturer: nil, product: nil, serialNumber: nil,
                kernelDriver: nil, access: .ok)
            do {
                let handle = try USBDeviceHandle(context: context, record: record, device: spec.description)
                defer { handle.close() }
                device.manufacturer = handle.string(at: record.manufacturerIndex)
                device.product = handle.string(at: record.productIndex)
                device.serialNumber = handle.string(at: record.serialIndex)
                if let kit, (try? handle.kernelDriverActive(on: kit.dataInterface)) == true {
                    device.kernelDriver = kit.kernelDriver
                }
            } catch {
                device.access = error.code == .permissionDenied ? .permissionDenied : .failed(error.reason)
            }
            result.append(device)
        }
        return result.sorted { a, b in
            if (a.kit == nil) != (b.kit == nil) { return a.kit != nil }
            return (a.bus, a.address) < (b.bus, b.address)
        }
    }

    /// USB serial ports (`/dev/ttyACM*`, `/dev/ttyUSB*`) and the kit behind each, if known.
    public static func serialPorts() -> [SerialPortInfo] {
        SerialPorts.list()
    }
}
