import NIProtocol
import UCI
import Testing

/// Builders and parsers reject out-of-range values with the field, value and range.
@Suite struct ProtocolValidationTests {
    static func shareable(
        preamble: UInt8 = 11, channel: UInt8 = 9, slots: UInt16 = 6, slotDuration: UInt16 = 3600,
        interval: UInt16 = 198, stsIV: [UInt8] = [1, 2, 3, 4, 5, 6]
    ) throws(NIProtocolError) -> ShareableConfigurationData {
        try ShareableConfigurationData(
            countryCode: RegulatoryCountryCode("EU"), sessionID: 1, preambleCodeIndex: preamble, channel: channel,
            slotsPerRound: slots, slotDurationRSTU: slotDuration, rangingIntervalMS: interval, staticSTSIV: stsIV,
            phoneAddress: 0xB487, phoneMaxClockDriftPPM: 100)
    }

    @Test func shareableBuilderRanges() throws {
        let cases: [(() throws(NIProtocolError) -> ShareableConfigurationData, String, NIProtocolError.Reason)] = [
            (
                { () throws(NIProtocolError) in try Self.shareable(channel: 7) }, "channel",
                .outOfRange(value: 7, allowed: "5 or 9")
            ),
            (
                { () throws(NIProtocolError) in try Self.shareable(preamble: 8) }, "preambleCodeIndex",
                .outOfRange(value: 8, allowed: "9...12")
            ),
            (
                { () throws(NIProtocolError) in try Self.shareable(preamble: 13) }, "preambleCodeIndex",
                .outOfRange(value: 13, allowed: "9...12")
            ),
            (
                { () throws(NIProtocolError) in try Self.shareable(slots: 0) }, "slotsPerRound",
                .outOfRange(value: 0, allowed: "1...65535")
            ),
            (
                { () throws(NIProtocolError) in try Self.shareable(slotDuration: 0) }, "slotDurationRSTU",
                .outOfRange(value: 0, allowed: "1...65535 RSTU (1 ms = 1200 RSTU)")
            ),
            (
                { () throws(NIProtocolError) in try Self.shareable(interval: 0) }, "rangingIntervalMS",
                .outOfRange(value: 0, allowed: "1...65535 ms")
            ),
            (
                { () throws(NIProtocolError) in try Self.shareable(stsIV: [1, 2, 3]) }, "staticSTSIV",
                .invalidLength(value: 3, allowed: "6 (bytes)")
            ),
        ]
        for (build, field, reason) in cases {
            let error = #expect(throws: NIProtocolError.self) { try build() }
            #expect(error?.field == field)
            #expect(error?.reason == reason)
            #expect(error?.structure == "shareableConfigurationData")
        }
        let error = #expect(throws: NIProtocolError.self) { try Self.shareable(channel: 7) }
        #expect(error?.description == "shareableConfigurationData: channel 7 is out of range, expected 5 or 9")
    }

    @Test func shareableParserRanges() throws {
        let cases: [(offset: Int, value: UInt8, field: String)] = [
            (11, 8, "preambleCodeIndex"), (11, 13, "preambleCodeIndex"), (12, 6, "channel"), (12, 0, "channel"),
        ]
        for item in cases {
            var raw = niTV2
            raw[item.offset] = item.value
            let error = #expect(throws: NIProtocolError.self) { try NIMessage(decoding: [0x0B] + raw, dialect: .apple) }
            #expect(error?.field == item.field)
            #expect(error?.messageID == .configureAndStart)
        }
        for (offset, field) in [(13, "slotsPerRound"), (15, "slotDurationRSTU"), (17, "rangingIntervalMS")] {
            var raw = niTV2
            raw[offset] = 0
            raw[offset + 1] = 0
            let error = #expect(throws: NIProtocolError.self) { try ShareableConfigurationData(bytes: raw) }
            #expect(error?.field == field)
            #expect(error?.reason == .outOfRange(value: 0, allowed: error.map { reasonAllowed($0.reason) } ?? ""))
        }
    }

