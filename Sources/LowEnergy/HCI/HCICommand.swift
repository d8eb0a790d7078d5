/// An HCI command: opcode and parameters (Core Vol 4 Part E 5.4.1, 7).
///
/// The static factories build the commands the host uses, byte-exact; ``packet`` is what goes
/// on the wire (`HCICommand.reset.packet.h4Bytes == [0x01, 0x03, 0x0C, 0x00]`).
public struct HCICommand: Sendable, Hashable, CustomStringConvertible {
    /// The opcode.
    public var opcode: HCIOpcode
    /// The parameters (at most 255 bytes).
    public var parameters: [UInt8]

    /// Creates a command.
    /// - Precondition: `parameters.count <= 255` (every factory here respects it).
    public init(_ opcode: HCIOpcode, _ parameters: [UInt8] = []) {
        precondition(parameters.count <= 255, "HCI command parameters are at most 255 bytes")
        self.opcode = opcode
        self.parameters = parameters
    }

    /// The HCI packet: opcode (little-endian), parameter length, parameters.
    public var packet: HCIPacket {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(3 + parameters.count)
        bytes.appendLE(opcode.rawValue)
        bytes.append(UInt8(parameters.count))
        bytes.append(contentsOf: parameters)
        return HCIPacket(.command, bytes)
    }

    /// `true` for commands the controller answers with Command Status (their result comes later
    /// in another event), `false` for those answered with Command Complete.
    public var answeredWithStatus: Bool {
        switch opcode {
        case .disconnect, .readRemoteVersionInformation, .leCreateConnection, .leExtendedCreateConnection,
             .leConnectionUpdate, .leReadRemoteFeatures, .leSetPHY, .leEnableEncryption:
            return true
        default:
            return false
        }
    }

    /// `"HCI Reset (0x0C03)"`.
    public var description: String { opcode.description }

    /// `true` for commands whose parameters hold a key (LE Enable Encryption, LE Long Term Key
    /// Request Reply, LE Add Device To Resolving List): never log their bytes.
    public var carriesKey: Bool {
        opcode == .leEnableEncryption || opcode == .leLongTermKeyRequestReply || opcode == .leAddDeviceToResolvingList
    }

    // MARK: - Controller setup

    /// Reset.
    public static let reset = HCICommand(.reset)
    /// Read Local Version Information.
    public static let readLocalVersionInformation = HCICommand(.readLocalVersionInformation)
    /// Read Local Supported Commands.
    public static let readLocalSupportedCommands = HCICommand(.readLocalSupportedCommands)
    /// Read BD_ADDR.
    public static let readBDADDR = HCICommand(.readBDADDR)
    /// Read Buffer Size (shared BR/EDR + LE buffers).
    public static let readBufferSize = HCICommand(.readBufferSize)
    /// LE Read Buffer Size.
    public static let leReadBufferSize = HCICommand(.leReadBufferSize)
    /// LE Read Local Supported Features.
    public static let leReadLocalSupportedFeatures = HCICommand(.leReadLocalSupportedFeatures)
    /// LE Create Connection Cancel.
    public static let leCreateConnectionCancel = HCICommand(.leCreateConnectionCancel)

    /// Set Event Mask with `mask` (bit n enables event code n + 1).
    public static func setEventMask(_ mask: UInt64) -> HCICommand {
        var parameters: [UInt8] = []
        parameters.appendLE(mask)
        return HCICommand(.setEventMask, parameters)
    }

    /// LE Set Event Mask with `mask` (bit n enables LE subevent n + 1).
    public static func leSetEventMask(_ mask: UInt64) -> HCICommand {
        var parameters: [UInt8] = []
        parameters.appendLE(mask)
        return HCICommand(.leSetEventMask, parameters)
    }

    /// LE Set Random Address.
    public static func leSetRandomAddress(_ address: BluetoothAddress) -> HCICommand {
        HCICommand(.leSetRandomAddress, address.littleEndianBytes)
    }

    // MARK: - Scanning

