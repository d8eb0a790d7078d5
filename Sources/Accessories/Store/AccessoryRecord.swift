public import Foundation
public import LowEnergy

/// Whether the system holds keys for an accessory (a bond from pairing).
public enum BondingState: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Not bonded (set up without `--pair`, or the bond was removed).
    case none
    /// Bonded: the record holds the keys (``AccessoryRecord/bond``), from `nearby setup --pair`
    /// or imported from BlueZ.
    case bonded
    /// Not known (migrated by address only).
    case unknown

    /// `"none"`, `"bonded"` or `"unknown"`.
    public var description: String { rawValue }
}

/// Who keeps an accessory's bond when not this store.
public enum BondHolder: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// bluetoothd (`nearby setup --pair` over `--hci bluez`): the keys are in
    /// `/var/lib/bluetooth`, not in this store; `nearby accessories forget` removes the device
    /// from BlueZ too.
    case bluez

    /// `"bluez"`.
    public var description: String { rawValue }
}

/// How an accessory came into the store.
public enum AccessoryOrigin: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Picked and checked by the setup flow (`nearby setup`).
    case setup
    /// Migrated by address (`nearby accessories migrate --address`).
    case migratedAddress = "migrated-address"
    /// Migrated from BlueZ's bond directory (`nearby accessories migrate --bluez`).
    case migratedBlueZ = "migrated-bluez"

    /// The raw value.
    public var description: String { rawValue }
}

/// The data channel an accessory was found to offer at setup: the service's name and UUID.
public struct DataChannelReference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The service's short name ("Nordic UART", "Qorvo NI").
    public var name: String
    /// The GATT service UUID.
    public var service: BluetoothUUID

    /// Creates a reference.
    public init(name: String, service: BluetoothUUID) {
        self.name = name
        self.service = service
    }

    /// A reference to `service`.
    public init(_ service: DataChannelService) {
        self.init(name: service.name, service: service.service)
    }

    /// The known service definition with this UUID (`DataChannelService.known`), if any.
    public var definition: DataChannelService? {
        DataChannelService.known.first { $0.service == service }
    }

    /// `"Nordic UART (6E400001-…)"`.
    public var description: String { "\(name) (\(service))" }
}

/// One set-up accessory, as kept in the store (specs/accessories.md §4).
public struct AccessoryRecord: Sendable, Hashable, Codable, Identifiable, CustomStringConvertible {
    /// Stable identifier: 8 lower-case hex digits, random, unique in the store ("3fa2c1d0").
    public var id: String
    /// The name the user sees (the display item's name, or what they renamed it to).
    public var displayName: String
    /// The local name the accessory advertised (or BlueZ's `Name=`), if any.
    public var advertisedName: String?
    /// The accessory's address.
    public var address: BluetoothAddress
    /// Its address type (connect with this).
    public var addressType: BluetoothAddressType
    /// The descriptor that found it (`nil` for migrated accessories).
    public var descriptor: DiscoveryDescriptor?
    /// The data channel it offered at setup (`nil`: not checked, e.g. migrated).
    public var dataChannel: DataChannelReference?
    /// Whether the system holds a bond for it.
    public var bonding: BondingState
    /// How it came into the store.
    public var origin: AccessoryOrigin
    /// The display item's image, if any.
    public var imagePath: String?
    /// When it was set up (whole seconds, UTC in the file).
    public var addedAt: Date
    /// When it was last seen (set up, scanned or connected), if ever.
    public var lastSeenAt: Date?
    /// The keys from pairing (secrets: written to the store file only, never printed; other
    /// encoders get ``bonded``, `secure_connections` and `key_size` instead).
    public var bond: Bond?
    /// Who keeps the bond when this store does not (``BondHolder/bluez``), `nil` otherwise.
    public var bondHolder: BondHolder?

    /// `true` if the record holds a bond.
    public var bonded: Bool { bond != nil }

