/// `[accessory]`: the accessory role (`nearby accessory`): what this host announces to phones.
/// Every value is optional (unset: the command's default); the command's flags win.
public struct AccessoryRoleFileSettings: Sendable, Hashable {
    /// The name advertised and in the GAP service (`name`).
    public var name: String?
    /// The services, the first data channel advertised: `qnis`, `nus`, `apple` (`services`).
    public var services: [String]?
    /// The UWB config data layout: `1.0` or `1.1` (`config_version`).
    public var configVersion: String?
    /// The role announced: `responder` or `initiator` (`role`).
    public var role: String?
    /// A fixed UWB short MAC address, 1-FFFE (`mac`, hex: "0A0B").
    public var mac: UInt16?
    /// Phones at once, 1-8 (`max_phones`).
    public var maxPhones: Int?
    /// The advertising interval, ms, 20-10240 (`advertising_interval_ms`).
    public var advertisingIntervalMilliseconds: Double?

    /// The service names `services` accepts.
    public static let serviceNames = ["qnis", "nus", "apple"]

    /// Creates settings; `nil` = not set.
    public init(name: String? = nil, services: [String]? = nil, configVersion: String? = nil, role: String? = nil, mac: UInt16? = nil,
                maxPhones: Int? = nil, advertisingIntervalMilliseconds: Double? = nil) {
        self.name = name
        self.services = services
        self.configVersion = configVersion
        self.role = role
        self.mac = mac
        self.maxPhones = maxPhones
        self.advertisingIntervalMilliseconds = advertisingIntervalMilliseconds
    }

    /// These settings with every value set in `flags` replacing this one (flags win).
    public func overridden(by flags: AccessoryRoleFileSettings) -> AccessoryRoleFileSettings {
        AccessoryRoleFileSettings(
            name: flags.name ?? name, services: flags.services ?? services, configVersion: flags.configVersion ?? configVersion,
            role: flags.role ?? role, mac: flags.mac ?? mac, maxPhones: flags.maxPhones ?? maxPhones,
            advertisingIntervalMilliseconds: flags.advertisingIntervalMilliseconds ?? advertisingIntervalMilliseconds)
    }

    /// Parses a UWB short address in hex (`0A0B`, `0x0A0B`), 0x0001-0xFFFE; `nil` otherwise.
    public static func address(_ text: String) -> UInt16? {
        var digits = Substring(text.trimmingCharacters(in: " "))
        if digits.lowercased().hasPrefix("0x") { digits = digits.dropFirst(2) }
        guard (1...4).contains(digits.count), let value = UInt16(digits, radix: 16), value != 0, value != 0xFFFF else { return nil }
        return value
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> Substring {
        var text = Substring(self)
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return text
    }
}
