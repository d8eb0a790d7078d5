import NIProtocol
import Testing
import UCI
import NearbyTestSupport

/// Session planning against the reference's (specs/reference/ni-accessory-protocol.md) vectors: TV-1 (an accessory's ACD) planned with
/// TV-2's choices gives TV-2 byte for byte; the accessory derives TV-3 from it; host and
/// accessory parameters are complementary.
@Suite struct SessionPlanningTests {
    /// TV-1's accessory configuration data.
    private func tv1() throws -> AccessoryConfigurationData {
        guard case .accessoryConfigurationData(let acd) = try NIMessage(decoding: niTV1, dialect: .apple) else {
            throw NIProtocolError(structure: "test", reason: .emptyMessage)
        }
        return acd
    }

    /// The options that reproduce what iOS chose in TV-2.
    private let tv2Options = SessionPlanningOptions(
        channels: [9], preambleCodeIndices: [11], countryCode: try! RegulatoryCountryCode("EU"), sessionID: 0x5FA8,
        hostAddress: 0xB487, staticSTSIV: [0x39, 0x7B, 0x28, 0xD4, 0xB8, 0xD7])

    @Test func tv1PlannedWithTV2sChoicesIsTV2ByteExact() throws {
        var random = NITestRandom(seed: 1)
        let plan = try SessionPlanner(options: tv2Options).plan(for: try tv1(), device: LocalUWBDevice(uciVersion: .v1_1), using: &random)
        #expect(plan.configureMessage.encoded() == [0x0B] + niTV2)
        #expect(plan.sessionID == 0x5FA8 && plan.dialect == .apple)
        #expect(plan.accessoryAddress == 0x0012 && plan.hostAddress == 0xB487)
        // TV-1's accessory is an initiator (role 1): the host is the controlee / responder.
        let host = plan.hostParameters
        #expect(host.deviceType == .controlee && host.deviceRole == .responder)
        #expect(host.deviceMACAddress == .short(0xB487) && host.destinationMACAddresses == [.short(0x0012)])
        #expect(host.channel == 9 && host.preambleCodeIndex == 11 && host.rangingInterval == 198)
        #expect(host.slotDuration == 3600 && host.slotsPerRangingRound == 6 && host.rangingRoundDuration == 18)
        #expect(host.vendorID == 0x004C && host.staticSTSIV == [0x39, 0x7B, 0x28, 0xD4, 0xB8, 0xD7])
        #expect(host.rangingRoundControl?.rawValue == 0x03 && host.stsConfig == .staticSTS && host.rframeConfig == .sp3)
        #expect(host.initiationTime == .afterStart(milliseconds: 5))
        try host.validate(for: .v1_1)
        #expect(plan.summary == "session 0x00005FA8, channel 9, preamble 11, 198 ms, host 0xB487 controlee/responder -> accessory 0x0012, shareable v1.1 (30 B)")
    }