    /// Creates a record; dates are truncated to whole seconds (the file's precision), so a record
    /// read back equals the one written.
    public init(id: String = AccessoryRecord.newID(), displayName: String, advertisedName: String? = nil,
                address: BluetoothAddress, addressType: BluetoothAddressType, descriptor: DiscoveryDescriptor? = nil,
                dataChannel: DataChannelReference? = nil, bonding: BondingState = .none, origin: AccessoryOrigin = .setup,
                imagePath: String? = nil, addedAt: Date = Date(), lastSeenAt: Date? = nil, bond: Bond? = nil) {
        self.id = id
        self.displayName = displayName
        self.advertisedName = advertisedName
        self.address = address
        self.addressType = addressType
        self.descriptor = descriptor
        self.dataChannel = dataChannel
        self.bonding = bonding
        self.origin = origin
        self.imagePath = imagePath
        self.addedAt = Self.wholeSeconds(addedAt)
        self.lastSeenAt = lastSeenAt.map(Self.wholeSeconds)
        self.bond = bond
        if bond != nil { self.bonding = .bonded }
    }

    /// A fresh random identifier: 8 lower-case hex digits.
    public static func newID() -> String {
        let value = UInt32.random(in: 0...UInt32.max)
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 8 - text.count) + text
    }

    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// `"3fa2c1d0  Kitchen tag  \"nb-peer\"  F0:F1:F2:F3:F4:F5 (random)"`.
    public var description: String {
        var text = "\(id)  \(displayName)"
        if let advertisedName, advertisedName != displayName { text += "  \"\(advertisedName)\"" }
        text += "  \(address) (\(addressType))"
        return text
    }

    enum CodingKeys: String, CodingKey {
        case id
        case displayName = "display_name"
        case advertisedName = "advertised_name"
        case address
        case addressType = "address_type"
        case descriptor
        case dataChannel = "data_channel"
        case bonding, origin
        case imagePath = "image_path"
        case addedAt = "added_at"
        case lastSeenAt = "last_seen_at"
        case bond
        case bondHolder = "bond_holder"
        case bonded
        case secureConnections = "secure_connections"
        case keySize = "key_size"
    }

    /// Decodes a record (the store file's form, with its keys if bonded).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        displayName = try container.decode(String.self, forKey: .displayName)
        advertisedName = try container.decodeIfPresent(String.self, forKey: .advertisedName)
        address = try container.decode(BluetoothAddress.self, forKey: .address)
        addressType = try container.decode(BluetoothAddressType.self, forKey: .addressType)
        descriptor = try container.decodeIfPresent(DiscoveryDescriptor.self, forKey: .descriptor)
        dataChannel = try container.decodeIfPresent(DataChannelReference.self, forKey: .dataChannel)
        bonding = try container.decode(BondingState.self, forKey: .bonding)
        origin = try container.decode(AccessoryOrigin.self, forKey: .origin)
        imagePath = try container.decodeIfPresent(String.self, forKey: .imagePath)
        addedAt = try container.decode(Date.self, forKey: .addedAt)
        lastSeenAt = try container.decodeIfPresent(Date.self, forKey: .lastSeenAt)
        bond = try container.decodeIfPresent(Bond.self, forKey: .bond)
        bondHolder = try container.decodeIfPresent(BondHolder.self, forKey: .bondHolder)
    }

    /// Encodes the record. The keys (``bond``) are written only when the encoder's `userInfo`
    /// has ``keysUserInfoKey`` set to `true` (the store file); every other encoding (JSON
    /// output of the CLI) gets `bonded`, and with a bond `secure_connections` and `key_size`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(displayName, forKey: .displayName)
        try container.encodeIfPresent(advertisedName, forKey: .advertisedName)
        try container.encode(address, forKey: .address)
        try container.encode(addressType, forKey: .addressType)
        try container.encodeIfPresent(descriptor, forKey: .descriptor)
        try container.encodeIfPresent(dataChannel, forKey: .dataChannel)
        try container.encode(bonding, forKey: .bonding)
        try container.encode(origin, forKey: .origin)
        try container.encodeIfPresent(imagePath, forKey: .imagePath)
        try container.encode(addedAt, forKey: .addedAt)
        try container.encodeIfPresent(lastSeenAt, forKey: .lastSeenAt)
        try container.encodeIfPresent(bondHolder, forKey: .bondHolder)
        if encoder.userInfo[Self.keysUserInfoKey] as? Bool == true {
            try container.encodeIfPresent(bond, forKey: .bond)
        } else {
            try container.encode(bond != nil || bondHolder != nil, forKey: .bonded)
            if let bond {
                try container.encode(bond.secureConnections, forKey: .secureConnections)
                try container.encode(bond.keySize, forKey: .keySize)
            }
        }
    }

    /// Set to `true` in an encoder's `userInfo` to write the keys (the store file only).
    public static let keysUserInfoKey = CodingUserInfoKey(rawValue: "nearby.accessory-keys")!
}
