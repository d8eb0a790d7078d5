import Testing
import UCI

@Suite("UCI app-config, device-config and capability TLVs")
struct AppConfigTests {
    /// Every typed parameter of the reference table with its value bytes.
    static let typed: [(UCIAppConfig, String)] = [
        (.deviceType(.controller), "01"),
        (.rangingRoundUsage(.dsTWRDeferred), "02"),
        (.stsConfig(.staticSTS), "00"),
        (.multiNodeMode(.oneToMany), "01"),
        (.channelNumber(9), "09"),
        (.numberOfControlees(1), "01"),
        (.deviceMACAddress(.short(0x0001)), "01 00"),
        (.deviceMACAddress(.extended(0x0807_0605_0403_0201)), "01 02 03 04 05 06 07 08"),
        (.destinationMACAddresses([.short(0x0002), .short(0x0003)]), "02 00 03 00"),
        (.destinationMACAddresses([.extended(0x1122_3344_5566_7788)]), "88 77 66 55 44 33 22 11"),
        (.slotDuration(rstu: 2400), "60 09"),
        (.rangingDuration(milliseconds: 200), "c8 00 00 00"),
        (.macFCSType(.crc32), "01"),
        (.rangingRoundControl([.resultReportMessage, .controlMessage]), "03"),
        (.aoaResultRequest(.enabled), "01"),
        (.sessionInfoNotificationConfig(.enabled), "01"),
        (.nearProximity(centimeters: 0), "00 00"),
        (.farProximity(centimeters: 20000), "20 4e"),
        (.deviceRole(.initiator), "01"),
        (.rframeConfig(.sp3), "03"),
        (.rssiReporting(1), "01"),
        (.preambleCodeIndex(10), "0a"),
        (.sfdID(2), "02"),
        (.preambleDuration(.symbols64), "01"),
        (.slotsPerRangingRound(25), "19"),
        (
            .aoaBounds(
                UCIAoABounds(
                    minimumAzimuth: UCIAngle(degrees: -60), maximumAzimuth: UCIAngle(degrees: 60),
                    minimumElevation: UCIAngle(degrees: -30.5), maximumElevation: UCIAngle(degrees: 30.5))),
            "00 e2 00 1e c0 f0 40 0f"
        ),
        (.scheduleMode(.timeScheduled), "01"),
        (.sessionPriority(50), "32"),
        (.macAddressMode(.extended), "02"),
        (.vendorID(0x0708), "08 07"),
        (.staticSTSIV([1, 2, 3, 4, 5, 6]), "01 02 03 04 05 06"),
        (.maxRangingRoundRetries(10), "0a 00"),
        (.uwbInitiationTime(.relative(milliseconds: 1000)), "e8 03 00 00"),
        (.uwbInitiationTime(.absolute(microseconds: 0x0102_0304_0506_0708)), "08 07 06 05 04 03 02 01"),
        (.hoppingMode(0), "00"),
        (.resultReportConfig([.timeOfFlight, .aoaAzimuth, .aoaFigureOfMerit]), "0b"),
        (.maxNumberOfMeasurements(100), "64 00"),
        (.stsLength(.symbols64), "01"),
        (.other(id: .stsIndex, value: [1, 0, 0, 0]), "01 00 00 00"),
        (.other(id: UCIAppConfigID(rawValue: 0xE8), value: []), ""),
    ]

    @Test("every typed parameter encodes its value and decodes back", arguments: 0..<typed.count)
    func roundTrip(index: Int) throws {
        let (config, value) = Self.typed[index]
        #expect(try config.encodedValue() == bytes(value), "\(config)")
        var addressLength: Int?
        if case .destinationMACAddresses(let list) = config { addressLength = list.first?.length }
        #expect(try UCIAppConfig(id: config.id, value: bytes(value), destinationAddressLength: addressLength) == config)
    }

    @Test("every reference-table identifier has a typed case")
    func referenceTableIsTyped() throws {
        let ids: [UInt8] = [
            0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14,
            0x15, 0x17, 0x1B, 0x1D, 0x22, 0x25, 0x26, 0x27, 0x28, 0x2A, 0x2B, 0x2C, 0x2E, 0x32, 0x35,
        ]
        let typedIDs = Set(Self.typed.compactMap { (config, _) -> UInt8? in
            if case .other = config { return nil }
            return config.id.rawValue
        })
        #expect(typedIDs == Set(ids))
    }

