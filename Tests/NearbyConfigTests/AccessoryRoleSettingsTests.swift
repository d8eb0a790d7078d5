import NearbyConfig
import Testing

/// `[accessory]`: the accessory role's settings in the file.
@Suite struct AccessoryRoleSettingsTests {
    @Test func parsesEveryKeyAndFlagsWin() throws {
        let config = try ConfigurationFile.parse(
            """
            [accessory]
            name = "front door"
            services = ["nus", "apple"]
            config_version = "1.0"
            role = "initiator"
            mac = "0x0A0B"
            max_phones = 2
            advertising_interval_ms = 152.5
            """, source: "test.toml")
        #expect(config.accessory == AccessoryRoleFileSettings(
            name: "front door", services: ["nus", "apple"], configVersion: "1.0", role: "initiator", mac: 0x0A0B, maxPhones: 2,
            advertisingIntervalMilliseconds: 152.5))
        let flags = AccessoryRoleFileSettings(name: "garage", maxPhones: 1)
        let effective = config.overridden(by: NearbyConfiguration.with(accessory: flags)).accessory
        #expect(effective.name == "garage" && effective.maxPhones == 1 && effective.services == ["nus", "apple"] && effective.mac == 0x0A0B)
    }

    @Test func theExampleParses() throws {
        let config = try ConfigurationFile.parse(ConfigurationFile.example, source: "example")
        #expect(config.accessory.name == "nearby" && config.accessory.services == ["nus", "qnis"] && config.accessory.mac == nil)
        #expect(config.accessory.maxPhones == 1)
    }

    @Test func mistakesAreReportedWithTheirKeysAndLines() {
        do {
            _ = try ConfigurationFile.parse(
                """
                [accessory]
                services = ["qnis", "bluetooth"]
                config_version = "2.0"
                role = "tag"
                mac = "FFFF"
                max_phones = 9
                advertising_interval_ms = 5
                colour = "red"
                """, source: "bad.toml")
            Issue.record("expected errors")
        } catch {
            let byKey = Dictionary(error.issues.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            #expect(byKey["accessory.services"]?.line == 2 && byKey["accessory.services"]?.message.contains("'bluetooth'") == true)
            #expect(byKey["accessory.config_version"]?.line == 3)
            #expect(byKey["accessory.role"]?.line == 4)
            #expect(byKey["accessory.mac"]?.message.contains("0001-FFFE") == true)
            #expect(byKey["accessory.max_phones"] != nil && byKey["accessory.advertising_interval_ms"] != nil)
            #expect(byKey["accessory.colour"]?.message.hasPrefix("unknown key 'colour'") == true)
        }
    }

    @Test func addressesParseAsHex() {
        #expect(AccessoryRoleFileSettings.address("0a0b") == 0x0A0B && AccessoryRoleFileSettings.address("0x12") == 0x12)
        #expect(AccessoryRoleFileSettings.address("0") == nil && AccessoryRoleFileSettings.address("FFFF") == nil)
        #expect(AccessoryRoleFileSettings.address("12345") == nil && AccessoryRoleFileSettings.address("zz") == nil)
    }
}

extension NearbyConfiguration {
    /// A configuration with only `[accessory]` set (flags).
    static func with(accessory: AccessoryRoleFileSettings) -> NearbyConfiguration {
        var configuration = NearbyConfiguration()
        configuration.accessory = accessory
        return configuration
    }
}
