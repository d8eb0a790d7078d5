import NIProtocol
import UCI
import Testing

/// The Android variant (0xA5, big-endian UwbDeviceConfigData / UwbPhoneConfigData), both ways.
@Suite struct ProtocolAndroidTests {
    /// spec 0x0100.0x0000, chip 0x0102, fw 0x0304, mw 0x050607, profiles 1-3, roles both, MAC
    /// bytes `1a 2b` (UCI's short address 0x2B1A).
    static let deviceBytes = niBytes("01 00 | 00 00 | 01 02 | 03 04 | 05 06 07 | 00 00 00 0e | 03 | 1a 2b")
    /// spec 0x0100.0x0000, session 0x11223344, preamble 10, channel 9, profile 1, accessory
    /// controlee, MAC bytes `3c 4d` (0x4D3C).
    static let phoneBytes = niBytes("01 00 | 00 00 | 11 22 33 44 | 0a | 09 | 01 | 02 | 3c 4d")

    @Test func initializeIsA5() throws {
        #expect(NIMessage.androidInitialize.encoded() == [0xA5])
        let message = try NIMessage(decoding: [0xA5])
        #expect(message == .androidInitialize)
        #expect(message.dialect == .android)
        #expect(message.sender == .app)
        #expect(NIDialect.android.initializeMessageID == .androidInitialize)
        #expect(NIDialect.apple.initializeMessageID == .initialize)
    }

    @Test func deviceConfigDataBothWays() throws {
        let device = try UWBDeviceConfigData(
            chipID: 0x0102, chipFirmwareVersion: 0x0304, middlewareVersion: 0x05_0607, supportedProfileIDs: 0x0E,
            supportedRoles: [.controller, .controlee], deviceAddress: 0x2B1A)
        #expect(device.encoded() == Self.deviceBytes)
        #expect(device.specVersion == NIVersion(major: 0x0100, minor: 0))
        #expect(device.supports(configID: 1) && device.supports(configID: 2) && device.supports(configID: 3))
        #expect(!device.supports(configID: 0) && !device.supports(configID: 4) && !device.supports(configID: 40))
        #expect(device.supportedRoles.description == "controller+controlee")

        let message = [0x01] + Self.deviceBytes
        #expect(try NIMessage(decoding: message, dialect: .android) == .androidAccessoryConfigurationData(device))
        #expect(try NIMessage(decoding: message) == .androidAccessoryConfigurationData(device))
        #expect(NIMessage.androidAccessoryConfigurationData(device).encoded() == message)
        #expect(NIMessage.androidAccessoryConfigurationData(device).dialect == .android)
    }

    @Test func phoneConfigDataBothWays() throws {
        let phone = try UWBPhoneConfigData(
            sessionID: 0x1122_3344, preambleCodeIndex: 10, channel: 9, profileID: 1, accessoryRole: .controlee,
            phoneAddress: 0x4D3C)
        #expect(phone.encoded() == Self.phoneBytes)
        let message = [0x0B] + Self.phoneBytes
        #expect(try NIMessage(decoding: message, dialect: .android) == .androidConfigureAndStart(phone))
        #expect(try NIMessage(decoding: message) == .androidConfigureAndStart(phone))
        #expect(NIMessage.androidConfigureAndStart(phone).encoded() == message)
        #expect(try UWBPhoneConfigData(bytes: Self.phoneBytes).accessoryRole == .controlee)
    }

