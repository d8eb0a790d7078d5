/// What a client needs before it may read or write an attribute this host serves.
public enum GATTServerSecurity: Sendable, Hashable, CustomStringConvertible {
    /// Anyone connected.
    case none
    /// An encrypted link: a client on an unencrypted link gets Insufficient Authentication
    /// (0x05; Insufficient Encryption 0x0F when a bond exists), which makes phones pair or
    /// encrypt (Just Works is enough).
    case encrypted

    /// `none` or `encrypted`.
    public var description: String { self == .none ? "none" : "encrypted" }
}

/// A characteristic this host serves (a ``GATTServer`` builds its declaration, value and, for
/// notify / indicate, its Client Characteristic Configuration descriptor).
public struct GATTServerCharacteristic: Sendable, Hashable {
    /// The characteristic UUID.
    public var uuid: BluetoothUUID
    /// The properties announced in the declaration (read, write, write without response,
    /// notify, indicate); they also decide which requests are allowed.
    public var properties: GATTCharacteristicProperties
    /// The value reads return (until ``GATTServer/setValue(_:for:)`` changes it).
    public var value: [UInt8]
    /// What reads need.
    public var readSecurity: GATTServerSecurity
    /// What writes need.
    public var writeSecurity: GATTServerSecurity
    /// A Characteristic User Description (0x2901) descriptor, if any.
    public var userDescription: String?
    /// The longest value a write may set, bytes (ATT's limit is 512).
    public var maximumLength: Int

    /// Creates a characteristic definition.
    public init(uuid: BluetoothUUID, properties: GATTCharacteristicProperties, value: [UInt8] = [],
                readSecurity: GATTServerSecurity = .none, writeSecurity: GATTServerSecurity = .none,
                userDescription: String? = nil, maximumLength: Int = 512) {
        self.uuid = uuid
        self.properties = properties
        self.value = value
        self.readSecurity = readSecurity
        self.writeSecurity = writeSecurity
        self.userDescription = userDescription
        self.maximumLength = maximumLength
    }

    /// `true` if the characteristic gets a Client Characteristic Configuration descriptor.
    var hasConfiguration: Bool { !properties.isDisjoint(with: [.notify, .indicate]) }
}

/// A service this host serves.
public struct GATTServerService: Sendable, Hashable {
    /// The service UUID.
    public var uuid: BluetoothUUID
    /// `true` for a primary service (what clients discover).
    public var isPrimary: Bool
    /// The characteristics, in handle order.
    public var characteristics: [GATTServerCharacteristic]

    /// Creates a service definition.
    public init(uuid: BluetoothUUID, isPrimary: Bool = true, characteristics: [GATTServerCharacteristic]) {
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.characteristics = characteristics
    }

    /// The Generic Access service a phone reads first: Device Name (0x2A00) and Appearance
    /// (0x2A01, `appearance`, 0 = unknown), both readable.
    public static func genericAccess(name: String, appearance: UInt16 = 0) -> GATTServerService {
        GATTServerService(uuid: .genericAccess, characteristics: [
            GATTServerCharacteristic(uuid: .deviceName, properties: .read, value: Array(name.utf8.prefix(248))),
            GATTServerCharacteristic(uuid: .appearance, properties: .read, value: [UInt8(appearance & 0xFF), UInt8(appearance >> 8)]),
        ])
    }

    /// The Generic Attribute service: Service Changed (0x2A05, indicate) covering every handle.
    /// The database never changes while the host runs, so it is never indicated.
    public static let genericAttribute = GATTServerService(uuid: .genericAttribute, characteristics: [
        GATTServerCharacteristic(uuid: .serviceChanged, properties: .indicate, value: [0x01, 0x00, 0xFF, 0xFF])
    ])
}

/// Where a served characteristic landed in the database.
public struct GATTServerHandles: Sendable, Hashable, CustomStringConvertible {
    /// The characteristic declaration.
    public var declaration: UInt16
    /// The value (what reads, writes and notifications address).
    public var value: UInt16
    /// The Client Characteristic Configuration descriptor, for notify / indicate.
    public var configuration: UInt16?

    /// `"value 0x0012, CCCD 0x0013"`.
    public var description: String {
        "value 0x\(hex(value))" + (configuration.map { ", CCCD 0x\(hex($0))" } ?? "")
    }
}

/// A client's Client Characteristic Configuration for one characteristic on one connection.
public struct GATTClientConfiguration: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The descriptor's bits.
    public let rawValue: UInt16
    /// Creates a configuration from its bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Bit 0: notifications.
    public static let notifications = GATTClientConfiguration(rawValue: 0x0001)
    /// Bit 1: indications.
    public static let indications = GATTClientConfiguration(rawValue: 0x0002)

    /// `"notifications"`, `"indications"`, `"notifications|indications"` or `"off"`.
    public var description: String {
        var names: [String] = []
        if contains(.notifications) { names.append("notifications") }
        if contains(.indications) { names.append("indications") }
        return names.isEmpty ? "off" : names.joined(separator: "|")
    }
}

/// A write a client made to a served characteristic's value.
public struct GATTServerWrite: Sendable {
    /// The connection it came on.
    public var connection: BLEConnection
    /// The value handle written.
    public var handle: UInt16
    /// The value (a whole prepared write once executed).
    public var value: [UInt8]
    /// `true` for a Write Request (the client gets a response or the error the handler
    /// returns), `false` for a Write Command (nothing goes back).
    public var withResponse: Bool
}

extension BluetoothUUID {
    /// Device Name characteristic (0x2A00).
    public static let deviceName = BluetoothUUID(0x2A00)
    /// Appearance characteristic (0x2A01).
    public static let appearance = BluetoothUUID(0x2A01)
    /// Service Changed characteristic (0x2A05).
    public static let serviceChanged = BluetoothUUID(0x2A05)
}