    /// LE Set Scan Parameters (legacy).
    /// - Parameters:
    ///   - active: send scan requests (get scan responses).
    ///   - interval: scan interval in 0.625 ms units (0x0004...0x4000).
    ///   - window: scan window in 0.625 ms units (<= interval).
    ///   - ownAddressType: 0 public, 1 random.
    ///   - filterPolicy: 0 accept all advertisements.
    public static func leSetScanParameters(active: Bool, interval: UInt16, window: UInt16,
                                           ownAddressType: BluetoothAddressType, filterPolicy: UInt8 = 0) -> HCICommand {
        var parameters: [UInt8] = [active ? 1 : 0]
        parameters.appendLE(interval)
        parameters.appendLE(window)
        parameters.append(ownAddressType.rawValue)
        parameters.append(filterPolicy)
        return HCICommand(.leSetScanParameters, parameters)
    }

    /// LE Set Scan Enable (legacy).
    public static func leSetScanEnable(_ enable: Bool, filterDuplicates: Bool = false) -> HCICommand {
        HCICommand(.leSetScanEnable, [enable ? 1 : 0, filterDuplicates ? 1 : 0])
    }

    /// LE Set Extended Scan Parameters on the LE 1M PHY.
    public static func leSetExtendedScanParameters(active: Bool, interval: UInt16, window: UInt16,
                                                   ownAddressType: BluetoothAddressType, filterPolicy: UInt8 = 0) -> HCICommand {
        var parameters: [UInt8] = [ownAddressType.rawValue, filterPolicy, 0x01, active ? 1 : 0]
        parameters.appendLE(interval)
        parameters.appendLE(window)
        return HCICommand(.leSetExtendedScanParameters, parameters)
    }

    /// LE Set Extended Scan Enable, scanning until disabled.
    public static func leSetExtendedScanEnable(_ enable: Bool, filterDuplicates: Bool = false) -> HCICommand {
        HCICommand(.leSetExtendedScanEnable, [enable ? 1 : 0, filterDuplicates ? 1 : 0, 0, 0, 0, 0])
    }

    // MARK: - Connections

    /// LE Create Connection (legacy) to `peer`.
    public static func leCreateConnection(peer: BluetoothAddress, peerType: BluetoothAddressType,
                                          ownAddressType: BluetoothAddressType,
                                          parameters connection: ConnectionParameters) -> HCICommand {
        var parameters: [UInt8] = []
        parameters.appendLE(connection.scanInterval)
        parameters.appendLE(connection.scanWindow)
        parameters.append(0x00)  // initiator filter policy: use the peer address
        parameters.append(peerType.rawValue)
        parameters.append(contentsOf: peer.littleEndianBytes)
        parameters.append(ownAddressType.rawValue)
        parameters.appendLE(connection.intervalMin)
        parameters.appendLE(connection.intervalMax)
        parameters.appendLE(connection.latency)
        parameters.appendLE(connection.supervisionTimeout)
        parameters.appendLE(UInt16(0))  // minimum CE length
        parameters.appendLE(UInt16(0))  // maximum CE length
        return HCICommand(.leCreateConnection, parameters)
    }

    /// LE Extended Create Connection to `peer`, initiating on the LE 1M PHY.
    public static func leExtendedCreateConnection(peer: BluetoothAddress, peerType: BluetoothAddressType,
                                                  ownAddressType: BluetoothAddressType,
                                                  parameters connection: ConnectionParameters) -> HCICommand {
        var parameters: [UInt8] = [0x00, ownAddressType.rawValue, peerType.rawValue]
        parameters.append(contentsOf: peer.littleEndianBytes)
        parameters.append(0x01)  // initiating PHYs: LE 1M
        parameters.appendLE(connection.scanInterval)
        parameters.appendLE(connection.scanWindow)
        parameters.appendLE(connection.intervalMin)
        parameters.appendLE(connection.intervalMax)
        parameters.appendLE(connection.latency)
        parameters.appendLE(connection.supervisionTimeout)
        parameters.appendLE(UInt16(0))
        parameters.appendLE(UInt16(0))
        return HCICommand(.leExtendedCreateConnection, parameters)
    }

