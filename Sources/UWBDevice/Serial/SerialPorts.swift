#if canImport(Glibc)
import Glibc
#endif
import NearbySupport

/// A serial port that may belong to a UWB dev kit.
public struct SerialPortInfo: Sendable, Hashable {
    /// The device node, e.g. "/dev/ttyACM0".
    public var path: String
    /// USB vendor ID of the device behind the tty, if it is a USB device.
    public var vendorID: UInt16?
    /// USB product ID of the device behind the tty, if it is a USB device.
    public var productID: UInt16?
    /// The known dev kit, if the IDs match the catalogue.
    public var kit: DevKit?
    /// The spec string to open it, e.g. "serial:/dev/ttyACM0".
    public var spec: UWBDeviceSpec { .serial(path: path, baud: nil) }

    /// Creates a description of a serial port.
    public init(path: String, vendorID: UInt16?, productID: UInt16?, kit: DevKit?) {
        self.path = path
        self.vendorID = vendorID
        self.productID = productID
        self.kit = kit
    }
}

/// Finds USB serial ports (`/dev/ttyACM*`, `/dev/ttyUSB*`) and what is behind them (sysfs).
public enum SerialPorts {
    /// The USB serial ports present now, sorted by path.
    public static func list(devDirectory: String = "/dev") -> [SerialPortInfo] {
        var ports: [SerialPortInfo] = []
        for name in Directory.entries(devDirectory) {
            guard name.hasPrefix("ttyACM") || name.hasPrefix("ttyUSB") else { continue }
            let path = devDirectory + "/" + name
            let ids = usbIDs(forTTY: path)
            ports.append(SerialPortInfo(
                path: path, vendorID: ids?.vendor, productID: ids?.product,
                kit: ids.flatMap { DevKit.matching(vendorID: $0.vendor, productID: $0.product) }))
        }
        return ports.sorted { $0.path.localizedStandardLess($1.path) }
    }

    /// The known dev kit behind a tty, if any.
    public static func kit(forTTY path: String) -> DevKit? {
        usbIDs(forTTY: path).flatMap { DevKit.matching(vendorID: $0.vendor, productID: $0.product) }
    }

    /// USB vendor/product IDs of the device behind `/dev/NAME`, from `/sys/class/tty/NAME/device`.
    static func usbIDs(forTTY path: String) -> (vendor: UInt16, product: UInt16)? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let name = path[path.index(after: slash)...]
        guard let resolved = realpath("/sys/class/tty/\(name)/device", nil) else { return nil }
        var directory = String(cString: resolved)
        free(resolved)
        while directory.count > "/sys/devices".count {
            if let vendor = readHex("\(directory)/idVendor"), let product = readHex("\(directory)/idProduct") {
                return (vendor, product)
            }
            guard let parent = directory.lastIndex(of: "/") else { break }
            directory = String(directory[..<parent])
        }
        return nil
    }

    private static func readHex(_ path: String) -> UInt16? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 16)
        guard fgets(&buffer, 16, file) != nil else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return UInt16(text.filter { $0.isHexDigit }, radix: 16)
    }
}

extension String {
    /// Orders "ttyACM2" before "ttyACM10".
    fileprivate func localizedStandardLess(_ other: String) -> Bool {
        let a = self.split(whereSeparator: { $0.isNumber }).joined()
        let b = other.split(whereSeparator: { $0.isNumber }).joined()
        if a != b { return self < other }
        let na = Int(self.filter(\.isNumber)) ?? 0
        let nb = Int(other.filter(\.isNumber)) ?? 0
        return na < nb
    }
}
