#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// H4 over a TCP connection (`tcp:HOST:PORT`): controller emulators (Bumble's `tcp-server`
/// transport, Zephyr's native_sim, Android's netsim) and network bridges to UART controllers.
public final class H4SocketTransport: HCITransport {
    /// `"tcp:HOST:PORT"`.
    public let name: String
    private let channel: FileDescriptorChannel

    /// Packets from the controller; see ``HCITransport/packets``.
    public var packets: AsyncThrowingStream<HCIPacket, any Error> { channel.packets }

    private init(name: String, channel: FileDescriptorChannel) {
        self.name = name
        self.channel = channel
    }

    /// Connects to `host:port` (a name or an IPv4/IPv6 address).
    /// - Parameters:
    ///   - host: a host name or an IPv4/IPv6 address.
    ///   - port: the TCP port the controller (or emulator) listens on.
    ///   - timeout: how long to wait for the TCP handshake.
    /// - Throws: ``BluetoothError/transportOpenFailed(transport:operation:errno:)`` (e.g.
    ///   ECONNREFUSED when nothing listens), ``BluetoothError/invalidTransportSpec(spec:problem:)``
    ///   if the host name does not resolve, ``BluetoothError/timeout(operation:timeout:hint:)``.
    public static func connect(host: String, port: UInt16, timeout: Duration = .seconds(5)) async throws(BluetoothError) -> H4SocketTransport {
        let name = "tcp:\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            let reason = String(cString: gai_strerror(resolved))
            throw .invalidTransportSpec(spec: name, problem: "cannot resolve host \"\(host)\": \(reason)")
        }
        defer { freeaddrinfo(list) }
        var lastErrno: Int32 = ECONNREFUSED
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastErrno = errno
                continue
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var connected = Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0
            if !connected && errno != EINPROGRESS {
                lastErrno = errno
                Glibc.close(fd)
                continue
            }
            // Wait for the handshake without blocking a cooperative thread.
            while !connected {
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&descriptor, 1, 0)
                if ready > 0 {
                    var socketError: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length)
                    if socketError != 0 {
                        lastErrno = socketError
                        break
                    }
                    connected = true
                } else if clock.now >= deadline {
                    Glibc.close(fd)
                    throw .timeout(operation: "TCP connection to \(host):\(port)", timeout: timeout)
                } else {
                    try? await Task.sleep(for: .milliseconds(5))
                }
            }
            guard connected else {
                Glibc.close(fd)
                continue
            }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let channel = try FileDescriptorChannel(fd: fd, name: name, framing: .h4Stream)
            return H4SocketTransport(name: name, channel: channel)
        }
        throw .transportOpenFailed(transport: name, operation: "connect", errno: lastErrno)
    }

    /// Sends one packet as H4; see ``HCITransport/send(_:)``.
    public func send(_ packet: HCIPacket) async throws(BluetoothError) {
        try await channel.send(packet)
    }

    /// Closes the connection.
    public func close() async {
        await channel.close()
    }
}