    @Test func theAccessoryDerivesTV3FromTV2() throws {
        let shareable = try ShareableConfigurationData(bytes: niTV2)
        let accessory = try tv1().uwbConfiguration
        let p = NIFiRaDerivation.accessoryParameters(shareable: shareable, accessory: accessory, keyByteOrder: .vendorFirst)
        // TV-3: round 21600 RSTU = 6 × 3600 (Qorvo: 7 round slots), block 198 ms, ToF on, DST 0xB487, vendor 0x004C.
        #expect(p.slotDuration == 3600 && p.slotsPerRangingRound == 7)
        #expect(Int(shareable.slotsPerRound) * Int(shareable.slotDurationRSTU) == 21600)
        #expect(p.rangingInterval == 198 && p.resultReportConfig == .timeOfFlight)
        #expect(p.destinationMACAddresses == [.short(0xB487)] && p.deviceMACAddress == .short(0x0012))
        #expect(p.deviceType == .controller && p.deviceRole == .initiator, "role 1 → controller + initiator")
        #expect(p.vendorID == 0x004C && p.stsSegmentCount == 1 && p.initiationTime == .afterStart(milliseconds: 5))
        // AOSP's session key info (and what androidx sends to UCI): 4C 00 + the IV in wire order.
        let iv = shareable.staticSTSIV
        #expect(UWBKeyByteOrder.vendorFirst.uciBytes(iv: iv) == niBytes("4c 00 39 7b 28 d4 b8 d7"))
        // Qorvo's vupper64: libniq stores the IV reversed (decompiled niq_configure_and_start_uwb:
        // Static_STS_IV[0] = payload[25] ... [5] = payload[20]); fira_niq.c writes
        // vupper64[5..0] = IV[0..5] and [6] = VID[1], [7] = VID[0]: the IV in wire order again.
        let stored = Array(iv.reversed())
        var vupper64 = [UInt8](repeating: 0, count: 8)
        for i in 0..<6 { vupper64[5 - i] = stored[i] }
        vupper64[6] = 0x00
        vupper64[7] = 0x4C
        #expect(vupper64 == niBytes("39 7b 28 d4 b8 d7 00 4c"), "TV-3 (corrected)")
        // What UCI receives: VENDOR_ID then STATIC_STS_IV TLVs.
        let tlvs = try p.appConfigs(for: .v1_1)
        #expect(try tlvs.first { $0.id == .vendorID }?.encodedValue() == [0x4C, 0x00])
        #expect(try tlvs.first { $0.id == .staticSTSIV }?.encodedValue() == iv)
        // The one alternative: VENDOR_ID swapped, the IV still in wire order.
        #expect(UWBKeyByteOrder.vendorSwapped.uciBytes(iv: iv) == niBytes("00 4c 39 7b 28 d4 b8 d7"))
        let swapped = NIFiRaDerivation.accessoryParameters(shareable: shareable, accessory: accessory, keyByteOrder: .vendorSwapped)
        #expect(swapped.vendorID == 0x4C00 && swapped.staticSTSIV == iv)
        #expect(try swapped.appConfigs(for: .v1_1).first { $0.id == .vendorID }?.encodedValue() == [0x00, 0x4C])
    }

    @Test func keyOrderNamesParseIncludingTheOldSpelling() {
        #expect(UWBKeyByteOrder(name: "vendor-first") == .vendorFirst)
        #expect(UWBKeyByteOrder(name: "vendor-swapped") == .vendorSwapped)
        #expect(UWBKeyByteOrder(name: "reversed") == .vendorSwapped, "the old name maps to the one alternative")
        #expect(UWBKeyByteOrder(name: "Qorvo") == .vendorSwapped && UWBKeyByteOrder(name: "aosp") == .vendorFirst)
        #expect(UWBKeyByteOrder(name: "backwards") == nil)
        #expect(UWBKeyByteOrder.allCases.map(\.description) == ["vendor-first", "vendor-swapped"])
    }

    @Test(arguments: [NIRangingRole.responder, .initiator], [UWBKeyByteOrder.vendorFirst, .vendorSwapped])
    func hostAndAccessoryParametersAreComplementary(role: NIRangingRole, order: UWBKeyByteOrder) throws {
        let uwb = try UWBConfigurationData(
            manufacturerID: 1, modelID: 2, middlewareVersion: 3, rangingRole: role, deviceAddress: 0x0A01, maxClockDriftPPM: 25)
        let acd = try AccessoryConfigurationData(uwbConfiguration: uwb)
        var random = NITestRandom(seed: 42)
        let plan = try SessionPlanner(options: SessionPlanningOptions(keyByteOrder: order))
            .plan(for: acd, device: LocalUWBDevice(uciVersion: .v2_0), using: &random)
        guard case .apple(let shareable) = plan.shared else { Issue.record("not Apple"); return }
        let host = plan.hostParameters
        let accessory = NIFiRaDerivation.accessoryParameters(shareable: shareable, accessory: uwb, keyByteOrder: order)
        #expect(host.channel == accessory.channel && host.preambleCodeIndex == accessory.preambleCodeIndex)
        #expect(host.vendorID == accessory.vendorID && host.staticSTSIV == accessory.staticSTSIV)
        #expect(host.rangingInterval == accessory.rangingInterval && host.slotDuration == accessory.slotDuration)
        #expect(host.stsConfig == accessory.stsConfig && host.rangingRoundUsage == accessory.rangingRoundUsage)
        #expect(host.deviceType != accessory.deviceType && host.deviceRole != accessory.deviceRole)
        #expect(host.deviceMACAddress == accessory.destinationMACAddresses.first)
        #expect(accessory.deviceMACAddress == host.destinationMACAddresses.first)
        #expect(accessory.deviceType == (role == .initiator ? .controller : .controlee))
        try host.validate(for: .v2_0)
        try accessory.validate(for: .v2_0)
    }

