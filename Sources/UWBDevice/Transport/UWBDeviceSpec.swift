import NearbyBase

/// Which UWB subsystem to talk to, as a user writes it on the command line.
///
/// Forms (see ``init(parsing:alsoAccepting:)``):
/// - `usb:VID:PID[@BUS.ADDR]`: a dev kit on USB through libusb, e.g. `usb:1915:520f` or
///   `usb:1915:520f@1.4` (hex IDs as `lsusb` prints them; bus and address in decimal).
/// - `serial:PATH[@BAUD]`: a tty driven by the kernel's driver, e.g. `serial:/dev/ttyACM0` or
///   `serial:/dev/ttyUSB0@3000000`.
/// - `tcp:HOST:PORT`: a raw UCI stream over TCP (an emulator such as pica or
///   `nearby sim uwbs`), e.g. `tcp:127.0.0.1:7000` or `tcp:[::1]:7000`.
///
/// Higher layers add their own forms in front of these (the Simulation module's
/// `UWBDeviceTarget` accepts `sim`) and name them in this parser's errors through
/// ``init(parsing:alsoAccepting:)``.
public enum UWBDeviceSpec: Sendable, Hashable, CustomStringConvertible {
    /// A USB device by vendor and product ID, optionally pinned to a bus number and device address.
    case usb(vendorID: UInt16, productID: UInt16, bus: UInt8?, address: UInt8?)
    /// A serial tty; `baud` `nil` means the dev kit's default (or 115200 for unknown devices).
    case serial(path: String, baud: Int?)
    /// A TCP server speaking raw UCI.
    case tcp(host: String, port: UInt16)

    /// The valid forms, for error messages and help texts.
    public static let forms = forms(including: [])

    /// The valid forms plus `extraForms` of a higher layer (e.g. `["sim"]`), as a sentence
    /// fragment: `"usb:VID:PID[@BUS.ADDR], serial:PATH[@BAUD], tcp:HOST:PORT or sim"`.
    public static func forms(including extraForms: [String]) -> String {
        listed(["usb:VID:PID[@BUS.ADDR]", "serial:PATH[@BAUD]", "tcp:HOST:PORT"] + extraForms)
    }

    /// `"a, b or c"`.
    private static func listed(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items[items.count - 1]
    }

    /// Baud rates a Linux tty can be set to (termios `B*` constants).
    public static let supportedBaudRates: [Int] = [
        1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600,
        1_000_000, 1_152_000, 1_500_000, 2_000_000, 2_500_000, 3_000_000, 3_500_000, 4_000_000,
    ]