    /// Disconnect `handle` with `reason` (the spec allows 0x05, 0x13-0x15, 0x1A, 0x29, 0x3B).
    public static func disconnect(handle: UInt16, reason: HCIStatus) -> HCICommand {
        var parameters: [UInt8] = []
        parameters.appendLE(handle)
        parameters.append(reason.rawValue)
        return HCICommand(.disconnect, parameters)
    }

    /// LE Connection Update of `handle` to `connection`'s interval, latency and timeout.
    public static func leConnectionUpdate(handle: UInt16, parameters connection: ConnectionParameters) -> HCICommand {
        var parameters: [UInt8] = []
        parameters.appendLE(handle)
        parameters.appendLE(connection.intervalMin)
        parameters.appendLE(connection.intervalMax)
        parameters.appendLE(connection.latency)
        parameters.appendLE(connection.supervisionTimeout)
        parameters.appendLE(UInt16(0))
        parameters.appendLE(UInt16(0))
        return HCICommand(.leConnectionUpdate, parameters)
    }

    // MARK: - Security

    /// LE Enable Encryption of `handle` with `key` (central; answered with Command Status, the
    /// outcome comes as Encryption Change or Encryption Key Refresh Complete).
    public static func leEnableEncryption(handle: UInt16, key: LongTermKey) -> HCICommand {
        var parameters: [UInt8] = []
        parameters.appendLE(handle)
        parameters.appendLE(key.rand)
        parameters.appendLE(key.ediv)
        parameters.append(contentsOf: key.key.bytes.reversed())
        return HCICommand(.leEnableEncryption, parameters)
    }

    /// LE Long Term Key Request Reply for `handle` with `key` (peripheral).
    public static func leLongTermKeyRequestReply(handle: UInt16, key: SecurityKey) -> HCICommand {
        var parameters: [UInt8] = []
        parameters.appendLE(handle)
        parameters.append(contentsOf: key.bytes.reversed())
        return HCICommand(.leLongTermKeyRequestReply, parameters)
    }

    /// LE Long Term Key Request Negative Reply for `handle` (no key: the central sees PIN or Key Missing).
    public static func leLongTermKeyRequestNegativeReply(handle: UInt16) -> HCICommand {
        var parameters: [UInt8] = []
        parameters.appendLE(handle)
        return HCICommand(.leLongTermKeyRequestNegativeReply, parameters)
    }

    /// Read Encryption Key Size of `handle`.
    public static func readEncryptionKeySize(handle: UInt16) -> HCICommand {
        var parameters: [UInt8] = []
        parameters.appendLE(handle)
        return HCICommand(.readEncryptionKeySize, parameters)
    }

    /// LE Add Device To Resolving List: the peer's identity and IRK, and this host's IRK.
    public static func leAddDeviceToResolvingList(peer: IdentityAddress, peerIRK: SecurityKey, localIRK: SecurityKey) -> HCICommand {
        var parameters: [UInt8] = [peer.type.rawValue]
        parameters.append(contentsOf: peer.address.littleEndianBytes)
        parameters.append(contentsOf: peerIRK.bytes.reversed())
        parameters.append(contentsOf: localIRK.bytes.reversed())
        return HCICommand(.leAddDeviceToResolvingList, parameters)
    }

    /// LE Clear Resolving List.
    public static let leClearResolvingList = HCICommand(.leClearResolvingList)

    /// LE Set Address Resolution Enable.
    public static func leSetAddressResolutionEnable(_ enable: Bool) -> HCICommand {
        HCICommand(.leSetAddressResolutionEnable, [enable ? 1 : 0])
    }