    @Test("a wrong length names the parameter, the length and the expected one")
    func wrongLengths() throws {
        let cases: [(UCIAppConfigID, String, String)] = [
            (.rangingDuration, "c8 00", "RANGING_DURATION (0x09)\": length 2, expected 4 (4 bytes, milliseconds)"),
            (.deviceType, "", "DEVICE_TYPE (0x00)\": length 0, expected 1"),
            (.uwbInitiationTime, "01 02 03", "UWB_INITIATION_TIME (0x2B)\": length 3, expected 4 (UCI 1.1, milliseconds) or 8 (UCI 2.0, microseconds)"),
            (.deviceMACAddress, "01 02 03", "DEVICE_MAC_ADDRESS (0x06)\": length 3, expected 2 (MAC_ADDRESS_MODE 0) or 8 (modes 1 and 2)"),
            (.destinationMACAddresses, "01 02 03", "DST_MAC_ADDRESS (0x07)\": length 3, expected a multiple of 2 or 8 (N addresses of 2 or 8 bytes)"),
            (.aoaBounds, "00 00", "AOA_BOUND_CONFIG (0x1D)\": length 2, expected 8 (four 2-byte Q9.7 angles)"),
            (.staticSTSIV, "01", "STATIC_STS_IV (0x28)\": length 1, expected 6"),
        ]
        for (id, value, text) in cases {
            do {
                _ = try UCIAppConfig(id: id, value: bytes(value))
                Issue.record("\(id) with \(value) decoded")
            } catch {
                #expect(error.code == .invalidLength)
                #expect(error.description == "app configuration: field \"\(text)", "\(error)")
            }
        }
        #expect(throws: UCIError.self) { try UCIAppConfig.staticSTSIV([1, 2]).encodedValue() }
        #expect(throws: UCIError.self) { try UCIAppConfig.destinationMACAddresses([.short(1), .extended(2)]).encodedValue() }
    }

    @Test("DST_MAC_ADDRESS sizes come from MAC_ADDRESS_MODE, NUMBER_OF_CONTROLEES or DEVICE_MAC_ADDRESS")
    func destinationAddressSizes() throws {
        // 16 bytes: eight short or two extended addresses.
        let sixteen = "01 00 02 00 03 00 04 00 05 00 06 00 07 00 08 00"
        func decode(_ before: String) throws -> [UCIMACAddress] {
            let tlvs = bytes(before) + bytes("07 10") + bytes(sixteen)
            let count = before.isEmpty ? 1 : 2
            let command = try UCICommand(opcode: .sessionSetAppConfig, payload: bytes("01 00 00 00") + [UInt8(count)] + tlvs)
            guard case .setAppConfig(_, let configs) = command, case .destinationMACAddresses(let list) = configs.last else { return [] }
            return list
        }
        #expect(try decode("").count == 8)  // nothing to go by: short (the default mode)
        #expect(try decode("26 01 02").count == 2)  // MAC_ADDRESS_MODE 2: extended
        #expect(try decode("26 01 00").count == 8)  // MAC_ADDRESS_MODE 0: short
        #expect(try decode("05 01 02").count == 2)  // two controlees: 8 bytes each
        #expect(try decode("05 01 08").count == 8)  // eight controlees: 2 bytes each
        #expect(try decode("06 08 01 02 03 04 05 06 07 08").count == 2)  // an extended device address
        #expect(try decode("26 01 02").first == .extended(0x0004_0003_0002_0001))
    }

    @Test("SET_APP_CONFIG round-trips a full session configuration byte-exact")
    func fullConfiguration() throws {
        let configs = Self.typed.map(\.0).filter {
            if case .uwbInitiationTime(.absolute) = $0 { return false }  // one form per list
            if case .deviceMACAddress(.extended) = $0 { return false }
            if case .destinationMACAddresses(let list) = $0, list.first?.isExtended == true { return false }
            return true
        }
        let command = UCICommand.setAppConfig(session: 42, configs: configs)
        let raw = try command.rawMessage()
        #expect(try UCICommand(opcode: raw.opcode, payload: raw.payload) == command)
        let response = UCIResponse.getAppConfig(.ok, configs)
        let rawResponse = try response.rawMessage()
        #expect(try UCIResponse(opcode: rawResponse.opcode, payload: rawResponse.payload) == response)
    }

    @Test("device configuration: typed DEVICE_STATE and LOW_POWER_MODE, others raw, bad values refused")
    func deviceConfig() throws {
        #expect(try UCIDeviceConfig(id: .deviceState, value: [0x02][...]) == .deviceState(.active))
        #expect(try UCIDeviceConfig(id: .lowPowerMode, value: [0x00][...]) == .lowPowerMode(false))
        #expect(try UCIDeviceConfig(id: UCIDeviceConfigID(rawValue: 0xE4), value: [1, 2][...]) == .other(id: UCIDeviceConfigID(rawValue: 0xE4), value: [1, 2]))
        do {
            _ = try UCIDeviceConfig(id: .lowPowerMode, value: [0x05][...])
            Issue.record("LOW_POWER_MODE 5 decoded")
        } catch {
            #expect(error.description == "device configuration: field \"LOW_POWER_MODE (0x01)\": value 0x05, expected 0 (off) or 1 (on)")
        }
        #expect(throws: UCIError.self) { try UCIDeviceConfig(id: .deviceState, value: [1, 2][...]) }
    }

