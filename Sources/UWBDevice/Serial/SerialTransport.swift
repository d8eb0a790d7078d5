#if canImport(Glibc)
import Glibc
#endif
public import Logging

/// UCI over a serial tty driven by the kernel's driver: `/dev/ttyACM*` (cdc_acm, e.g. the
/// DWM3001CDK) or `/dev/ttyUSB*` (ftdi_sio, e.g. the SR150 EVK).
///
/// The tty is opened exclusively (`TIOCEXCL` + `flock`), set to raw 8N1 without flow control at
/// the requested baud rate, and DTR/RTS are raised. If the tty belongs to a known dev kit (looked
/// up in sysfs), its framing is used (NXP host-interface framing for the SR150 EVK).
public actor SerialTransport: UCITransport {
    /// "serial:PATH" or "serial:PATH@BAUD".
    public nonisolated let name: String
    /// The tty path.
    public nonisolated let path: String
    private let requestedBaud: Int?
    private let requestedFraming: DevKit.Framing?
    private let configuration: UCITransportConfiguration
    private let logger: Logger
    private var link: FileDescriptorLink?
    private var framing: DevKit.Framing = .rawUCI

    /// Creates a transport for `path`; nothing is opened yet.
    /// - Parameters:
    ///   - path: the tty (`/dev/ttyACM0`, `/dev/ttyUSB0`).
    ///   - baud: the baud rate; `nil` uses the dev kit's default (found through sysfs) or 115200.
    ///   - framing: host -> board framing; `nil` uses the dev kit's (found through sysfs) or raw UCI.
    ///   - configuration: the transport's timeouts and buffer sizes.
    ///   - logger: where the transport logs.
    public init(path: String, baud: Int? = nil, framing: DevKit.Framing? = nil,
                configuration: UCITransportConfiguration = .init(), logger: Logger = Logger(label: "nearby.uwb.serial")) {
        self.path = path
        self.requestedBaud = baud
        self.requestedFraming = framing
        self.configuration = configuration
        self.logger = logger
        self.name = UWBDeviceSpec.serial(path: path, baud: baud).description
    }

    /// Opens the tty exclusively (raw 8N1, DTR/RTS up) and starts reading; see ``UCITransport/open()``.
    /// - Throws: ``UWBDeviceError``: `notFound` (listing the serial ports), `permissionDenied`
    ///   (udev rule / dialout group), `busy`, `unsupported` (not a tty, baud rate), `alreadyOpen`.
    public func open() async throws -> UCIPacketStream {
        if link != nil {
            throw UWBDeviceError(.alreadyOpen, device: name, reason: "the tty is already open", remedy: "Call close() first.")
        }
        let kit = SerialPorts.kit(forTTY: path)
        let baud = requestedBaud ?? kit?.defaultBaud ?? 115_200
        framing = requestedFraming ?? kit?.framing ?? .rawUCI
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            var error = UWBDeviceError.posix(errno, device: name, operation: "open \(path)")
            if error.code == .notFound {
                let ports = SerialPorts.list().map(\.path)
                error.remedy = "Serial ports present: \(ports.isEmpty ? "none" : ports.joined(separator: ", ")). `nearby uwb list` shows the dev kits."
            } else if error.code == .permissionDenied {
                error.remedy = UWBDeviceError.permissionRemedy + "\nOr add yourself to the tty's group: sudo usermod -aG dialout $USER"
            }
            throw error
        }
        do {
            try configure(fd: fd, baud: baud)
        } catch {
            Glibc.close(fd)
            throw error
        }
        let link = try FileDescriptorLink(fd: fd, isSocket: false, device: name, hangupReason: "the tty hung up (the board was unplugged or reset)")
        let (stream, continuation) = UCIPacketStream.makeStream()
        link.start(continuation)
        self.link = link
        logger.debug("opened serial port", metadata: ["device": "\(name)", "baud": "\(baud)", "framing": "\(framing)"])
        return stream
    }

    private func configure(fd: Int32, baud: Int) throws(UWBDeviceError) {
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            throw UWBDeviceError(.busy, device: name, reason: "another process has \(path) open", remedy: UWBDeviceError.busyRemedy)
        }
        guard let speed = Self.speed(for: baud) else {
            throw UWBDeviceError(.unsupported, device: name, reason: "baud rate \(baud) is not supported by termios",
                                 remedy: "Use one of \(UWBDeviceSpec.supportedBaudRates.map(String.init).joined(separator: ", ")).")
        }
        var options = termios()
        guard tcgetattr(fd, &options) == 0 else {
            if errno == ENOTTY {
                throw UWBDeviceError(.unsupported, device: name, reason: "\(path) is not a tty",
                                     remedy: "Name a serial device such as /dev/ttyACM0 or /dev/ttyUSB0.")
            }
            throw UWBDeviceError.posix(errno, device: name, operation: "read the tty settings of")
        }
        cfmakeraw(&options)
        options.c_cflag |= tcflag_t(CLOCAL | CREAD)
        options.c_cflag &= ~(tcflag_t(CSTOPB | PARENB) | tcflag_t(CRTSCTS))
        options.c_cflag = (options.c_cflag & ~tcflag_t(CSIZE)) | tcflag_t(CS8)
        options.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY)
        cfsetispeed(&options, speed)
        cfsetospeed(&options, speed)
        guard tcsetattr(fd, TCSANOW, &options) == 0 else {
            throw UWBDeviceError.posix(errno, device: name, operation: "set \(baud) baud 8N1 raw on")
        }
        _ = ioctl(fd, UInt(TIOCEXCL))
        var lines = Int32(TIOCM_DTR | TIOCM_RTS)
        _ = ioctl(fd, UInt(TIOCMBIS), &lines)  // pseudo-terminals have no modem lines: ignore failure
        tcflush(fd, TCIOFLUSH)
    }

    /// Writes one whole UCI packet (with the kit's framing); see ``UCITransport/send(_:)``.
    public func send(_ packet: [UInt8]) async throws {
        guard let link else {
            throw UWBDeviceError(.notOpen, device: name, reason: "the tty is not open", remedy: "Call open() first.")
        }
        try UCIPacketCheck.validate(packet, device: name)
        let bytes = framing == .nxpHostInterface ? BoardFraming.frame(packet) : packet
        try link.write(bytes, timeout: configuration.writeTimeout)
    }

    /// Stops reading and closes the tty; idempotent. The stream finishes normally.
    public func close() async {
        link?.stop()
        link = nil
    }

    /// Waits until the tty's path exists (polled every 100 ms).
    /// - Throws: ``UWBDeviceError`` `timeout`.
    public func waitUntilPresent(timeout: Duration) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while access(path, F_OK) != 0 {
            guard clock.now < deadline else {
                throw UWBDeviceError(.timeout, device: name, reason: "\(path) did not appear within \(TransportTime.text(timeout))",
                                     remedy: "Plug the board in; `nearby uwb list` shows what is attached.")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The termios speed constant for a baud rate.
    static func speed(for baud: Int) -> speed_t? {
        let table: [Int: Int32] = [
            1200: B1200, 2400: B2400, 4800: B4800, 9600: B9600, 19200: B19200, 38400: B38400,
            57600: B57600, 115_200: B115200, 230_400: B230400, 460_800: B460800, 500_000: B500000,
            576_000: B576000, 921_600: B921600, 1_000_000: B1000000, 1_152_000: B1152000,
            1_500_000: B1500000, 2_000_000: B2000000, 2_500_000: B2500000, 3_000_000: B3000000,
            3_500_000: B3500000, 4_000_000: B4000000,
        ]
        return table[baud].map { speed_t($0) }
    }
}
