import NIProtocol
import Testing

/// The reference's test vectors TV-1 and TV-2, byte-exact in both directions.
@Suite struct ProtocolVectorTests {
    @Test func tv1DecodesToTheReferenceValues() throws {
        let message = try NIMessage(decoding: niTV1, dialect: .apple)
        guard case .accessoryConfigurationData(let acd) = message else {
            Issue.record("expected accessoryConfigurationData, got \(message)")
            return
        }
        #expect(acd.protocolVersion == NIVersion(major: 1, minor: 0))
        #expect(acd.preferredUpdateRate == .automatic)
        #expect(acd.reserved == Array(repeating: 0, count: 10))
        #expect(acd.byteCount == 37)
        let uwb = acd.uwbConfiguration
        #expect(uwb.version == .v1_1)
        #expect(uwb.byteCount == 21)
        #expect(uwb.specVersion == NIVersion(major: 1, minor: 1))
        #expect(uwb.manufacturerID == 0x0003_F53F)
        #expect(uwb.modelID == 0x0000_0BB8)
        #expect(uwb.middlewareVersion == 0x0101_0000)
        #expect(uwb.rangingRole == .initiator)
        #expect(uwb.deviceAddress == 0x0012)
        #expect(uwb.maxClockDriftPPM == 25)
        #expect(uwb.requestedParameters == nil)
        #expect(message.id == .accessoryConfigurationData)
        #expect(message.sender == .accessory)
        #expect(message.dialect == .apple)
        // Automatic dialect detection picks the same.
        #expect(try NIMessage(decoding: niTV1) == message)
    }

    @Test func tv1IsBuiltByteExactFromItsValues() throws {
        let uwb = try UWBConfigurationData(
            manufacturerID: 0x0003_F53F, modelID: 0x0BB8, middlewareVersion: 0x0101_0000,
            rangingRole: .initiator, deviceAddress: 0x0012, maxClockDriftPPM: 25)
        let acd = try AccessoryConfigurationData(uwbConfiguration: uwb)
        #expect(NIMessage.accessoryConfigurationData(acd).encoded() == niTV1)
        #expect(acd.encoded() == Array(niTV1.dropFirst()))
    }

    @Test func tv2DecodesToTheReferenceValues() throws {
        let shareable = try ShareableConfigurationData(bytes: niTV2)
        #expect(shareable.version == .v1_1)
        #expect(shareable.specVersion == .v1_1)
        #expect(shareable.countryCode.description == "EU")
        #expect(shareable.sessionID == 0x0000_5FA8)
        #expect(shareable.sessionID == 24488)
        #expect(shareable.preambleCodeIndex == 11)
        #expect(shareable.channel == 9)
        #expect(shareable.slotsPerRound == 6)
        #expect(shareable.slotDurationRSTU == 3600)
        #expect(shareable.slotDurationMilliseconds == 3)
        #expect(shareable.rangingIntervalMS == 198)
        #expect(shareable.rangingRoundControl == 0x03)
        #expect(shareable.staticSTSIV == niBytes("39 7b 28 d4 b8 d7"))
        #expect(shareable.phoneAddress == 0xB487)
        #expect(shareable.phoneMaxClockDriftPPM == 100)
        #expect(shareable.hopping == nil)
        #expect(shareable.byteCount == 30)

        let message = try NIMessage(decoding: [0x0B] + niTV2, dialect: .apple)
        #expect(message == .configureAndStart(shareable))
        #expect(message.sender == .app)
        #expect(try NIMessage(decoding: [0x0B] + niTV2) == message)
    }

    @Test func tv2IsBuiltByteExactFromItsValues() throws {
        let shareable = try ShareableConfigurationData(
            countryCode: RegulatoryCountryCode("EU"), sessionID: 24488, preambleCodeIndex: 11, channel: 9,
            slotsPerRound: 6, slotDurationRSTU: 3600, rangingIntervalMS: 198, rangingRoundControl: 0x03,
            staticSTSIV: niBytes("39 7b 28 d4 b8 d7"), phoneAddress: 0xB487, phoneMaxClockDriftPPM: 100)
        #expect(shareable.encoded() == niTV2)
        #expect(NIMessage.configureAndStart(shareable).encoded() == [0x0B] + niTV2)
    }
}
