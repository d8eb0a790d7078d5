public import Foundation
public import LowEnergy

/// Whether the system holds keys for an accessory (a bond from pairing).
public enum BondingState: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Not bonded: nearby's own host does not pair (specs/ble-host.md §7).
    case none
    /// Bonded: the system has a long-term key (e.g. BlueZ's `[LongTermKey]`).
    case bonded
    /// Not known (migrated by address only).
    case unknown

    /// `"none"`, `"bonded"` or `"unknown"`.
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

    /// The known service definition with this UUID (``DataChannelService/known``), if any.
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

    /// Creates a record; dates are truncated to whole seconds (the file's precision), so a record
    /// read back equals the one written.
    public init(id: String = AccessoryRecord.newID(), displayName: String, advertisedName: String? = nil,
                address: BluetoothAddress, addressType: BluetoothAddressType, descriptor: DiscoveryDescriptor? = nil,
                dataChannel: DataChannelReference? = nil, bonding: BondingState = .none, origin: AccessoryOrigin = .setup,
                imagePath: String? = nil, addedAt: Date = Date(), lastSeenAt: Date? = nil) {
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
    }
}
