public import Logging

extension UWBDeviceSpec {
    /// Makes the transport for this spec (nothing is opened yet).
    public func makeTransport(configuration: UCITransportConfiguration = .init(),
                              logger: Logger = Logger(label: "nearby.uwb")) -> any UCITransport {
        switch self {
        case .usb(let vendorID, let productID, let bus, let address):
            return USBTransport(vendorID: vendorID, productID: productID, bus: bus, address: address,
                                configuration: configuration, logger: logger)
        case .serial(let path, let baud):
            return SerialTransport(path: path, baud: baud, configuration: configuration, logger: logger)
        case .tcp(let host, let port):
            return TCPTransport(host: host, port: port, configuration: configuration, logger: logger)
        }
    }
}
