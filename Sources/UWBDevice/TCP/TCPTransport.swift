#if canImport(Glibc)
import Glibc
#endif
public import Logging

/// UCI over TCP: a raw stream of UCI packets in both directions, no extra framing (the
/// convention of Google's pica emulator and of `nearby sim uwbs --listen`). One connection is
/// one UWB subsystem; closing it ends that UWBS's state.
public actor TCPTransport: UCITransport {
    /// "tcp:HOST:PORT".
    public nonisolated let name: String
    /// Host name or address.
    public nonisolated let host: String
    /// TCP port.
    public nonisolated let port: UInt16
    private let configuration: UCITransportConfiguration
    private let logger: Logger
    private var link: FileDescriptorLink?

    /// Creates a transport for `host:port`; nothing is connected yet.
    public init(host: String, port: UInt16, configuration: UCITransportConfiguration = .init(),
                logger: Logger = Logger(label: "nearby.uwb.tcp")) {
        self.host = host
        self.port = port
        self.configuration = configuration
        self.logger = logger
        self.name = UWBDeviceSpec.tcp(host: host, port: port).description
    }

    /// Connects (within `connectTimeout`) and starts reading; see ``UCITransport/open()``.
    /// - Throws: ``UWBDeviceError``: `notFound` (unknown host, connection refused: names the
    ///   server to start), `timeout`, `alreadyOpen`.
    public func open() async throws -> UCIPacketStream {
        if link != nil {
            throw UWBDeviceError(.alreadyOpen, device: name, reason: "the connection is already open", remedy: "Call close() first.")
        }
        let fd = try connect()
        let link = try FileDescriptorLink(fd: fd, isSocket: true, device: name, hangupReason: "the UCI server closed the connection")
        let (stream, continuation) = UCIPacketStream.makeStream()
        link.start(continuation)
        self.link = link
        logger.debug("connected", metadata: ["device": "\(name)"])
        return stream
    }

    private func connect() throws(UWBDeviceError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else {
            throw UWBDeviceError(.notFound, device: name, reason: "cannot resolve host \"\(host)\": \(String(cString: gai_strerror(status)))",
                                 remedy: "Check the host name; for a local emulator use 127.0.0.1.")
        }
        defer { freeaddrinfo(result) }
        var lastError: UWBDeviceError?
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&descriptor, 1, Int32(max(1, TransportTime.milliseconds(configuration.connectTimeout))))
                var socketError: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length)
                if ready == 1 && socketError == 0 {
                    var one: Int32 = 1
                    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    return fd
                }
                lastError = ready == 0
                    ? UWBDeviceError(.timeout, device: name, reason: "connecting took longer than \(TransportTime.text(configuration.connectTimeout))",
                                     remedy: "Check that the UCI server is running and reachable.")
                    : connectError(socketError)
            } else {
                lastError = connectError(errno)
            }
            Glibc.close(fd)
        }
        throw lastError ?? UWBDeviceError(.notFound, device: name, reason: "no usable address for \(host)")
    }

    private func connectError(_ code: Int32) -> UWBDeviceError {
        if code == ECONNREFUSED {
            return UWBDeviceError(.notFound, device: name, reason: "nothing listens on \(host):\(port) (connection refused)",
                                  remedy: "Start the UCI server first, e.g. `nearby sim uwbs --listen \(host):\(port)` or pica (`pica --uci-port \(port)`).")
        }
        return UWBDeviceError.posix(code, device: name, operation: "connect to \(host):\(port)")
    }

    /// Writes one whole UCI packet; see ``UCITransport/send(_:)``.
    public func send(_ packet: [UInt8]) async throws {
        guard let link else {
            throw UWBDeviceError(.notOpen, device: name, reason: "the connection is not open", remedy: "Call open() first.")
        }
        try UCIPacketCheck.validate(packet, device: name)
        try link.write(packet, timeout: configuration.writeTimeout)
    }

    /// Closes the connection; idempotent. The stream finishes normally.
    public func close() async {
        link?.stop()
        link = nil
    }

    /// A TCP server has no presence to wait for without connecting (which would create a UWBS
    /// instance on pica): returns at once; ``open()`` reports a server that is not there.
    public func waitUntilPresent(timeout: Duration) async throws {}
}
