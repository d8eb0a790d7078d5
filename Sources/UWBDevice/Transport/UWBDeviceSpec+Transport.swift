public import Logging

extension UWBDeviceSpec {
    /// Makes the transport for this spec (nothing is opened yet).
    /// - Throws: ``UWBDeviceError`` code `unsupported` for ``simulator``, which the CLI wires to
    ///   the Simulation module's virtual UWBS instead.
    public func makeTransport(configuration: UCITransportConfiguration = .init(),
                              logger: Logger = Logger(label: "nearby.uwb")) throws(UWBDeviceError) -> any UCITransport {
        switch self {
        case .usb(let vendorID, let productID, let bus, let address):
            return USBTransport(vendorID: vendorID, productID: productID, bus: bus, address: address,
                                configuration: configuration, logger: logger)
        case .serial(let path, let baud):
            return SerialTransport(path: path, baud: baud, configuration: configuration, logger: logger)
        case .tcp(let host, let port):
            return TCPTransport(host: host, port: port, configuration: configuration, logger: logger)
        case .simulator:
            throw UWBDeviceError(
                .unsupported, device: "sim",
                reason: "the built-in simulator is not a transport of the UWBDevice module",
                remedy: "It is provided by the Simulation module: the nearby commands accept --device sim; a library user runs a virtual UWBS (Simulation) and connects with tcp:HOST:PORT.")
        }
    }
}
