/// What ``BLEHost/start()`` learned about the controller.
public struct ControllerInfo: Sendable, Hashable, CustomStringConvertible {
    /// HCI version (Core Assigned Numbers: 9 = 5.0, 10 = 5.1, 11 = 5.2, 12 = 5.3, 13 = 5.4).
    public var hciVersion: UInt8
    /// HCI revision.
    public var hciRevision: UInt16
    /// Link layer version.
    public var lmpVersion: UInt8
    /// Bluetooth SIG company identifier of the controller's manufacturer.
    public var manufacturer: UInt16
    /// Link layer subversion.
    public var lmpSubversion: UInt16
    /// The controller's public address (00:00:00:00:00:00 if it has none).
    public var publicAddress: BluetoothAddress
    /// LE features (LE Read Local Supported Features), see ``LEFeatures``.
    public var leFeatures: LEFeatures
    /// LE ACL data packet length the controller buffers, bytes.
    public var aclPacketLength: Int
    /// Number of LE ACL buffers.
    public var aclPacketCount: Int

    /// `"5.0"` etc. for the HCI version.
    public var bluetoothVersion: String {
        let names: [UInt8: String] = [6: "4.0", 7: "4.1", 8: "4.2", 9: "5.0", 10: "5.1", 11: "5.2", 12: "5.3", 13: "5.4", 14: "6.0"]
        return names[hciVersion] ?? "HCI version \(hciVersion)"
    }

    /// `"Bluetooth 5.0 controller, manufacturer 0xFFFF, public address C0:11:22:33:44:55, LE buffers 64 x 27 bytes, extended advertising"`.
    public var description: String {
        var text = "Bluetooth \(bluetoothVersion) controller, manufacturer 0x\(hex(manufacturer)), "
            + "public address \(publicAddress), LE buffers \(aclPacketCount) x \(aclPacketLength) bytes"
        if leFeatures.contains(.extendedAdvertising) { text += ", extended advertising" }
        return text
    }
}

/// LE controller features (Core Vol 6 Part B 4.6).
public struct LEFeatures: OptionSet, Sendable, Hashable {
    /// The feature bits.
    public let rawValue: UInt64

    /// Creates features from their bits.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Bit 0: LE Encryption.
    public static let encryption = LEFeatures(rawValue: 1 << 0)
    /// Bit 1: Connection Parameters Request Procedure.
    public static let connectionParametersRequest = LEFeatures(rawValue: 1 << 1)
    /// Bit 5: LE Data Packet Length Extension.
    public static let dataPacketLengthExtension = LEFeatures(rawValue: 1 << 5)
    /// Bit 6: LL Privacy.
    public static let privacy = LEFeatures(rawValue: 1 << 6)
    /// Bit 8: LE 2M PHY.
    public static let phy2M = LEFeatures(rawValue: 1 << 8)
    /// Bit 11: LE Coded PHY.
    public static let phyCoded = LEFeatures(rawValue: 1 << 11)
    /// Bit 12: LE Extended Advertising (extended scan and create connection commands).
    public static let extendedAdvertising = LEFeatures(rawValue: 1 << 12)
}

/// How ``BLEHost`` sets up and drives the controller.
public struct BLEHostConfiguration: Sendable, Hashable {
    /// Which own address the host uses for scanning and connecting.
    public enum OwnAddress: Sendable, Hashable {
        /// A random static address: `nil` generates a fresh one at start (the default), or
        /// give a fixed one (its two top bits must be `11`).
        case randomStatic(BluetoothAddress?)
        /// The controller's public address (some controllers have none).
        case `public`
    }

    /// Legacy (Bluetooth 4.x) or extended (5.x) scan and connect commands.
    public enum CommandSet: Sendable, Hashable {
        /// Extended when the controller supports LE Extended Advertising, else legacy.
        case automatic
        /// Always legacy commands.
        case legacy
        /// Always extended commands (fails on controllers without them).
        case extended
    }

    /// Deadline for every HCI command's answer (some controllers never answer some commands).
    public var commandTimeout: Duration
    /// Deadline for each command while the controller starts: HCI Reset and the reads and
    /// event masks after it (``BLEHost/start()``). Default 10 s, Linux's `HCI_INIT_TIMEOUT`:
    /// a controller may be slow right after a reset (a USB dongle re-enumerating, a virtual
    /// controller on a busy machine); ``commandTimeout`` applies from then on.
    public var resetTimeout: Duration
    /// The own address.
    public var ownAddress: OwnAddress
    /// The command set.
    public var commandSet: CommandSet
    /// Keep connections a central makes to this host (it advertised); default `false`: such
    /// links are disconnected (a host that never advertises should not get them).
    public var acceptsPeripheralConnections = false
    /// The ATT_MTU this host offers a central that connected to it (its receive MTU in the
    /// central's MTU exchange); 247 fits a 251-byte LE data PDU. Default 247.
    public var peripheralMTU: UInt16 = 247

    /// Creates a configuration: 2 s command timeout (Linux's `HCI_CMD_TIMEOUT`), 10 s for each
    /// command of the start sequence, random static own address, automatic command set.
    public init(commandTimeout: Duration = .seconds(2), resetTimeout: Duration = .seconds(10),
                ownAddress: OwnAddress = .randomStatic(nil), commandSet: CommandSet = .automatic) {
        self.commandTimeout = commandTimeout
        self.resetTimeout = resetTimeout
        self.ownAddress = ownAddress
        self.commandSet = commandSet
    }
}

/// Options for one connection.
public struct ConnectionOptions: Sendable, Hashable {
    /// Connection parameters requested at connection time.
    public var parameters: ConnectionParameters
    /// The ATT_MTU this host offers in an MTU exchange right after connecting (247 fits a
    /// 251-byte LE data PDU); `nil` skips the exchange (the MTU stays 23).
    public var preferredMTU: UInt16?
    /// How long an ATT request waits for its response (the spec's transaction timeout is 30 s).
    public var attTimeout: Duration

    /// Creates options: default parameters, MTU 247, 30 s ATT timeout.
    public init(parameters: ConnectionParameters = ConnectionParameters(), preferredMTU: UInt16? = 247,
                attTimeout: Duration = .seconds(30)) {
        self.parameters = parameters
        self.preferredMTU = preferredMTU
        self.attTimeout = attTimeout
    }
}