    /// Parses a device spec string.
    /// - Parameters:
    ///   - text: the spec (`usb:1915:520f`, `serial:/dev/ttyACM0@115200`, `tcp:HOST:PORT`, ...).
    ///   - extraForms: forms a higher layer accepts before handing the text here (e.g.
    ///     `["sim"]`), named in the errors so that they list every form the user can type.
    /// - Throws: ``UWBDeviceError`` with code `invalidSpec` naming the part that is wrong and the
    ///   valid forms.
    public init(parsing text: String, alsoAccepting extraForms: [String] = []) throws(UWBDeviceError) {
        let trimmed = text.trimmingSpaces
        func invalid(_ reason: String) -> UWBDeviceError {
            UWBDeviceError(
                .invalidSpec, device: "",
                reason: "invalid device \"\(text)\": \(reason)",
                remedy: "Valid forms: \(Self.forms(including: extraForms)); e.g. usb:1915:520f, serial:/dev/ttyACM0@115200, tcp:127.0.0.1:7000. `nearby uwb list` shows what is attached.")
        }
        guard let colon = trimmed.firstIndex(of: ":") else {
            throw invalid(trimmed.isEmpty ? "it is empty" : "it has no scheme (\(Self.listed(["usb:", "serial:", "tcp:"] + extraForms)))")
        }
        let scheme = trimmed[..<colon].lowercased()
        let rest = String(trimmed[trimmed.index(after: colon)...])
        switch scheme {
        case "usb":
            var ids = Substring(rest)
            var location: Substring?
            if let at = rest.firstIndex(of: "@") {
                ids = rest[..<at]
                location = rest[rest.index(after: at)...]
            }
            let parts = ids.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw invalid("a USB device is usb:VID:PID with hexadecimal IDs, e.g. usb:1915:520f")
            }
            guard let vendor = Self.hex16(parts[0]) else {
                throw invalid("vendor ID \"\(parts[0])\" is not a hexadecimal number 0000-ffff")
            }
            guard let product = Self.hex16(parts[1]) else {
                throw invalid("product ID \"\(parts[1])\" is not a hexadecimal number 0000-ffff")
            }
            var bus: UInt8?
            var address: UInt8?
            if let location {
                let numbers = location.split(separator: ".", omittingEmptySubsequences: false)
                guard numbers.count == 2 else {
                    throw invalid("the location after @ is BUS.ADDR in decimal, e.g. @1.4 (as `nearby uwb list` prints it)")
                }
                guard let b = UInt8(numbers[0]), b >= 1 else {
                    throw invalid("bus \"\(numbers[0])\" is not a number 1-255")
                }
                guard let a = UInt8(numbers[1]), (1...127).contains(a) else {
                    throw invalid("device address \"\(numbers[1])\" is not a number 1-127")
                }
                bus = b
                address = a
            }
            self = .usb(vendorID: vendor, productID: product, bus: bus, address: address)
        case "serial":
            var path = rest
            var baud: Int?
            if let at = rest.lastIndex(of: "@") {
                path = String(rest[..<at])
                let text = rest[rest.index(after: at)...]
                guard let value = Int(text), value > 0 else {
                    throw invalid("baud rate \"\(text)\" is not a positive number")
                }
                guard Self.supportedBaudRates.contains(value) else {
                    throw invalid("baud rate \(value) is not supported; use one of \(Self.supportedBaudRates.map(String.init).joined(separator: ", "))")
                }
                baud = value
            }
            guard path.hasPrefix("/"), path.count > 1 else {
                throw invalid("a serial device is serial:PATH with an absolute path, e.g. serial:/dev/ttyACM0")
            }
            self = .serial(path: path, baud: baud)
        case "tcp":
            let host: String
            let portText: Substring
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix(":") else {
                    throw invalid("an IPv6 address is written tcp:[ADDRESS]:PORT, e.g. tcp:[::1]:7000")
                }
                host = String(rest[rest.index(after: rest.startIndex)..<close])
                portText = rest[rest.index(close, offsetBy: 2)...]
            } else {
                guard let last = rest.lastIndex(of: ":") else {
                    throw invalid("a TCP address is tcp:HOST:PORT, e.g. tcp:127.0.0.1:7000")
                }
                host = String(rest[..<last])
                portText = rest[rest.index(after: last)...]
                if host.contains(":") {
                    throw invalid("write an IPv6 address in brackets, e.g. tcp:[::1]:7000")
                }
            }
            guard !host.isEmpty else { throw invalid("the host is missing, e.g. tcp:127.0.0.1:7000") }
            guard let port = UInt16(portText), port > 0 else {
                throw invalid("port \"\(portText)\" is not a number 1-65535")
            }
            self = .tcp(host: host, port: port)
        default:
            throw invalid("unknown scheme \"\(scheme)\"")
        }
    }

    /// The canonical spec string (parses back to the same value).
    public var description: String {
        switch self {
        case .usb(let vendor, let product, let bus, let address):
            var text = "usb:\(Self.hex4(vendor)):\(Self.hex4(product))"
            if let bus, let address { text += "@\(bus).\(address)" }
            return text
        case .serial(let path, let baud):
            return baud.map { "serial:\(path)@\($0)" } ?? "serial:\(path)"
        case .tcp(let host, let port):
            return host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        }
    }

    /// Four lower-case hex digits, as `lsusb` prints IDs.
    static func hex4(_ value: UInt16) -> String { Hex.digits(value, count: 4).lowercased() }

    private static func hex16(_ text: Substring) -> UInt16? {
        var digits = text
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard (1...4).contains(digits.count) else { return nil }
        return UInt16(digits, radix: 16)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