    /// Every role byte parses (AOSP knows 5-8: OWR-AoA and DL-TDoA roles); the planner refuses
    /// the ones NI cannot range with, naming the field.
    @Test func everyRangingRoleParsesAndIsNamed() throws {
        let names: [UInt8: String] = [
            0: "responder", 1: "initiator", 5: "ADVERTISER (5)", 6: "OBSERVER (6)", 7: "DT_ANCHOR (7)", 8: "DT_TAG (8)",
            9: "role 9", 0xFF: "role 255",
        ]
        for (role, name) in names {
            var message = niTV1
            message[33] = role
            guard case .accessoryConfigurationData(let acd) = try NIMessage(decoding: message, dialect: .apple) else {
                Issue.record("expected an ACD")
                continue
            }
            #expect(acd.uwbConfiguration.rangingRole.rawValue == role)
            #expect(acd.uwbConfiguration.rangingRole.description == name)
            #expect(acd.uwbConfiguration.rangingRole.isTwoWay == (role <= 1))
            #expect(NIMessage.accessoryConfigurationData(acd).encoded() == message)
            if role > 1 {
                let error = #expect(throws: SessionPlanningError.self) {
                    try SessionPlanner().plan(for: acd, device: LocalUWBDevice(uciVersion: .v1_1))
                }
                #expect(error?.reason == .unusableRole(NIRangingRole(rawValue: role)))
                #expect(error?.description.hasPrefix("uwbConfigData: rangingRole \(name) cannot range in an NI session, expected 0 (responder) or 1 (initiator)") == true, "\(String(describing: error))")
            }
        }
        #expect(NIRangingRole.dtAnchor.deviceRole == .dtAnchor)
    }

    @Test func version2FieldsNeedTheClockDrift() throws {
        let uwb = #expect(throws: NIProtocolError.self) {
            try UWBConfigurationData(
                manufacturerID: 0, modelID: 0, middlewareVersion: 0, rangingRole: .initiator, deviceAddress: 0,
                requestedParameters: .init(
                    hoppingMode: 0, slotsPerRound: 6, slotDurationRSTU: 2400, rangingIntervalMS: 240))
        }
        #expect(uwb?.field == "maxClockDriftPPM")
        #expect(
            uwb?.description
                == "uwbConfigData: maxClockDriftPPM is required by requestedParameters (layout 2.0 carries both)")
        let shareable = #expect(throws: NIProtocolError.self) {
            try ShareableConfigurationData(
                countryCode: RegulatoryCountryCode("US"), sessionID: 1, preambleCodeIndex: 9, channel: 5,
                slotsPerRound: 6,
                slotDurationRSTU: 2400, rangingIntervalMS: 240, staticSTSIV: [0, 0, 0, 0, 0, 0], phoneAddress: 0,
                hopping: .init(hoppingMode: 1))
        }
        #expect(shareable?.field == "phoneMaxClockDriftPPM")
    }

    @Test func reservedBytesAndCountryCodesAreChecked() throws {
        let uwb = try UWBConfigurationData(
            manufacturerID: 0, modelID: 0, middlewareVersion: 0, rangingRole: .initiator, deviceAddress: 0)
        let reserved = #expect(throws: NIProtocolError.self) {
            try AccessoryConfigurationData(uwbConfiguration: uwb, reserved: [0, 0])
        }
        #expect(reserved?.reason == .invalidLength(value: 2, allowed: "10 (bytes)"))
        // Non-zero reserved bytes received are kept and re-encoded.
        var message = niTV1
        message[6] = 0xAB
        guard case .accessoryConfigurationData(let acd) = try NIMessage(decoding: message) else {
            Issue.record("expected an ACD")
            return
        }
        #expect(acd.reserved.first == 0xAB)
        #expect(NIMessage.accessoryConfigurationData(acd).encoded() == message)

        for text in ["usa", "U", "U1", "ÉU", ""] {
            let error = #expect(throws: NIProtocolError.self) { try RegulatoryCountryCode(text) }
            #expect(error?.field == "countryCode")
        }
        let error = #expect(throws: NIProtocolError.self) { try RegulatoryCountryCode("usa") }
        #expect(
            error?.description
                == "shareableConfigurationData: countryCode \"usa\" is invalid, expected two ASCII capital letters, for example \"US\""
        )
    }
}

private func reasonAllowed(_ reason: NIProtocolError.Reason) -> String {
    if case .outOfRange(_, let allowed) = reason { return allowed }
    return ""
}