    /// NXP's accessory copies both MAC fields into UCI unchanged (`serializeUwbDeviceConfigData`,
    /// `UwbApi_ConfigureData_Android`): the addresses we read must give back the same two bytes
    /// as UCI short addresses, so our DST is the accessory's DEVICE_MAC and vice versa.
    @Test func macFieldsAreInUCIByteOrder() throws {
        let device = try UWBDeviceConfigData(bytes: Self.deviceBytes)
        #expect(UCIMACAddress.short(device.deviceAddress).bytes == [0x1A, 0x2B])
        let phone = try UWBPhoneConfigData(bytes: Self.phoneBytes)
        #expect(UCIMACAddress.short(phone.phoneAddress).bytes == [0x3C, 0x4D])
        // The host's own parameters: DEVICE_MAC = the phone's bytes, DST = the accessory's.
        let host = NIFiRaDerivation.hostParameters(
            phone: phone, accessory: device, profile: try #require(AndroidConfigProfile.nxp(configID: 1)))
        #expect(host.deviceMACAddress.bytes == [0x3C, 0x4D] && host.destinationMACAddresses.map(\.bytes) == [[0x1A, 0x2B]])
    }

    @Test func deviceConfigKeepsTrailingBytes() throws {
        let longer = Self.deviceBytes + [0xEE, 0xFF]
        let device = try UWBDeviceConfigData(bytes: longer)
        #expect(device.trailingBytes == [0xEE, 0xFF] && device.encoded() == longer)
        #expect(try NIMessage(decoding: [0x01] + longer, dialect: .android) == .androidAccessoryConfigurationData(device))
    }

    @Test func aDeclaredDialectRejectsTheOtherDialectsPayload() throws {
        let androidAnswer = #expect(throws: NIProtocolError.self) {
            try NIMessage(decoding: [0x01] + Self.deviceBytes, dialect: .apple)
        }
        #expect(androidAnswer?.reason == .dialectMismatch(expected: .apple, found: .android, payloadLength: 18))
        #expect(
            androidAnswer?.description
                == "message 0x01 accessoryConfigurationData: a 18-byte payload is the android form of accessoryConfigurationData, but this exchange speaks the apple dialect (the app sent 0x0A initialize); decode with dialect .android or nil to accept both"
        )
        let appleAnswer = #expect(throws: NIProtocolError.self) { try NIMessage(decoding: niTV1, dialect: .android) }
        #expect(appleAnswer?.reason == .dialectMismatch(expected: .android, found: .apple, payloadLength: 37))

        let applePhone = #expect(throws: NIProtocolError.self) {
            try NIMessage(decoding: [0x0B] + niTV2, dialect: .android)
        }
        #expect(applePhone?.reason == .dialectMismatch(expected: .android, found: .apple, payloadLength: 30))
        let androidPhone = #expect(throws: NIProtocolError.self) {
            try NIMessage(decoding: [0x0B] + Self.phoneBytes, dialect: .apple)
        }
        #expect(androidPhone?.reason == .dialectMismatch(expected: .apple, found: .android, payloadLength: 14))
    }

    @Test func deviceConfigRangesAreEnforced() throws {
        for roles: UInt8 in [0, 4, 7, 0x80] {
            var raw = Self.deviceBytes
            raw[15] = roles
            let error = #expect(throws: NIProtocolError.self) { try UWBDeviceConfigData(bytes: raw) }
            #expect(error?.field == "rangingRoles")
            #expect(
                error?.reason == .outOfRange(value: Int(roles), allowed: "1 (controller), 2 (controlee) or 3 (both)"))
        }
        let tooBig = #expect(throws: NIProtocolError.self) {
            try UWBDeviceConfigData(
                chipID: 0, chipFirmwareVersion: 0, middlewareVersion: 0x0100_0000, supportedProfileIDs: 0,
                supportedRoles: .controller, deviceAddress: 0)
        }
        #expect(tooBig?.field == "middlewareVersion")
        #expect(
            tooBig?.description
                == "UwbDeviceConfigData: middlewareVersion 16777216 is out of range, expected 0...16777215 (3 bytes)")
    }

    @Test func phoneConfigRangesAreEnforced() throws {
        let cases: [(offset: Int, value: UInt8, field: String, allowed: String)] = [
            (8, 13, "preambleCodeIndex", "9...12 or 25...32"),
            (8, 33, "preambleCodeIndex", "9...12 or 25...32"),
            (9, 6, "channel", "5 or 9"),
            (10, 0, "profileID", "1...31 (a FiRa config ID)"),
            (10, 32, "profileID", "1...31 (a FiRa config ID)"),
            (11, 3, "deviceRangingRole", "1 (controller) or 2 (controlee)"),
            (11, 0, "deviceRangingRole", "1 (controller) or 2 (controlee)"),
        ]
        for item in cases {
            var raw = Self.phoneBytes
            raw[item.offset] = item.value
            let error = #expect(throws: NIProtocolError.self) { try UWBPhoneConfigData(bytes: raw) }
            #expect(error?.field == item.field)
            #expect(error?.reason == .outOfRange(value: Int(item.value), allowed: item.allowed))
        }
        // HPRF preamble codes are accepted.
        var hprf = Self.phoneBytes
        hprf[8] = 25
        #expect(try UWBPhoneConfigData(bytes: hprf).preambleCodeIndex == 25)
        #expect(throws: NIProtocolError.self) {
            try UWBPhoneConfigData(
                sessionID: 1, preambleCodeIndex: 10, channel: 9, profileID: 1,
                accessoryRole: [.controller, .controlee],
                phoneAddress: 1)
        }
    }
}