    @Test(arguments: [ConfigurationDataVersion.v1_0, .v1_1, .v2_0])
    func theShareableLayoutFollowsTheAccessorys(layout: ConfigurationDataVersion) throws {
        let uwb = try UWBConfigurationData(
            manufacturerID: 1, modelID: 2, middlewareVersion: 3, rangingRole: .responder, deviceAddress: 0x0A01,
            maxClockDriftPPM: layout >= .v1_1 ? 25 : nil,
            requestedParameters: layout == .v2_0 ? .init(hoppingMode: 1, slotsPerRound: 8, slotDurationRSTU: 2400, rangingIntervalMS: 96) : nil)
        let plan = try SessionPlanner().plan(for: try AccessoryConfigurationData(uwbConfiguration: uwb), device: LocalUWBDevice(uciVersion: .v2_0))
        guard case .apple(let shareable) = plan.shared else { Issue.record("not Apple"); return }
        #expect(shareable.version == layout)
        #expect(shareable.byteCount == [ConfigurationDataVersion.v1_0: 28, .v1_1: 30, .v2_0: 35][layout])
        #expect(shareable.phoneMaxClockDriftPPM == (layout >= .v1_1 ? 100 : nil))
        if layout == .v2_0 {
            // The 2.0 request is honoured, hopping included (AOSP-based accessories ask for it).
            #expect(shareable.slotsPerRound == 8 && shareable.slotDurationRSTU == 2400 && shareable.rangingIntervalMS == 96)
            #expect(shareable.hopping?.hoppingMode == 1)
            #expect(plan.hostParameters.hoppingMode == 1)
            let accessory = NIFiRaDerivation.accessoryParameters(shareable: shareable, accessory: uwb, keyByteOrder: .vendorFirst)
            #expect(accessory.hoppingMode == 1)
            #expect(try plan.hostParameters.appConfigs(for: .v2_0).first { $0.id == .hoppingMode }?.encodedValue() == [1])
        } else {
            #expect(plan.hostParameters.hoppingMode == 0)
            #expect(shareable.slotsPerRound == 6 && shareable.slotDurationRSTU == 3600 && shareable.rangingIntervalMS == 198)
        }
        #expect(shareable.channel == 9 && (9...12).contains(shareable.preambleCodeIndex))
        #expect(shareable.sessionID != 0 && shareable.phoneAddress != 0x0A01)
    }

    @Test func aV20RequestThatDoesNotFitItsIntervalIsIgnored() throws {
        let uwb = try UWBConfigurationData(
            manufacturerID: 1, modelID: 2, middlewareVersion: 3, rangingRole: .responder, deviceAddress: 1, maxClockDriftPPM: 25,
            requestedParameters: .init(hoppingMode: 0, slotsPerRound: 30, slotDurationRSTU: 3600, rangingIntervalMS: 50))
        let acd = try AccessoryConfigurationData(preferredUpdateRate: .infrequent, uwbConfiguration: uwb)
        let timing = SessionPlanner().timing(for: acd)
        #expect(timing.slots == 6 && timing.slotDuration == 3600 && timing.interval == 769, "30 × 3 ms = 90 ms > 50 ms")
    }

