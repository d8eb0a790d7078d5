public import NearbyConfig
public import NIProtocol

extension AccessoryRoleSettings {
    /// The settings the `[accessory]` section (with the flags over it) describes; what is not
    /// set takes the default documented on each property (name `nearby`, `nus,qnis`, layout
    /// 1.1, responder, the stored MAC, 1 phone, 100 ms). Unknown service names are left out (the
    /// file's and the flags' checks reject them first).
    /// - Parameters:
    ///   - file: the checked `[accessory]` settings.
    ///   - keyByteOrder: how VENDOR_ID and the STS IV go to UCI (`--sts-order`).
    public init(file: AccessoryRoleFileSettings, keyByteOrder: UWBKeyByteOrder) {
        self.init(
            name: file.name ?? "nearby", services: file.services?.compactMap(Service.init(rawValue:)) ?? Self.defaultServices,
            layout: file.configVersion == "1.0" ? .v1_0 : .v1_1, role: file.role == "initiator" ? .initiator : .responder,
            address: file.mac, maximumPhones: file.maxPhones ?? 1, advertisingIntervalMilliseconds: file.advertisingIntervalMilliseconds ?? 100,
            keyByteOrder: keyByteOrder)
    }
}
