/// A UWB dev kit that nearby knows how to drive: its USB identity and how its UCI link works.
///
/// The endpoint numbers here are what the boards ship with; the USB transport still reads the
/// real ones from the configuration descriptor and only falls back to these.
public struct DevKit: Sendable, Hashable, CustomStringConvertible {
    /// How the kit's UCI link is exposed on USB.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// USB CDC-ACM (a virtual serial port): bulk pipes on the data interface, the firmware
        /// waits for DTR (`SET_CONTROL_LINE_STATE`).
        case cdcACM
        /// An FTDI FT230X USB-UART bridge: FTDI vendor requests set the UART, every IN packet
        /// starts with 2 modem-status bytes.
        case ft230x

        /// A short human name.
        public var description: String {
            switch self {
            case .cdcACM: "CDC-ACM"
            case .ft230x: "FTDI FT230X"
            }
        }
    }

    /// How whole UCI packets travel from the host to the board.
    public enum Framing: Sendable, Hashable, CustomStringConvertible {
        /// Raw UCI packets (header + payload) in both directions.
        case rawUCI
        /// NXP's host interface: host -> board `[0x01][len_hi][len_lo]` + UCI packet; board ->
        /// host raw UCI. See ``BoardFraming``.
        case nxpHostInterface

        /// A short human name.
        public var description: String {
            switch self {
            case .rawUCI: "raw UCI"
            case .nxpHostInterface: "NXP host interface (type + 16-bit length)"
            }
        }
    }

    /// Short identifier, e.g. "dwm3001cdk".
    public var identifier: String
    /// Human name, e.g. "Qorvo DWM3001CDK".
    public var name: String
    /// USB vendor ID.
    public var vendorID: UInt16
    /// USB product ID.
    public var productID: UInt16
    /// How UCI is exposed on USB.
    public var kind: Kind
    /// The interface carrying the bulk pipes.
    public var dataInterface: UInt8
    /// The CDC communication interface (receives `SET_CONTROL_LINE_STATE`), `nil` for FTDI.
    public var communicationInterface: UInt8?
    /// Bulk IN endpoint address (board -> host).
    public var bulkIn: UInt8
    /// Bulk OUT endpoint address (host -> board).
    public var bulkOut: UInt8
    /// Bulk max packet size in bytes (64 at full speed).
    public var maxPacketSize: Int
    /// UART baud rate: the one FTDI vendor requests set, and the default for `serial:` specs.
    public var defaultBaud: Int
    /// Host -> board framing.
    public var framing: Framing
    /// The Linux kernel driver that binds the kit when it is plugged in.
    public var kernelDriver: String
    /// Where the USB connector is and what firmware the kit needs, for "not found" help.
    public var hint: String

    /// Creates a catalogue entry.
    public init(identifier: String, name: String, vendorID: UInt16, productID: UInt16, kind: Kind,
                dataInterface: UInt8, communicationInterface: UInt8?, bulkIn: UInt8, bulkOut: UInt8,
                maxPacketSize: Int = 64, defaultBaud: Int, framing: Framing, kernelDriver: String, hint: String) {
        self.identifier = identifier
        self.name = name
        self.vendorID = vendorID
        self.productID = productID
        self.kind = kind
        self.dataInterface = dataInterface
        self.communicationInterface = communicationInterface
        self.bulkIn = bulkIn
        self.bulkOut = bulkOut
        self.maxPacketSize = maxPacketSize
        self.defaultBaud = defaultBaud
        self.framing = framing
        self.kernelDriver = kernelDriver
        self.hint = hint
    }

    /// Qorvo DWM3001CDK with Qorvo's UCI firmware: nRF52833 native USB (connector J20),
    /// CDC-ACM 1915:520f, data interface 1 with bulk OUT 0x01 / IN 0x81, raw UCI.
    public static let dwm3001cdk = DevKit(
        identifier: "dwm3001cdk", name: "Qorvo DWM3001CDK", vendorID: 0x1915, productID: 0x520F,
        kind: .cdcACM, dataInterface: 1, communicationInterface: 0, bulkIn: 0x81, bulkOut: 0x01,
        defaultBaud: 115_200, framing: .rawUCI, kernelDriver: "cdc_acm",
        hint: "use the nRF52833 USB connector (J20) and Qorvo's UCI firmware")

    /// NXP SR150 EVK ("Rhodes4") with the PnP firmware behind an FTDI FT230X (0403:6015),
    /// 3,000,000 baud 8N1, NXP host-interface framing host -> board.
    public static let sr150evk = DevKit(
        identifier: "sr150evk", name: "NXP SR150 EVK", vendorID: 0x0403, productID: 0x6015,
        kind: .ft230x, dataInterface: 0, communicationInterface: nil, bulkIn: 0x81, bulkOut: 0x02,
        defaultBaud: 3_000_000, framing: .nxpHostInterface, kernelDriver: "ftdi_sio",
        hint: "use the FTDI USB connector and NXP's PnP (UCI over UART) firmware")

    /// Every kit nearby knows.
    public static let all: [DevKit] = [.dwm3001cdk, .sr150evk]

    /// The catalogue entry for a USB vendor/product ID, if any.
    public static func matching(vendorID: UInt16, productID: UInt16) -> DevKit? {
        all.first { $0.vendorID == vendorID && $0.productID == productID }
    }

    /// "vvvv:pppp" as `lsusb` prints it.
    public var usbID: String { "\(UWBDeviceSpec.hex4(vendorID)):\(UWBDeviceSpec.hex4(productID))" }

    /// "Qorvo DWM3001CDK (1915:520f, CDC-ACM)".
    public var description: String { "\(name) (\(usbID), \(kind))" }
}