    /// A fixed interval keeps the accessory's v2.0 slot duration (and its slots when the round
    /// fits the fixed interval).
    @Test func aFixedIntervalKeepsTheV20SlotDuration() throws {
        let uwb = try UWBConfigurationData(
            manufacturerID: 1, modelID: 2, middlewareVersion: 3, rangingRole: .responder, deviceAddress: 1, maxClockDriftPPM: 25,
            requestedParameters: .init(hoppingMode: 1, slotsPerRound: 8, slotDurationRSTU: 2400, rangingIntervalMS: 96))
        let acd = try AccessoryConfigurationData(uwbConfiguration: uwb)
        let fixed = SessionPlanner(options: SessionPlanningOptions(rangingIntervalMS: 100)).timing(for: acd)
        #expect(fixed.slots == 8 && fixed.slotDuration == 2400 && fixed.interval == 100)
        // 8 × 2 ms = 16 ms does not fit 12 ms: the options' 6 slots with the accessory's 2 ms do.
        let short = SessionPlanner(options: SessionPlanningOptions(slotsPerRound: 6, slotDurationRSTU: 1200, rangingIntervalMS: 12)).timing(for: acd)
        #expect(short.slots == 6 && short.slotDuration == 2400 && short.interval == 12)
        // Without a v2.0 request the options apply.
        let tv1Timing = SessionPlanner(options: SessionPlanningOptions(rangingIntervalMS: 100)).timing(for: try tv1())
        #expect(tv1Timing.slots == 6 && tv1Timing.slotDuration == 3600 && tv1Timing.interval == 100)
    }

    @Test func intervalsFollowThePreferredUpdateRate() {
        #expect(SessionPlanner.rangingInterval(for: .automatic) == 198)
        #expect(SessionPlanner.rangingInterval(for: .userInteractive) == 182)
        #expect(SessionPlanner.rangingInterval(for: .infrequent) == 769)
        #expect(SessionPlanner.rangingInterval(for: .init(rawValue: 99)) == 198)
    }

    @Test func randomChoicesAreSeededAndAvoidWhatIsInUse() throws {
        let acd = try tv1()
        let device = LocalUWBDevice(uciVersion: .v2_0)
        var a = NITestRandom(seed: 9)
        var b = NITestRandom(seed: 9)
        let first = try SessionPlanner().plan(for: acd, device: device, using: &a)
        #expect(try SessionPlanner().plan(for: acd, device: device, using: &b) == first, "same seed, same plan")
        var c = NITestRandom(seed: 9)
        let other = try SessionPlanner().plan(for: acd, device: device, excluding: [first.sessionID], using: &c)
        #expect(other.sessionID != first.sessionID)
        for seed in 0..<200 as Range<UInt64> {
            var random = NITestRandom(seed: seed)
            let plan = try SessionPlanner().plan(for: acd, device: device, using: &random)
            #expect(plan.hostAddress != 0x0012 && plan.hostAddress != 0 && plan.hostAddress != 0xFFFF && plan.sessionID != 0)
        }
    }

