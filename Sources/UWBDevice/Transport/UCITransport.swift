import NearbyBase
import UCI

/// A link to a UWB subsystem carrying whole UCI packets (header + payload, one segment each).
///
/// Implementations: ``USBTransport`` (libusb: DWM3001CDK, SR150 EVK), ``SerialTransport``
/// (a tty driven by the kernel's driver) and ``TCPTransport`` (raw UCI over TCP, e.g. pica or
/// `nearby sim uwbs`). ``UWBDeviceSpec/makeTransport(configuration:logger:)`` picks one.
///
/// Lifecycle: ``open()`` -> ``send(_:)`` any number of times while iterating the returned
/// stream -> ``close()``. After the stream finished with a ``UWBDeviceError`` of code
/// `disconnected`, call ``waitUntilPresent(timeout:)`` and ``open()`` again to reconnect: the
/// transport redoes the whole bring-up (for USB: detach the kernel driver, claim, DTR).
public protocol UCITransport: AnyObject, Sendable {
    /// What the user named, e.g. "usb:1915:520f@1.4", "serial:/dev/ttyACM0@115200", "tcp:127.0.0.1:7000".
    var name: String { get }

    /// Opens the link. The stream yields every received packet in order, typed (a byte-stream
    /// transport cuts and decodes headers with `UCIPacketFramer`), and finishes with an
    /// error (e.g. the device was unplugged: ``UWBDeviceError`` code `disconnected`) or normally
    /// after ``close()``.
    /// - Throws: ``UWBDeviceError`` (`notFound`, `permissionDenied`, `busy`, `alreadyOpen`, `io`, ...).
    func open() async throws -> UCIPacketStream

    /// Sends one whole UCI packet (the transport adds any board framing).
    /// - Throws: ``UWBDeviceError``: `invalidPacket` if `packet` is not exactly one UCI packet
    ///   (its header's length must match), `timeout` if the device did not take it in time,
    ///   `notOpen`, `disconnected`.
    func send(_ packet: [UInt8]) async throws

    /// Closes the link; idempotent. The stream from ``open()`` finishes normally.
    func close() async

    /// Waits until the device is present again (e.g. after it was unplugged), so that
    /// ``open()`` can succeed. Returns at once if it is present.
    /// - Throws: ``UWBDeviceError`` code `timeout` if it does not appear within `timeout`.
    func waitUntilPresent(timeout: Duration) async throws
}

/// Settings shared by the transports. The defaults suit the supported dev kits.
public struct UCITransportConfiguration: Sendable, Hashable {
    /// How long one UCI packet may take to be accepted by the device (ms precision).
    public var writeTimeout: Duration
    /// USB CDC-ACM: raise DTR and RTS with `SET_CONTROL_LINE_STATE` after claiming. The
    /// DWM3001CDK firmware ignores the host without DTR; turn off only to diagnose firmware.
    public var assertDTR: Bool
    /// USB: number of bulk IN transfers kept in flight (at least 1).
    public var inTransfersInFlight: Int
    /// USB: size of each bulk IN transfer buffer in bytes (rounded up to whole max-size packets).
    public var inTransferSize: Int
    /// FT230X: latency timer in milliseconds (1-255): how long the chip holds a partly filled packet.
    public var ftdiLatencyTimer: UInt8
    /// FT230X: use RTS/CTS hardware flow control.
    public var ftdiHardwareFlowControl: Bool
    /// TCP: how long connecting may take.
    public var connectTimeout: Duration

    /// Creates a configuration; every parameter has the default the dev kits need.
    public init(writeTimeout: Duration = .seconds(1), assertDTR: Bool = true, inTransfersInFlight: Int = 4,
                inTransferSize: Int = 512, ftdiLatencyTimer: UInt8 = 2, ftdiHardwareFlowControl: Bool = false,
                connectTimeout: Duration = .seconds(5)) {
        self.writeTimeout = writeTimeout
        self.assertDTR = assertDTR
        self.inTransfersInFlight = inTransfersInFlight
        self.inTransferSize = inTransferSize
        self.ftdiLatencyTimer = ftdiLatencyTimer
        self.ftdiHardwareFlowControl = ftdiHardwareFlowControl
        self.connectTimeout = connectTimeout
    }
}

/// Durations as the transports need them: whole milliseconds for C APIs, short text for messages.
enum TransportTime {
    /// Whole milliseconds (rounded down, at least 0).
    static func milliseconds(_ duration: Duration) -> Int {
        max(0, Int(duration.inMilliseconds))
    }

    /// "300 ms", "1 s", "2.5 s".
    static func text(_ duration: Duration) -> String {
        let ms = milliseconds(duration)
        if ms < 1000 { return "\(ms) ms" }
        if ms % 1000 == 0 { return "\(ms / 1000) s" }
        return "\(Double(ms) / 1000) s"
    }
}
