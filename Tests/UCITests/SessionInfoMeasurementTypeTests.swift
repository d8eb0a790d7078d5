import Ranging
import Testing
import UCI

/// SESSION_INFO_NTF with OWR-AoA (type 3) and DL-TDoA (type 2) measurements, typed: google/pica's
/// PDL test vectors (`ShortMacOwrAoaSessionInfoNtf`, `ExtendedMacOwrAoaSessionInfoNtf`; their
/// 7-byte internal header replaced by the 4-byte wire header) and hand-assembled DL-TDoA bytes
/// following AOSP's / pica's `DlTdoaRangingMeasurement`.
@Suite struct SessionInfoMeasurementTypeTests {
    /// pica's short-address OWR-AoA vector: one measurement from 0xBBAA.
    static let owrShort = bytes(
        "00 02 03 04 | 05 06 07 08 | 00 | 0a 01 01 01 | 03 | 00 | 00 | 00 00 00 00 00 00 00 00 | 01 |"
            + " aa bb | 00 | 00 | 01 | 01 00 | 03 04 | 60 | 05 06 | 50")

    @Test func owrAoAShortAndExtendedAreTyped() throws {
        let info = try UCISessionInfo(payload: Self.owrShort[...])
        #expect(info.measurementType == .owrAoA && info.sequenceNumber == 0x0403_0200 && info.session == 0x0807_0605)
        guard case .owrAoA(let list) = info.measurements else { Issue.record("not OWR-AoA: \(info.measurements)"); return }
        let m = try #require(list.first)
        #expect(m == UCIOWRAoAMeasurement(
            macAddress: .short(0xBBAA), status: .ok, nlos: 0, frameSequenceNumber: 1, blockIndex: 1,
            azimuth: UCIAngle(rawValue: 0x0403), azimuthFigureOfMerit: 0x60, elevation: UCIAngle(rawValue: 0x0605),
            elevationFigureOfMerit: 0x50))
        #expect(try info.encodePayload() == Self.owrShort)
        let sample = m.rangeSample(timestamp: 1)
        #expect(sample.distance == nil && sample.azimuth == Double(0x0403) / 128 && sample.figureOfMerit == 0x60 && sample.isValid)

        let extended = bytes(
            "00 02 03 04 05 06 07 08 00 0a 01 01 01 03 00 01 00 00 00 00 00 00 00 00 01"
                + " aa bb cc dd 01 02 03 04 00 00 01 01 00 03 04 60 05 06 50")
        let ext = try UCISessionInfo(payload: extended[...])
        guard case .owrAoA(let extList) = ext.measurements else { Issue.record("not OWR-AoA"); return }
        #expect(ext.usesExtendedAddresses && extList.first?.macAddress == .extended(0x0403_0201_DDCC_BBAA))
        #expect(try ext.encodePayload() == extended)

        // Decoded in a whole message (as `nearby uci decode` does) and described.
        let message = try UCIMessage(packet: [0x62, 0x00, 0x00, UInt8(Self.owrShort.count)] + Self.owrShort)
        #expect(message.description.contains("OWR_AOA"), "\(message)")
        #expect(message.description.contains("frame sequence number: 1"), "\(message)")
    }

    @Test func dlTDoAMeasurementsRoundTripWithEveryOptionalPart() throws {
        let full = UCIDLTDoAMeasurement(
            macAddress: .short(0x0102), status: .ok, messageType: 1, txTimestampType: 1, txTimestampIs64Bit: true,
            rxTimestampIs64Bit: false, blockIndex: 0x0304, roundIndex: 5, nlos: 0, azimuth: UCIAngle(degrees: 10),
            azimuthFigureOfMerit: 90, elevation: UCIAngle(degrees: -5), elevationFigureOfMerit: 80, rssi: 0x90,
            txTimestamp: 0x1122_3344_5566_7788, rxTimestamp: 0xAA_BBCC_DDEE, anchorCFO: 0x1234, cfo: 0x5678,
            initiatorReplyTime: 0x0102_0304, responderReplyTime: 0x0506_0708, initiatorResponderTimeOfFlight: 0x090A,
            wgs84Location: Array(1...12), relativeLocation: .init(x: -5, y: 134_217_727, z: -8_388_608),
            activeRangingRounds: [0, 2, 4])
        let plain = UCIDLTDoAMeasurement(macAddress: .short(0x0A0B), status: UCIStatus(rawValue: 0x21), messageType: 2)
        let info = UCISessionInfo(sequenceNumber: 9, session: 0x42, currentRangingInterval: 200, measurements: .dlTDoA([full, plain]))
        let payload = try info.encodePayload()
        #expect(payload[13] == 0x02 && payload[24] == 2)
        // The first measurement's fixed part: MAC, status, message type, control (b0 type, b1
        // TX 64-bit, b5 WGS-84, b6 relative, 3 rounds in b7-b10 = 0x01E3), block, round, NLoS.
        #expect(Array(payload[25..<35]) == bytes("02 01 | 00 | 01 | e3 01 | 04 03 | 05 | 00"))
        let decoded = try UCISessionInfo(payload: payload[...])
        #expect(decoded == info)
        guard case .dlTDoA(let list) = decoded.measurements else { Issue.record("not DL-TDoA"); return }
        #expect(list[0].relativeLocation == .init(x: -5, y: 134_217_727, z: -8_388_608))
        #expect(list[0].txTimestamp == 0x1122_3344_5566_7788 && list[0].rxTimestamp == 0xAA_BBCC_DDEE)
        #expect(list[1].activeRangingRounds.isEmpty && list[1].wgs84Location == nil && !list[1].isValid)
        // A cut DL-TDoA notification names the field.
        #expect {
            _ = try UCISessionInfo(payload: payload.dropLast(2))
        } throws: { error in
            (error as? UCIError)?.description.contains("DL-TDoA measurement 2") == true
        }
    }
}

/// Fixed-length notifications with bytes appended (a vendor firmware's extra status bytes): the
/// notification still decodes; the extra bytes are what a reader logs.
@Suite struct FixedLengthNotificationTests {
    @Test func trailingBytesOnFixedLengthNotificationsAreIgnored() throws {
        #expect(try UCINotification(opcode: .coreDeviceStatus, payload: [0x01, 0xAA]) == .deviceStatus(.ready))
        #expect(try UCINotification(opcode: .coreGenericError, payload: [0x0A, 0, 0]) == .genericError(.commandRetry))
        #expect(
            try UCINotification(opcode: .sessionStatus, payload: bytes("01 00 00 00 02 00 | 7f")) == .sessionStatus(session: 1, state: .active, reason: UCIReasonCode(rawValue: 0)))
        #expect(UCINotification.fixedPayloadLength(of: .sessionStatus) == 6)
        #expect(UCINotification.fixedPayloadLength(of: .sessionInfo) == nil)
        // Too short is still an error naming the field.
        #expect(throws: UCIError.self) { try UCINotification(opcode: .sessionStatus, payload: bytes("01 00 00 00 02")) }
    }
}
