import NIProtocol
import Testing

/// Every layout version of UWB config data and shareable configuration data, built and parsed
/// back, with hand-assembled expected bytes.
@Suite struct ProtocolVersionTests {
    static let requested = UWBConfigurationData.RequestedRangingParameters(
        hoppingMode: 1, slotsPerRound: 6, slotDurationRSTU: 2400, rangingIntervalMS: 240, reserved: 0xDDCC_BBAA)

    static func uwb(_ version: ConfigurationDataVersion) throws -> UWBConfigurationData {
        try UWBConfigurationData(
            manufacturerID: 0x0010_1132, modelID: 0x0102_FF07, middlewareVersion: 0x0203_0000,
            rangingRole: .responder, deviceAddress: 0xA1B2,
            maxClockDriftPPM: version >= .v1_1 ? 200 : nil,
            requestedParameters: version == .v2_0 ? requested : nil)
    }

    static let uwbCommon = "32 11 10 00 | 07 ff 02 01 | 00 00 03 02 | 00 | b2 a1"

    @Test(arguments: [
        (ConfigurationDataVersion.v1_0, "01 00 00 00 | \(uwbCommon)"),
        (.v1_1, "01 00 01 00 | \(uwbCommon) | c8 00"),
        (.v2_0, "02 00 00 00 | \(uwbCommon) | c8 00 | aa bb cc dd | 01 | 06 00 | 60 09 | f0 00"),
    ])
    func uwbConfigurationDataLayouts(version: ConfigurationDataVersion, expected: String) throws {
        let uwb = try Self.uwb(version)
        let expectedBytes = niBytes(expected)
        #expect(uwb.version == version)
        #expect(uwb.specVersion == version.specVersion)
        #expect(uwb.byteCount == UWBConfigurationData.byteCount(of: version))
        #expect(uwb.encoded() == expectedBytes)
        #expect(try UWBConfigurationData(bytes: expectedBytes) == uwb)

        // Inside an ACD and a 0x01 message: 16-byte header, length byte = n.
        let acd = try AccessoryConfigurationData(preferredUpdateRate: .userInteractive, uwbConfiguration: uwb)
        let message = NIMessage.accessoryConfigurationData(acd).encoded()
        #expect(
            message == niBytes("01 | 01 00 00 00 | 14 | 00 00 00 00 00 00 00 00 00 00") + [UInt8(expectedBytes.count)]
                + expectedBytes)
        #expect(message.count == [ConfigurationDataVersion.v1_0: 36, .v1_1: 38, .v2_0: 49][version])
        #expect(try NIMessage(decoding: message, dialect: .apple) == .accessoryConfigurationData(acd))
        #expect(try NIMessage(decoding: message) == .accessoryConfigurationData(acd))
    }

    @Test func uwbConfigurationDataKeepsAMismatchingSpecVersion() throws {
        // Layout 1.0 (19 bytes) that claims spec 1.1: kept as sent.
        let raw = niBytes("01 00 01 00 | \(Self.uwbCommon)")
        let uwb = try UWBConfigurationData(bytes: raw)
        #expect(uwb.version == .v1_0)
        #expect(uwb.specVersion == .v1_1)
        #expect(uwb.encoded() == raw)
    }

    static let shareableCommon =
        "55 53 | 78 56 34 12 | 0a | 05 | 0c 00 | 60 09 | f0 00 | 06 | 01 02 03 04 05 06 | 34 12"

    @Test(arguments: [
        (ConfigurationDataVersion.v1_0, "01 00 00 00 | 17 | \(shareableCommon)"),
        (.v1_1, "01 00 01 00 | 19 | \(shareableCommon) | 19 00"),
        (.v2_0, "02 00 00 00 | 1e | \(shareableCommon) | 19 00 | 04 03 02 01 | 01"),
    ])
    func shareableConfigurationDataLayouts(version: ConfigurationDataVersion, expected: String) throws {
        let shareable = try ShareableConfigurationData(
            countryCode: RegulatoryCountryCode("US"), sessionID: 0x1234_5678, preambleCodeIndex: 10, channel: 5,
            slotsPerRound: 12, slotDurationRSTU: 2400, rangingIntervalMS: 240, rangingRoundControl: 0x06,
            staticSTSIV: [1, 2, 3, 4, 5, 6], phoneAddress: 0x1234,
            phoneMaxClockDriftPPM: version >= .v1_1 ? 25 : nil,
            hopping: version == .v2_0 ? .init(hoppingMode: 1, reserved: 0x0102_0304) : nil)
        let expectedBytes = niBytes(expected)
        #expect(shareable.version == version)
        #expect(shareable.byteCount == [ConfigurationDataVersion.v1_0: 28, .v1_1: 30, .v2_0: 35][version])
        #expect(shareable.encoded() == expectedBytes)
        #expect(try ShareableConfigurationData(bytes: expectedBytes) == shareable)
        let message = [UInt8(0x0B)] + expectedBytes
        #expect(try NIMessage(decoding: message, dialect: .apple) == .configureAndStart(shareable))
        #expect(try NIMessage(decoding: message) == .configureAndStart(shareable))
    }

    @Test func updateRateAndVersionsDescribeThemselves() {
        #expect(AccessoryConfigurationData.PreferredUpdateRate.infrequent.description == "infrequent")
        #expect(AccessoryConfigurationData.PreferredUpdateRate(rawValue: 7).description == "unknown (7)")
        #expect(NIVersion(major: 1, minor: 1).description == "1.1")
        #expect(NIVersion.v1_0 < NIVersion.v1_1 && NIVersion.v1_1 < NIVersion.v2_0)
        #expect(ConfigurationDataVersion.v2_0.description == "2.0")
        #expect(RegulatoryCountryCode(first: 0, second: 0).description == "0x00 0x00")
    }
}
