import NearbyConfig
import Testing

/// `nearby accessory`'s flags as an `[accessory]` overlay: parsed, checked, named in errors.
@Suite struct AccessoryRoleFlagsTests {
    func flags(
        services: String? = nil, mac: String? = nil, configVersion: String? = nil, role: String? = nil, maxPhones: Int? = nil,
        interval: Double? = nil
    ) throws(AccessoryRoleFlagError) -> AccessoryRoleFileSettings {
        try AccessoryRoleFileSettings(
            flagsName: "door", services: services, mac: mac, configVersion: configVersion, role: role, maxPhones: maxPhones,
            advertisingIntervalMilliseconds: interval)
    }

    @Test func validFlagsBecomeTheOverlay() throws {
        let overlay = try flags(services: " NUS, apple ", mac: "0x0a0b", configVersion: "1.0", role: "initiator", maxPhones: 8, interval: 20)
        #expect(overlay == AccessoryRoleFileSettings(
            name: "door", services: ["nus", "apple"], configVersion: "1.0", role: "initiator", mac: 0x0A0B, maxPhones: 8,
            advertisingIntervalMilliseconds: 20))
        #expect(try flags() == AccessoryRoleFileSettings(name: "door"), "flags not given stay unset, so the file applies")
    }

    @Test func eachBadFlagIsNamed() {
        func message(_ make: () throws(AccessoryRoleFlagError) -> AccessoryRoleFileSettings) -> String? {
            do {
                _ = try make()
                return nil
            } catch {
                return error.description
            }
        }
        #expect(message { () throws(AccessoryRoleFlagError) in try flags(services: "qnis,bogus") } == #"--service must list qnis, nus or apple, not "qnis,bogus""#)
        #expect(message { () throws(AccessoryRoleFlagError) in try flags(services: "") } == #"--service must list qnis, nus or apple, not """#)
        #expect(message { () throws(AccessoryRoleFlagError) in try flags(mac: "FFFF") } == #"--mac must be 1-4 hex digits, 0001-FFFE, not "FFFF""#)
        #expect(message { () throws(AccessoryRoleFlagError) in try flags(configVersion: "2.0") } == "--config-version must be 1.0 or 1.1")
        #expect(message { () throws(AccessoryRoleFlagError) in try flags(role: "both") } == "--role must be responder or initiator")
        #expect(message { () throws(AccessoryRoleFlagError) in try flags(maxPhones: 9) } == "--max-phones must be 1-8, not 9")
        #expect(message { () throws(AccessoryRoleFlagError) in try flags(interval: 19.5) } == "--advertising-interval must be 20-10240 ms, not 19.5")
        do {
            _ = try flags(mac: "zz", maxPhones: 0)
        } catch {
            #expect(error.flag == "--mac", "the first bad flag is reported")
        }
    }
}