    @Test("capabilities: the maximum data payload size is 0x13 in UCI 1.1 and 0x01 in UCI 2.0")
    func capabilityNumbering() throws {
        #expect(UCICapabilityKind(id: 0x13, version: .v1_1) == .maxDataPacketPayloadSize)
        #expect(UCICapabilityKind(id: 0x01, version: .v2_0) == .maxDataPacketPayloadSize)
        #expect(UCICapabilityKind(id: 0x01, version: .v1_1) == .macVersionRange)
        #expect(UCICapabilityKind.channels.id(for: .v1_1) == 0x0B)
        #expect(UCICapabilityKind.channels.id(for: .v2_0) == 0x0E)
        #expect(UCICapabilityKind.deviceTypes.id(for: .v1_1) == nil)
        #expect(UCICapabilityKind(id: 0xE4, version: .v2_0).description == "vendor-specific (0xE4)")
        #expect(throws: UCIError.self) { try UCICapability(.deviceTypes, value: [1], version: .v1_1) }
        #expect(try UCICapability(.maxDataPacketPayloadSize, value: [0x00, 0x04], version: .v2_0).id == 0x01)
    }

    @Test("capabilities decode into typed values for the UWBS's version")
    func typedCapabilities() throws {
        let v1 = UCICapabilities(
            [
                UCICapability(id: 0x13, value: [0xFF, 0x00]), UCICapability(id: 0x12, value: [0x00, 0x01]),
                UCICapability(id: 0x0B, value: [0x09]), UCICapability(id: 0x02, value: [0x03]),
                UCICapability(id: 0x03, value: [0x1E, 0x01]), UCICapability(id: 0x11, value: [0x01]),
                UCICapability(id: 0x10, value: [0x0D]), UCICapability(id: 0x0C, value: [0x09]),
                UCICapability(id: 0xE4, value: [0x64]),
            ], version: .v1_1)
        #expect(try v1.maxDataPacketPayloadSize() == 255)
        #expect(try v1.maxMessageSize() == 256)
        #expect(try v1.channels() == [5, 9])
        #expect(try v1.deviceRoles() == [.responder, .initiator])
        #expect(try v1.rangingMethods() == [.ssTWRDeferred, .dsTWRDeferred, .ssTWRNonDeferred, .dsTWRNonDeferred, .adsTWR])
        #expect(try v1.supportsExtendedMACAddress() == true)
        #expect(try v1.aoa() == [.azimuth90, .elevation, .figureOfMerit])
        #expect(try v1.rframeConfigs() == [.sp0, .sp3])
        #expect(try v1.supportsHopping() == nil)
        #expect(v1.value(of: .other(0xE4)) == [0x64])
        let v2 = UCICapabilities([UCICapability(id: 0x01, value: [0x00, 0x04]), UCICapability(id: 0x0E, value: [0x0A])], version: .v2_0)
        #expect(try v2.maxDataPacketPayloadSize() == 1024)
        #expect(try v2.channels() == [6, 9])
        let bad = UCICapabilities([UCICapability(id: 0x01, value: [0x04])], version: .v2_0)
        do {
            _ = try bad.maxDataPacketPayloadSize()
            Issue.record("a 1-byte size decoded")
        } catch {
            #expect(error.description.contains("SUPPORTED_MAX_DATA_PACKET_PAYLOAD_SIZE\": length 1, expected 2 (UCI 2.0.0 numbering)"))
        }
    }

    @Test("Q9.7 angles convert to degrees and back, rounding and clamping")
    func angles() {
        #expect(UCIAngle(bits: 0xF100).degrees == -30)
        #expect(UCIAngle(bits: 0x0540).degrees == 10.5)
        #expect(UCIAngle(degrees: 10.5).bits == 0x0540)
        #expect(UCIAngle(degrees: 0.01).rawValue == 1)
        #expect(UCIAngle(degrees: 1000).rawValue == Int16.max)
        #expect(UCIAngle(degrees: -1000).rawValue == Int16.min)
        #expect(UCIAngle(degrees: .nan).rawValue == 0)
        #expect(UCIAngle(degrees: -30).description == "-30.0°")
    }
}
