import Testing
import UCI
import UWBDevice

/// `FiRaSessionParameters`: defaults, the TLVs and their order, UCI 1.1 vs 2.0, the parameters
/// Apple's accessory protocol derives, and every validation rule with its message.
@Suite struct FiRaParameterTests {
    private func parameters() -> FiRaSessionParameters {
        FiRaSessionParameters(deviceMACAddress: .short(0x0001), destinationMACAddresses: [.short(0x0002)])
    }

    /// SET_APP_CONFIG_CMD payload for session 1 (after the header).
    private func payload(_ configs: [UCIAppConfig]) throws -> [UInt8] {
        try UCICommand.setAppConfig(session: 1, configs: configs).encodePayload()
    }

    @Test func defaultsAreFiRaAndPicasInPicasOrderByteExact() throws {
        let configs = try parameters().appConfigs(for: .v1_1)
        let expected = bytes(
            "01 00 00 00 14 "
                + "00 01 01 11 01 01 01 01 02 03 01 00 22 01 01 04 01 09 14 01 0a 15 01 02 12 01 03 17 01 01 02 01 00 "
                + "27 02 00 00 28 06 00 00 00 00 00 00 26 01 00 06 02 01 00 05 01 01 07 02 02 00 "
                + "08 02 60 09 09 04 c8 00 00 00 1b 01 19")
        // HOPPING_MODE 0, MAX_RR_RETRY 0, AOA_RESULT_REQ 1 and SESSION_INFO_NTF_CONFIG 1 are FiRa's
        // defaults: not sent (a firmware may refuse a parameter it lacks even with that value).
        #expect(try payload(configs) == expected)
        var explicit = parameters()
        explicit.hoppingMode = 1
        explicit.maxRangingRoundRetries = 3
        explicit.aoaResultRequest = .azimuthOnly
        explicit.sessionInfoNotification = UCISessionInfoNotificationConfig(rawValue: 0)
        #expect(try payload(try explicit.appConfigs(for: .v1_1)).suffix(13) == bytes("2c 01 01 2a 02 03 00 0d 01 02 0e 01 00"))
        explicit.omittedConfigs = [.aoaResultRequest]
        #expect(try !explicit.appConfigs(for: .v1_1).contains { $0.id == .aoaResultRequest }, "an omitted parameter is never sent")
        // Same in 2.0: nothing version-dependent is set by default.
        #expect(try parameters().appConfigs(for: .v2_0) == configs)
        let ids = configs.map(\.id)
        let index = { (id: UCIAppConfigID) in ids.firstIndex(of: id)! }
        #expect(index(.macAddressMode) < index(.deviceMACAddress))
        #expect(index(.numberOfControlees) < index(.destinationMACAddresses))
        #expect(parameters().rangingRoundDuration == 50)
    }

    /// TV-2 of the reference (iOS shareable data, v1.1) turned into a FiRa session the way
    /// Qorvo's firmware does (specs/reference/ni-accessory-protocol.md §5).
    private func appleAccessorySession() -> FiRaSessionParameters {
        var p = FiRaSessionParameters(
            deviceMACAddress: .short(0x0012), destinationMACAddresses: [.short(0xB487)], deviceType: .controller,
            deviceRole: .initiator, channel: 9, preambleCodeIndex: 11, rangingInterval: 198)
        p.rangingRoundUsage = .dsTWRDeferred
        p.multiNodeMode = .unicast
        p.stsConfig = .staticSTS
        p.vendorID = 0x004C
        p.staticSTSIV = [0x39, 0x7B, 0x28, 0xD4, 0xB8, 0xD7]
        p.rframeConfig = .sp3
        p.sfdID = 2
        p.preambleDuration = .symbols64
        p.slotDuration = 3600
        p.slotsPerRangingRound = 6
        p.rangingRoundControl = UCIRangingRoundControl(rawValue: 0x03)
        p.maxRangingRoundRetries = 0
        p.initiationTime = .afterStart(milliseconds: 5)
        p.stsSegmentCount = 1
        p.resultReportConfig = .timeOfFlight
        return p
    }

