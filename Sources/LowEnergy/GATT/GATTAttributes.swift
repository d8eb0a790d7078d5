/// A GATT service found on the accessory.
public struct GATTService: Sendable, Hashable, CustomStringConvertible {
    /// The service UUID.
    public var uuid: BluetoothUUID
    /// The service declaration's handle (first handle of the service).
    public var startHandle: UInt16
    /// The last handle of the service.
    public var endHandle: UInt16
    /// `true` for a primary service.
    public var isPrimary: Bool

    /// Creates a service description.
    public init(uuid: BluetoothUUID, startHandle: UInt16, endHandle: UInt16, isPrimary: Bool = true) {
        self.uuid = uuid
        self.startHandle = startHandle
        self.endHandle = endHandle
        self.isPrimary = isPrimary
    }

    /// `"service 180D (0x0010...0x0018)"`.
    public var description: String {
        "service \(uuid) (0x\(hex(startHandle))...0x\(hex(endHandle)))"
    }
}

/// Characteristic properties (Core Vol 3 Part G 3.3.1.1).
public struct GATTCharacteristicProperties: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The property bits.
    public let rawValue: UInt8

    /// Creates properties from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01 Broadcast.
    public static let broadcast = GATTCharacteristicProperties(rawValue: 0x01)
    /// 0x02 Read.
    public static let read = GATTCharacteristicProperties(rawValue: 0x02)
    /// 0x04 Write Without Response.
    public static let writeWithoutResponse = GATTCharacteristicProperties(rawValue: 0x04)
    /// 0x08 Write.
    public static let write = GATTCharacteristicProperties(rawValue: 0x08)
    /// 0x10 Notify.
    public static let notify = GATTCharacteristicProperties(rawValue: 0x10)
    /// 0x20 Indicate.
    public static let indicate = GATTCharacteristicProperties(rawValue: 0x20)
    /// 0x40 Authenticated Signed Writes.
    public static let authenticatedSignedWrites = GATTCharacteristicProperties(rawValue: 0x40)
    /// 0x80 Extended Properties.
    public static let extendedProperties = GATTCharacteristicProperties(rawValue: 0x80)

    /// `"read|write|notify"`.
    public var description: String {
        let names: [(GATTCharacteristicProperties, String)] = [
            (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-without-response"),
            (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
            (.authenticatedSignedWrites, "signed-write"), (.extendedProperties, "extended"),
        ]
        let present = names.filter { contains($0.0) }.map(\.1)
        return present.isEmpty ? "none" : present.joined(separator: "|")
    }
}

/// A GATT characteristic found on the accessory.
public struct GATTCharacteristic: Sendable, Hashable, CustomStringConvertible {
    /// The characteristic UUID.
    public var uuid: BluetoothUUID
    /// The characteristic declaration's handle.
    public var declarationHandle: UInt16
    /// The value's handle (what reads, writes and notifications address).
    public var valueHandle: UInt16
    /// The last handle of the characteristic's definition (its descriptors lie between
    /// ``valueHandle`` + 1 and this).
    public var endHandle: UInt16
    /// The properties.
    public var properties: GATTCharacteristicProperties

    /// Creates a characteristic description.
    public init(uuid: BluetoothUUID, declarationHandle: UInt16, valueHandle: UInt16, endHandle: UInt16,
                properties: GATTCharacteristicProperties) {
        self.uuid = uuid
        self.declarationHandle = declarationHandle
        self.valueHandle = valueHandle
        self.endHandle = endHandle
        self.properties = properties
    }

    /// `"characteristic 2A37 value 0x0012 [notify]"`.
    public var description: String {
        "characteristic \(uuid) value 0x\(hex(valueHandle)) [\(properties)]"
    }
}

/// A characteristic descriptor found on the accessory.
public struct GATTDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The descriptor type (0x2902 for the CCCD).
    public var uuid: BluetoothUUID
    /// Its handle.
    public var handle: UInt16

    /// Creates a descriptor description.
    public init(uuid: BluetoothUUID, handle: UInt16) {
        self.uuid = uuid
        self.handle = handle
    }

    /// `"descriptor 2902 at 0x0013"`.
    public var description: String { "descriptor \(uuid) at 0x\(hex(handle))" }
}

/// How a value is written.
public enum GATTWriteType: Sendable, Hashable {
    /// Write Request: the accessory confirms (or refuses with an ATT error).
    case withResponse
    /// Write Command: no confirmation, no error reporting; faster.
    case withoutResponse
}

/// What a subscription asks for (the CCCD value).
public enum GATTSubscriptionKind: Sendable, Hashable {
    /// Notifications (CCCD 0x0001): unconfirmed.
    case notifications
    /// Indications (CCCD 0x0002): each confirmed by this host.
    case indications

    var cccdValue: [UInt8] {
        switch self {
        case .notifications: return [0x01, 0x00]
        case .indications: return [0x02, 0x00]
        }
    }
}
