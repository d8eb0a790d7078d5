#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// H4 over a tty (`serial:PATH[@BAUD][,rtscts]`): UART controllers (Zephyr `hci_uart`, nRF
/// and ESP32 HCI firmware, USB CDC-ACM dongles) and pseudo-terminals (Bumble's `pty:` transport).
///
/// The tty is put in raw mode (8N1, no echo, no line discipline processing) at the given baud
/// rate; RTS/CTS hardware flow control only when asked (`,rtscts`), since a UART without the
/// CTS line wired would otherwise never send.
public final class H4SerialTransport: HCITransport {
    /// `"serial:PATH@BAUD"`.
    public let name: String
    private let channel: FileDescriptorChannel

    /// Packets from the controller; see ``HCITransport/packets``.
    public var packets: AsyncThrowingStream<HCIPacket, any Error> { channel.packets }

    /// The baud rates this transport can set.
    public static let supportedBaudRates: [Int] = Array(baudConstants.keys).sorted()

    /// Opens `path` in raw mode.
    /// - Parameters:
    ///   - path: the serial device (`/dev/ttyACM0`, `/dev/ttyUSB0`, a pty).
    ///   - baudRate: bits per second; one of ``supportedBaudRates`` (ignored by ptys and USB CDC-ACM).
    ///   - hardwareFlowControl: enable RTS/CTS.
    /// - Throws: ``BluetoothError/transportOpenFailed(transport:operation:errno:)`` (ENOENT,
    ///   EACCES -> dialout group, EBUSY, ENOTTY), ``BluetoothError/invalidTransportSpec(spec:problem:)``
    ///   for an unsupported baud rate.
    public init(path: String, baudRate: Int = 1_000_000, hardwareFlowControl: Bool = false) throws(BluetoothError) {
        let name = "serial:\(path)@\(baudRate)" + (hardwareFlowControl ? ",rtscts" : "")
        guard let speed = Self.baudConstants[baudRate] else {
            throw .invalidTransportSpec(
                spec: name,
                problem: "unsupported baud rate \(baudRate); use one of \(Self.supportedBaudRates.map(String.init).joined(separator: ", "))")
        }
        let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .transportOpenFailed(transport: name, operation: "open", errno: errno) }
        guard isatty(fd) == 1 else {
            Glibc.close(fd)
            throw .transportOpenFailed(transport: name, operation: "isatty", errno: ENOTTY)
        }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .transportOpenFailed(transport: name, operation: "tcgetattr", errno: code)
        }
        cfmakeraw(&settings)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        settings.c_cflag &= ~tcflag_t(CSTOPB)
        if hardwareFlowControl {
            settings.c_cflag |= tcflag_t(CRTSCTS)
        } else {
            settings.c_cflag &= ~tcflag_t(CRTSCTS)
        }
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .transportOpenFailed(transport: name, operation: "tcsetattr", errno: code)
        }
        tcflush(fd, TCIOFLUSH)
        self.name = name
        self.channel = try FileDescriptorChannel(fd: fd, name: name, framing: .h4Stream)
    }

    /// Sends one packet as H4; see ``HCITransport/send(_:)``.
    public func send(_ packet: HCIPacket) async throws(BluetoothError) {
        try await channel.send(packet)
    }

    /// Closes the tty.
    public func close() async {
        await channel.close()
    }

    private static let baudConstants: [Int: speed_t] = [
        9_600: speed_t(B9600), 19_200: speed_t(B19200), 38_400: speed_t(B38400), 57_600: speed_t(B57600),
        115_200: speed_t(B115200), 230_400: speed_t(B230400), 460_800: speed_t(B460800),
        500_000: speed_t(B500000), 576_000: speed_t(B576000), 921_600: speed_t(B921600),
        1_000_000: speed_t(B1000000), 1_152_000: speed_t(B1152000), 1_500_000: speed_t(B1500000),
        2_000_000: speed_t(B2000000), 2_500_000: speed_t(B2500000), 3_000_000: speed_t(B3000000),
        3_500_000: speed_t(B3500000), 4_000_000: speed_t(B4000000),
    ]
}