    /// LE Remote Connection Parameter Request Reply accepting `connection` for `handle`.
    public static func leRemoteConnectionParameterRequestReply(handle: UInt16, parameters connection: ConnectionParameters) -> HCICommand {
        var parameters: [UInt8] = []
        parameters.appendLE(handle)
        parameters.appendLE(connection.intervalMin)
        parameters.appendLE(connection.intervalMax)
        parameters.appendLE(connection.latency)
        parameters.appendLE(connection.supervisionTimeout)
        parameters.appendLE(UInt16(0))
        parameters.appendLE(UInt16(0))
        return HCICommand(.leRemoteConnectionParameterRequestReply, parameters)
    }

    /// LE Remote Connection Parameter Request Negative Reply for `handle` with `reason`.
    public static func leRemoteConnectionParameterRequestNegativeReply(handle: UInt16, reason: HCIStatus) -> HCICommand {
        var parameters: [UInt8] = []
        parameters.appendLE(handle)
        parameters.append(reason.rawValue)
        return HCICommand(.leRemoteConnectionParameterRequestNegativeReply, parameters)
    }
}

/// LE connection parameters, in the units HCI uses.
public struct ConnectionParameters: Sendable, Hashable, CustomStringConvertible {
    /// Minimum connection interval, in 1.25 ms units (6...3200 = 7.5 ms...4 s).
    public var intervalMin: UInt16
    /// Maximum connection interval, in 1.25 ms units (>= ``intervalMin``).
    public var intervalMax: UInt16
    /// Peripheral latency, in connection events the peripheral may skip (0...499).
    public var latency: UInt16
    /// Supervision timeout, in 10 ms units (10...3200 = 100 ms...32 s): the link is declared
    /// lost (reason 0x08) after this long without a packet.
    public var supervisionTimeout: UInt16
    /// Scan interval while initiating, in 0.625 ms units.
    public var scanInterval: UInt16
    /// Scan window while initiating, in 0.625 ms units (<= ``scanInterval``).
    public var scanWindow: UInt16

    /// Creates parameters; the defaults suit a data channel: 30-50 ms interval, no latency,
    /// 4 s supervision timeout, initiator scanning 60 ms of every 60 ms.
    public init(intervalMin: UInt16 = 24, intervalMax: UInt16 = 40, latency: UInt16 = 0,
                supervisionTimeout: UInt16 = 400, scanInterval: UInt16 = 0x0060, scanWindow: UInt16 = 0x0060) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
    }

    /// The problem with these values, or `nil` if they are valid (Core Vol 4 Part E 7.8.12).
    public var validationProblem: String? {
        guard (6...3200).contains(intervalMin), (6...3200).contains(intervalMax) else {
            return "connection interval \(intervalMin)...\(intervalMax) outside 6...3200 (7.5 ms...4 s, in 1.25 ms units)"
        }
        guard intervalMin <= intervalMax else { return "minimum interval \(intervalMin) above maximum \(intervalMax)" }
        guard latency <= 499 else { return "latency \(latency) above 499" }
        guard (10...3200).contains(supervisionTimeout) else {
            return "supervision timeout \(supervisionTimeout) outside 10...3200 (100 ms...32 s, in 10 ms units)"
        }
        // timeout (ms) > (1 + latency) * interval_max (ms) * 2
        let timeoutMs = Int(supervisionTimeout) * 10
        let needed = (1 + Int(latency)) * Int(intervalMax) * 125 * 2 / 100
        guard timeoutMs > needed else {
            return "supervision timeout \(timeoutMs) ms must exceed (1 + latency) x interval x 2 = \(needed) ms"
        }
        guard (4...0x4000).contains(scanInterval), (4...0x4000).contains(scanWindow), scanWindow <= scanInterval else {
            return "scan window \(scanWindow) / interval \(scanInterval) invalid (4...16384, window <= interval, 0.625 ms units)"
        }
        return nil
    }

    /// `"interval 30.0-50.0 ms, latency 0, timeout 4000 ms"`.
    public var description: String {
        let low = Double(intervalMin) * 1.25
        let high = Double(intervalMax) * 1.25
        return "interval \(low)-\(high) ms, latency \(latency), timeout \(Int(supervisionTimeout) * 10) ms"
    }
}