    @Test func apples11AccessoryDerivationIsExpressible() throws {
        let configs = try appleAccessorySession().appConfigs(for: .v1_1)
        let encoded = try payload(configs)
        for tlv in ["27 02 4c 00", "28 06 39 7b 28 d4 b8 d7", "0c 01 03", "2b 04 05 00 00 00", "08 02 10 0e", "09 04 c6 00 00 00",
                    "1b 01 06", "07 02 87 b4", "06 02 12 00", "14 01 0b", "29 01 01", "2e 01 01"] {
            #expect(encoded.containsSubsequence(bytes(tlv)), "missing \(tlv) in \(hex(encoded))")
        }
        #expect(appleAccessorySession().rangingRoundDuration == 18)
    }

    @Test func uci20WidensTheInitiationTimeToEightBytes() throws {
        let encoded20 = try payload(try appleAccessorySession().appConfigs(for: .v2_0))
        #expect(encoded20.containsSubsequence(bytes("2b 08 05 00 00 00 00 00 00 00")))
        var absolute = appleAccessorySession()
        absolute.initiationTime = .absolute(microseconds: 0x0102_0304_0506)
        #expect(try payload(try absolute.appConfigs(for: .v2_0)).containsSubsequence(bytes("2b 08 06 05 04 03 02 01 00 00")))
        #expect {
            _ = try absolute.appConfigs(for: .v1_1)
        } throws: { error in
            "\(error)".contains("initiationTime (UWB_INITIATION_TIME, 0x2B) = at 1108152157446 µs UWBS time: UCI 1.1.0 has no absolute initiation time")
        }
    }

    @Test func oneToManyControllerSendsEveryControleeAfterTheirCount() throws {
        var p = parameters()
        p.multiNodeMode = .oneToMany
        p.destinationMACAddresses = [.short(0x0002), .short(0x0003), .short(0x0004)]
        let encoded = try payload(try p.appConfigs(for: .v2_0))
        #expect(encoded.containsSubsequence(bytes("05 01 03 07 06 02 00 03 00 04 00")))
    }

    @Test func extendedAddressesNeedMACAddressMode2() throws {
        var p = FiRaSessionParameters(
            deviceMACAddress: .extended(0x0102_0304_0506_0708), destinationMACAddresses: [.extended(0x1112_1314_1516_1718)])
        #expect(p.macAddressMode == .extended)
        let encoded = try payload(try p.appConfigs(for: .v2_0))
        #expect(encoded.containsSubsequence(bytes("26 01 02 06 08 08 07 06 05 04 03 02 01")))
        p.macAddressMode = .short
        #expect {
            _ = try p.appConfigs(for: .v2_0)
        } throws: { error in
            let problems = (error as? FiRaParameterError)?.problems.map(\.field)
            return problems == ["deviceMACAddress", "destinationMACAddresses"]
        }
    }

    /// Each invalid setting, the field the error names, and words of its message.
    @Test(arguments: [
        (Mutation.channel(7), "channel", "channel (CHANNEL_NUMBER, 0x04) = 7: allowed 5, 6, 8, 9, 10, 12, 13 or 14"),
        (.preamble(13), "preambleCodeIndex", "= 13: allowed 9-12 (BPRF) or 25-32 (HPRF)"),
        (.sfd(1), "sfdID", "preamble code 10 is BPRF, which uses SFD 0 or 2"),
        (.hprf(preamble: 27, sfd: 0), "sfdID", "preamble code 27 is HPRF, which uses SFD 1, 2, 3 or 4"),
        (.role(.utTag), "deviceRole", "two-way ranging uses RESPONDER (0x00) or INITIATOR (0x01)"),
        (.usage(.owrAoA), "rangingRoundUsage", "this client reads two-way range notifications only"),
        (.peers([]), "destinationMACAddresses", "a UNICAST session has exactly one peer address"),
        (.peers([2, 3]), "destinationMACAddresses", "a UNICAST session has exactly one peer address"),
        (.peers([1]), "destinationMACAddresses", "0x0001 is this device's own address"),
        (.oneToMany(Array(2...10)), "destinationMACAddresses", "9 addresses"),
        (.rframe(.sp2), "rframeConfig", "FiRa uses SP0 (0x00), SP1 (0x01) or SP3 (0x03)"),
        (.iv([1, 2, 3]), "staticSTSIV", "= 3 bytes: a static STS IV has exactly 6 bytes"),
        (.interval(40), "rangingInterval", "a round of 25 slots × 2400 RSTU lasts 50 ms, longer than the interval"),
        (.interval(0), "rangingInterval", "= 0 ms: at least 1 ms"),
        (.slots(0), "slotsPerRangingRound", "at least 1 slot per ranging round"),
        (.roundControl(0x01), "rangingRoundControl", "FiRa requires bit 1 (control message) to be set"),
        (.priority(0), "sessionPriority", "allowed 1 to 100"),
        (.aoa(0x07), "aoaResultRequest", "allowed 0 (off), 1 (azimuth and elevation)"),
        (.notification(9), "sessionInfoNotification", "allowed 0 (off), 1 (every round) or 2-7"),
        (.additional(.channelNumber(5)), "additionalConfigs", "this parameter is set by a field of FiRaSessionParameters"),
    ])
    func invalidSettingsAreNamedWithTheirValueAndWhatIsAllowed(mutation: Mutation, field: String, message: String) throws {
        var p = parameters()
        mutation.apply(to: &p)
        do {
            try p.validate(for: .v2_0)
            Issue.record("\(mutation) passed validation")
        } catch {
            #expect(error.problems.map(\.field) == [field], "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func everyProblemIsReportedAtOnce() throws {
        var p = parameters()
        p.channel = 4
        p.sfdID = 9
        p.sessionPriority = 101
        #expect {
            try p.validate()
        } throws: { error in
            guard let error = error as? FiRaParameterError else { return false }
            return error.problems.map(\.field) == ["channel", "sfdID", "sessionPriority"]
                && error.description.hasPrefix("invalid FiRa session parameters (3 problems):\n  channel (CHANNEL_NUMBER, 0x04) = 4")
        }
    }

    @Test func validAlternativesPass() throws {
        var p = parameters()
        p.channel = 5
        p.preambleCodeIndex = 9
        p.sfdID = 0
        p.deviceType = .controlee
        p.deviceRole = .responder
        p.rangingRoundUsage = .ssTWRNonDeferred
        p.scheduleMode = .contentionBased
        p.rangingRoundControl = UCIRangingRoundControl(rawValue: 0x06)
        p.stsConfig = .dynamicSTS
        p.staticSTSIV = []  // not sent with dynamic STS
        p.additionalConfigs = [.other(id: UCIAppConfigID(rawValue: 0xE3), value: [0x01])]
        let configs = try p.appConfigs(for: .v1_1)
        #expect(!configs.contains { $0.id == .staticSTSIV || $0.id == .vendorID })
        #expect(configs.last == .other(id: UCIAppConfigID(rawValue: 0xE3), value: [0x01]))
    }

    enum Mutation: Sendable, CustomTestStringConvertible {
        case channel(UInt8), preamble(UInt8), sfd(UInt8), hprf(preamble: UInt8, sfd: UInt8), role(UCIDeviceRole)
        case usage(UCIRangingRoundUsage), peers([UInt16]), oneToMany([UInt16]), rframe(UCIRFrameConfig), iv([UInt8])
        case interval(UInt32), slots(UInt8), roundControl(UInt8), priority(UInt8), aoa(UInt8), notification(UInt8)
        case additional(UCIAppConfig)

        func apply(to p: inout FiRaSessionParameters) {
            switch self {
            case .channel(let v): p.channel = v
            case .preamble(let v): p.preambleCodeIndex = v
            case .sfd(let v): p.sfdID = v
            case .hprf(let preamble, let sfd):
                p.preambleCodeIndex = preamble
                p.sfdID = sfd
            case .role(let v): p.deviceRole = v
            case .usage(let v): p.rangingRoundUsage = v
            case .peers(let list): p.destinationMACAddresses = list.map { .short($0) }
            case .oneToMany(let list):
                p.multiNodeMode = .oneToMany
                p.destinationMACAddresses = list.map { .short($0) }
            case .rframe(let v): p.rframeConfig = v
            case .iv(let v): p.staticSTSIV = v
            case .interval(let v): p.rangingInterval = v
            case .slots(let v): p.slotsPerRangingRound = v
            case .roundControl(let v): p.rangingRoundControl = UCIRangingRoundControl(rawValue: v)
            case .priority(let v): p.sessionPriority = v
            case .aoa(let v): p.aoaResultRequest = UCIAoAResultRequest(rawValue: v)
            case .notification(let v): p.sessionInfoNotification = UCISessionInfoNotificationConfig(rawValue: v)
            case .additional(let config): p.additionalConfigs = [config]
            }
        }

        var testDescription: String { "\(self)" }
    }
}

extension Array where Element == UInt8 {
    /// `true` if `needle` occurs in order and contiguously.
    func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
