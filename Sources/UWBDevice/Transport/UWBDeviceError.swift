/// Why a UWB dev-kit transport failed: one error type for USB, serial and TCP links.
///
/// `code` says what kind of failure it was (switch on it); `description` is a complete message
/// for a user: what went wrong, on which device, and what to do about it.
public struct UWBDeviceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The name of the code, e.g. "permissionDenied".
        public let name: String
        private init(_ name: String) { self.name = name }

        /// A device spec string was malformed.
        public static let invalidSpec = Code("invalidSpec")
        /// No such device is attached (or nothing listens at the address).
        public static let notFound = Code("notFound")
        /// The operating system refused access (USB device node or tty permissions).
        public static let permissionDenied = Code("permissionDenied")
        /// Another driver or process has the device.
        public static let busy = Code("busy")
        /// The device went away (unplugged, reset, connection closed) while it was open.
        public static let disconnected = Code("disconnected")
        /// The device did not accept or answer in time.
        public static let timeout = Code("timeout")
        /// A packet handed to ``UCITransport/send(_:)`` was not one whole UCI packet.
        public static let invalidPacket = Code("invalidPacket")
        /// The device or spec is not supported by this transport.
        public static let unsupported = Code("unsupported")
        /// The transport is not open (or was closed).
        public static let notOpen = Code("notOpen")
        /// The transport is already open.
        public static let alreadyOpen = Code("alreadyOpen")
        /// Any other input/output failure.
        public static let io = Code("io")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public var code: Code
    /// The device as the user named it ("usb:1915:520f@1.4"), empty when not about one device.
    public var device: String
    /// What went wrong, in one sentence.
    public var reason: String
    /// What to do about it, if there is something to do.
    public var remedy: String?

    /// Creates an error.
    public init(_ code: Code, device: String, reason: String, remedy: String? = nil) {
        self.code = code
        self.device = device
        self.reason = reason
        self.remedy = remedy
    }

    /// "DEVICE: reason" and, indented on the next lines, the remedy.
    public var description: String {
        var text = device.isEmpty ? reason : "\(device): \(reason)"
        if let remedy { text += "\n  " + remedy.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ") }
        return text
    }
}

extension UWBDeviceError {
    /// The udev rule shipped with nearby, as named in permission errors.
    public static let udevRulePath = "packaging/99-nearby-uwb.rules"

    /// What to do when the device node or tty cannot be opened for lack of permission.
    static let permissionRemedy = """
        Install the udev rule that gives your user access to the dev kits, then replug the board:
          sudo cp \(udevRulePath) /etc/udev/rules.d/
          sudo udevadm control --reload && sudo udevadm trigger
          sudo usermod -aG plugdev $USER   (then log in again)
        """

    /// What to do when another process holds the device.
    static let busyRemedy = """
        Another program has the board open: ModemManager probes new serial devices \
        (`sudo systemctl stop ModemManager`; the udev rule \(udevRulePath) tells it to keep away), \
        a serial console (screen, minicom, picocom) or another nearby process. Close it and retry.
        """
}
