/// Which controller to use, as the user writes it (the CLI's `--hci`):
///
/// - `hci:N` — the kernel's adapter hciN through the HCI user channel;
/// - `tcp:HOST:PORT` — H4 over TCP (IPv6 hosts in brackets: `tcp:[::1]:5000`);
/// - `serial:PATH[@BAUD][,rtscts]` — H4 over a UART or pty (default 1000000 baud, no flow control).
public enum HCITransportSpec: Sendable, Hashable, CustomStringConvertible {
    /// `hci:N`.
    case userChannel(adapter: UInt16)
    /// `tcp:HOST:PORT`.
    case tcp(host: String, port: UInt16)
    /// `serial:PATH[@BAUD][,rtscts]`.
    case serial(path: String, baudRate: Int, hardwareFlowControl: Bool)

    /// The default baud rate of `serial:` specs (Zephyr's and Nordic's HCI UART default).
    public static let defaultBaudRate = 1_000_000

    /// Parses a spec.
    /// - Throws: ``BluetoothError/invalidTransportSpec(spec:problem:)`` saying what is wrong.
    public init(parsing text: String) throws(BluetoothError) {
        guard let colon = text.firstIndex(of: ":") else {
            throw .invalidTransportSpec(spec: text, problem: "missing the kind prefix")
        }
        let kind = text[..<colon].lowercased()
        let rest = String(text[text.index(after: colon)...])
        switch kind {
        case "hci":
            let digits = rest.hasPrefix("hci") ? String(rest.dropFirst(3)) : rest
            guard let index = UInt16(digits), index < 0xFFFF else {
                throw .invalidTransportSpec(spec: text, problem: "\"\(rest)\" is not an adapter index (0 for hci0)")
            }
            self = .userChannel(adapter: index)
        case "tcp":
            let host: String
            let portText: Substring
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]"),
                      rest.index(after: close) < rest.endIndex, rest[rest.index(after: close)] == ":" else {
                    throw .invalidTransportSpec(spec: text, problem: "expected tcp:[IPv6]:PORT")
                }
                host = String(rest[rest.index(after: rest.startIndex)..<close])
                portText = rest[rest.index(close, offsetBy: 2)...]
            } else {
                guard let lastColon = rest.lastIndex(of: ":") else {
                    throw .invalidTransportSpec(spec: text, problem: "missing the port (tcp:HOST:PORT)")
                }
                host = String(rest[..<lastColon])
                portText = rest[rest.index(after: lastColon)...]
            }
            guard !host.isEmpty else { throw .invalidTransportSpec(spec: text, problem: "missing the host") }
            guard let port = UInt16(portText), port > 0 else {
                throw .invalidTransportSpec(spec: text, problem: "\"\(portText)\" is not a port (1-65535)")
            }
            self = .tcp(host: host, port: port)
        case "serial":
            var pathPart = Substring(rest)
            var flowControl = false
            if let comma = pathPart.lastIndex(of: ","), !pathPart[pathPart.index(after: comma)...].contains("/") {
                let option = pathPart[pathPart.index(after: comma)...]
                guard option == "rtscts" else {
                    throw .invalidTransportSpec(spec: text, problem: "unknown serial option \"\(option)\" (only rtscts)")
                }
                flowControl = true
                pathPart = pathPart[..<comma]
            }
            var baudRate = Self.defaultBaudRate
            if let at = pathPart.lastIndex(of: "@") {
                let baudText = pathPart[pathPart.index(after: at)...]
                guard let baud = Int(baudText), baud > 0 else {
                    throw .invalidTransportSpec(spec: text, problem: "\"\(baudText)\" is not a baud rate")
                }
                guard H4SerialTransport.supportedBaudRates.contains(baud) else {
                    throw .invalidTransportSpec(
                        spec: text,
                        problem: "unsupported baud rate \(baud); use one of \(H4SerialTransport.supportedBaudRates.map(String.init).joined(separator: ", "))")
                }
                baudRate = baud
                pathPart = pathPart[..<at]
            }
            guard !pathPart.isEmpty else { throw .invalidTransportSpec(spec: text, problem: "missing the device path") }
            self = .serial(path: String(pathPart), baudRate: baudRate, hardwareFlowControl: flowControl)
        default:
            throw .invalidTransportSpec(spec: text, problem: "unknown kind \"\(kind)\"")
        }
    }

    /// The spec in its canonical text form.
    public var description: String {
        switch self {
        case .userChannel(let adapter): return "hci:\(adapter)"
        case .tcp(let host, let port): return host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        case .serial(let path, let baud, let flow): return "serial:\(path)@\(baud)" + (flow ? ",rtscts" : "")
        }
    }

    /// Opens the transport.
    /// - Throws: ``BluetoothError`` from the transport's initializer; its message says what to do.
    public func open() async throws(BluetoothError) -> any HCITransport {
        switch self {
        case .userChannel(let adapter):
            return try HCIUserChannelTransport(adapter: adapter)
        case .tcp(let host, let port):
            return try await H4SocketTransport.connect(host: host, port: port)
        case .serial(let path, let baud, let flow):
            return try H4SerialTransport(path: path, baudRate: baud, hardwareFlowControl: flow)
        }
    }
}
