import NIProtocol
import Testing
import UCI

/// The accessory role's configuration data fields, filled from the kit the way the kit maker's
/// firmware fills them (Qorvo's `libniq`, NXP's `UwbApi_GetUwbConfigData_iOS` / `_Android`).
@Suite struct AccessoryRoleProfileTests {
    static func info(uci: UCIVersion = .v2_0, vendor: [UInt8] = []) -> UCIDeviceInfo {
        UCIDeviceInfo(uciVersion: uci, macVersion: UCIVersion(major: 1, minor: 3), phyVersion: UCIVersion(major: 1, minor: 3),
                      testVersion: .v1_1, vendorInfo: vendor)
    }

    @Test("Qorvo: 3F F5 03 00, B8 0B 00 00 and the library's 00 00 01 01 on any UCI version")
    func qorvo() {
        for uci in [UCIVersion.v1_1, .v2_0] {
            let uwb = AccessoryRoleProfile(deviceInfo: Self.info(uci: uci), vendor: .qorvo, address: 0x0A0B).uwbConfigurationData()
            #expect(uwb.manufacturerID == 0x0003_F53F && uwb.modelID == 0x0000_0BB8)
            #expect(uwb.middlewareVersion == 0x0101_0000, "bytes 00 00 01 01")
        }
    }

    @Test("NXP: model [firmware major, chip type, 00, 00] and middleware [0, 0, minor, major] of this program, from the kit's device-info TLVs")
    func nxp() throws {
        let sr150 = NXPDeviceInformation(deviceName: "SR150_PROD_IOT_ROW", firmwareVersion: [0x04, 0x02, 0x01])
        #expect(sr150.encoded() == [0x00, 18] + Array("SR150_PROD_IOT_ROW".utf8) + [0x01, 0x03, 0x04, 0x02, 0x01])
        #expect(Self.info(vendor: sr150.encoded()).nxpInformation == sr150)
        let profile = AccessoryRoleProfile(deviceInfo: Self.info(vendor: sr150.encoded()), vendor: .nxp, address: 0x0A0B)
        let uwb = profile.uwbConfigurationData()
        #expect(uwb.manufacturerID == 0x0010_1132)
        #expect(uwb.modelID == 0x0000_0104, "bytes 04 01 00 00: firmware 4, chip type SR150 (0x01), module maker unknown")
        #expect(uwb.middlewareVersion == 0x0001_0000, "bytes 00 00 01 00: this program's 0.1")
        let android = try profile.androidConfigurationData()
        #expect(android.chipID == 0x0001 && android.chipFirmwareVersion == 0x0402 && android.middlewareVersion == 0x00_0100)
        // Another device name: chip type 0xFF; no NXP information at all: firmware 0 too.
        let other = NXPDeviceInformation(deviceName: "SR150_ENG", firmwareVersion: [0x05, 0x00, 0x00])
        #expect(AccessoryRoleProfile(deviceInfo: Self.info(vendor: other.encoded()), vendor: .nxp, address: 1).modelID == 0x0000_FF05)
        #expect(AccessoryRoleProfile(deviceInfo: Self.info(vendor: Array("nearby virtual UWBS".utf8)), vendor: .nxp, address: 1).modelID
                == 0x0000_FF00)
    }

    @Test("NXP's device information: malformed or foreign vendor bytes are not NXP's")
    func nxpInformationParsing() {
        #expect(NXPDeviceInformation(vendorInfo: []) == nil)
        #expect(NXPDeviceInformation(vendorInfo: [0x01, 0x03, 0x04]) == nil, "cut short")
        #expect(NXPDeviceInformation(vendorInfo: [0x01, 0x02, 0x04, 0x02]) == nil, "a firmware version is 3 bytes")
        #expect(NXPDeviceInformation(vendorInfo: [0x02, 0x03, 1, 2, 3]) == nil, "neither name nor firmware")
        #expect(NXPDeviceInformation(vendorInfo: [0x02, 0x03, 1, 2, 3, 0x01, 0x03, 7, 0, 1])?.firmwareVersion == [7, 0, 1],
                "other entries are skipped")
    }
}