    @Test func aKitWithoutChannel5Or9CannotPlan() throws {
        #expect {
            _ = try SessionPlanner().plan(for: try tv1(), device: LocalUWBDevice(uciVersion: .v2_0, channels: [6, 8]))
        } throws: { error in
            (error as? SessionPlanningError)?.description
                == "no common UWB channel: NI needs one of 9, 5, the dev kit supports 6, 8; use a kit with channel 5 or 9"
        }
        let plan = try SessionPlanner().plan(for: try tv1(), device: LocalUWBDevice(uciVersion: .v2_0, channels: [5, 6]))
        #expect(plan.hostParameters.channel == 5)
        #expect(throws: SessionPlanningError(.invalidOption(field: "slotsPerRound", value: "300", allowed: "1-255"))) {
            _ = try SessionPlanner(options: SessionPlanningOptions(slotsPerRound: 300)).plan(for: try tv1(), device: LocalUWBDevice(uciVersion: .v2_0))
        }
    }

    @Test func androidDialectIsPlannedAndComplementary() throws {
        let device = try UWBDeviceConfigData(
            chipID: 1, chipFirmwareVersion: 2, middlewareVersion: 3, supportedProfileIDs: 0x0E, supportedRoles: [.controller, .controlee],
            deviceAddress: 0x1234)
        var random = NITestRandom(seed: 3)
        let plan = try SessionPlanner().plan(for: device, device: LocalUWBDevice(uciVersion: .v2_0), using: &random)
        guard case .android(let phone) = plan.shared else { Issue.record("not Android"); return }
        #expect(phone.profileID == 1 && phone.accessoryRole == .controlee && plan.dialect == .android)
        #expect(plan.configureMessage.encoded().count == 15)
        let host = plan.hostParameters
        let profile = try #require(AndroidConfigProfile.nxp(configID: 1))
        let accessory = NIFiRaDerivation.accessoryParameters(phone: phone, accessory: device, profile: profile)
        #expect(host.deviceType == .controller && accessory.deviceType == .controlee)
        #expect(host.vendorID == 0x0708 && host.staticSTSIV == [1, 2, 3, 4, 5, 6] && accessory.staticSTSIV == host.staticSTSIV)
        #expect(host.destinationMACAddresses == [accessory.deviceMACAddress] && accessory.destinationMACAddresses == [host.deviceMACAddress])
        #expect(host.rangingInterval == 240 && accessory.rangingInterval == 240)
        #expect(host.slotsPerRangingRound == 10 && host.slotDuration == 2400, "NXP's table for an accessory offering IDs 1-3")
        let none = try UWBDeviceConfigData(
            chipID: 1, chipFirmwareVersion: 2, middlewareVersion: 3, supportedProfileIDs: 0x10, supportedRoles: .controller, deviceAddress: 1)
        #expect(throws: SessionPlanningError(.noCommonProfile(accessory: 0x10, host: [1]))) {
            _ = try SessionPlanner().plan(for: none, device: LocalUWBDevice(uciVersion: .v2_0), using: &random)
        }
    }

    /// NXP's tables (UwbApi_ConfigureData_Android): ID 1 unicast 240 ms with AoA, ID 2
    /// one-to-many 200 ms, ID 3 as ID 1 without AoA; 10 slots of 2400 RSTU; 6 slots for an
    /// accessory offering ID 1 only (the older SDK's table) or when the option says so.
    @Test(arguments: [
        (UInt8(1), UInt32(0x0E), UInt8?.none, UCIMultiNodeMode.unicast, UInt32(240), UCIAoAResultRequest.enabled, UInt8(10)),
        (2, 0x0E, nil, .oneToMany, 200, .enabled, 10),
        (3, 0x0E, nil, .unicast, 240, .disabled, 10),
        (1, 0x02, nil, .unicast, 240, .enabled, 6),
        (1, 0x0E, 6, .unicast, 240, .enabled, 6),
    ])
    func androidConfigIDsUseNXPsTables(
        id: UInt8, offered: UInt32, slotsOption: UInt8?, mode: UCIMultiNodeMode, interval: UInt32, aoa: UCIAoAResultRequest, slots: UInt8
    ) throws {
        let device = try UWBDeviceConfigData(
            chipID: 0x00FF, chipFirmwareVersion: 0x0205, middlewareVersion: 0x04_0600, supportedProfileIDs: offered,
            supportedRoles: [.controller, .controlee], deviceAddress: 0x0A01)
        var random = NITestRandom(seed: 5)
        let options = SessionPlanningOptions(androidConfigIDs: [id], androidSlotsPerRound: slotsOption)
        let plan = try SessionPlanner(options: options).plan(for: device, device: LocalUWBDevice(uciVersion: .v2_0), using: &random)
        guard case .android(let phone) = plan.shared else { Issue.record("not Android"); return }
        #expect(phone.profileID == id)
        let host = plan.hostParameters
        #expect(host.multiNodeMode == mode && host.rangingInterval == interval && host.aoaResultRequest == aoa)
        #expect(host.slotsPerRangingRound == slots && host.slotDuration == 2400)
        try host.validate(for: .v2_0)
        // An explicit interval overrides the table.
        let fixed = try SessionPlanner(options: SessionPlanningOptions(androidConfigIDs: [id], androidRangingIntervalMS: 100))
            .plan(for: device, device: LocalUWBDevice(uciVersion: .v2_0), using: &random)
        #expect(fixed.hostParameters.rangingInterval == 100)
    }

    /// AOA_RESULT_REQ is sent only to a kit whose capabilities say it measures angles, and only
    /// when it differs from FiRa's default (on): a one-antenna DWM3001CDK gets no AOA_RESULT_REQ
    /// and its samples carry no angles; Android config ID 3 asks an angle-capable kit for none.
    @Test func angleRequestsFollowTheKitsCapabilities() throws {
        var random = NITestRandom(seed: 8)
        let acd = try tv1()
        let oneAntenna = LocalUWBDevice(
            deviceInfo: UCIDeviceInfo(uciVersion: .v1_1, macVersion: .v1_1, phyVersion: .v1_1, testVersion: .v1_1),
            capabilities: UCICapabilities([try UCICapability(.aoa, value: [0], version: .v1_1)], version: .v1_1))
        #expect(oneAntenna.measuresAngles == false)
        let plan = try SessionPlanner().plan(for: acd, device: oneAntenna, using: &random)
        #expect(plan.hostParameters.aoaResultRequest == .disabled && !plan.hostParameters.reportsAzimuth)
        #expect(try !plan.hostParameters.appConfigs(for: .v1_1).contains { $0.id == .aoaResultRequest })
        let withAngles = try SessionPlanner().plan(for: acd, device: LocalUWBDevice(uciVersion: .v1_1, measuresAngles: true), using: &random)
        #expect(withAngles.hostParameters.aoaResultRequest == .enabled && withAngles.hostParameters.reportsAzimuth)
        #expect(try !withAngles.hostParameters.appConfigs(for: .v1_1).contains { $0.id == .aoaResultRequest }, "the default is not sent")
        let device = try UWBDeviceConfigData(
            chipID: 1, chipFirmwareVersion: 2, middlewareVersion: 3, supportedProfileIDs: 0x0E, supportedRoles: .controlee, deviceAddress: 1)
        let noAoA = try SessionPlanner(options: SessionPlanningOptions(androidConfigIDs: [3]))
            .plan(for: device, device: LocalUWBDevice(uciVersion: .v2_0), using: &random)
        #expect(try noAoA.hostParameters.appConfigs(for: .v2_0).first { $0.id == .aoaResultRequest }?.encodedValue() == [0])
        let unknown = LocalUWBDevice(
            deviceInfo: UCIDeviceInfo(uciVersion: .v2_0, macVersion: .v1_1, phyVersion: .v1_1, testVersion: .v1_1), capabilities: nil)
        #expect(unknown.measuresAngles == nil, "no capabilities: angles are asked for as usual")
    }

    @Test func androidConfigIDsOutsideNXPsTableAreRefused() throws {
        let device = try UWBDeviceConfigData(
            chipID: 1, chipFirmwareVersion: 2, middlewareVersion: 3, supportedProfileIDs: 0x1E, supportedRoles: .controlee, deviceAddress: 1)
        #expect(throws: SessionPlanningError(.invalidOption(field: "androidConfigIDs", value: "4", allowed: "1, 2 or 3 (NXP's config IDs)"))) {
            var random = NITestRandom(seed: 1)
            _ = try SessionPlanner(options: SessionPlanningOptions(androidConfigIDs: [4, 1])).plan(for: device, device: LocalUWBDevice(uciVersion: .v2_0), using: &random)
        }
    }
}
