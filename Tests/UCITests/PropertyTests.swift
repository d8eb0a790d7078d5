import Testing
import UCI
import NearbyTestSupport


extension SeededGenerator {
    mutating func byte() -> UInt8 { UInt8.random(in: .min ... .max, using: &self) }
    mutating func u16() -> UInt16 { UInt16.random(in: .min ... .max, using: &self) }
    mutating func u32() -> UInt32 { UInt32.random(in: .min ... .max, using: &self) }
    mutating func bytes(_ range: ClosedRange<Int>) -> [UInt8] { (0..<Int.random(in: range, using: &self)).map { _ in byte() } }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }

    mutating func measurement(extended: Bool) -> UCITwoWayMeasurement {
        UCITwoWayMeasurement(
            macAddress: extended ? .extended(next()) : .short(u16()), status: UCIStatus(rawValue: byte()), nlos: byte(),
            distance: u16(), azimuth: UCIAngle(bits: u16()), azimuthFigureOfMerit: byte(), elevation: UCIAngle(bits: u16()),
            elevationFigureOfMerit: byte(), destinationAzimuth: UCIAngle(bits: u16()), destinationAzimuthFigureOfMerit: byte(),
            destinationElevation: UCIAngle(bits: u16()), destinationElevationFigureOfMerit: byte(), slotIndex: byte(), rssi: byte())
    }

    mutating func appConfig() -> UCIAppConfig {
        pick([
            .deviceType(UCIDeviceType(rawValue: byte())), .rangingRoundUsage(UCIRangingRoundUsage(rawValue: byte())),
            .channelNumber(byte()), .deviceMACAddress(.short(u16())), .slotDuration(rstu: u16()), .rangingDuration(milliseconds: u32()),
            .rangingRoundControl(UCIRangingRoundControl(rawValue: byte())), .nearProximity(centimeters: u16()),
            .aoaBounds(UCIAoABounds(minimumAzimuth: UCIAngle(bits: u16()), maximumAzimuth: UCIAngle(bits: u16()), minimumElevation: UCIAngle(bits: u16()), maximumElevation: UCIAngle(bits: u16()))),
            .staticSTSIV((0..<6).map { _ in byte() }), .uwbInitiationTime(.relative(milliseconds: u32())),
            .uwbInitiationTime(.absolute(microseconds: next())), .resultReportConfig(UCIResultReportConfig(rawValue: byte())),
            .other(id: UCIAppConfigID(rawValue: UInt8.random(in: 0xA0...0xFF, using: &self)), value: bytes(0...20)),
        ])
    }

    /// A random message of a random kind.
    mutating func message() -> UCIMessage {
        let session = u32()
        switch Int.random(in: 0..<16, using: &self) {
        case 0: return .command(.sessionInit(sessionID: session, type: UCISessionType(rawValue: byte())))
        case 1: return .command(.setAppConfig(session: session, configs: (0..<Int.random(in: 0...60, using: &self)).map { _ in appConfig() }))
        case 2: return .command(.getAppConfig(session: session, ids: bytes(0...30).map(UCIAppConfigID.init(rawValue:))))
        case 3:
            let action = pick([UCIMulticastAction.add, .remove, .addWithShortSubSessionKey, .addWithLongSubSessionKey])
            return .command(
                .updateMulticastList(
                    session: session, action: action,
                    controlees: (0..<Int.random(in: 0...8, using: &self)).map { _ in
                        UCIControlee(shortAddress: u16(), subSessionID: u32(), subSessionKey: (0..<action.subSessionKeyLength).map { _ in byte() })
                    }))
        case 4: return .response(.sessionInit(UCIStatus(rawValue: byte()), sessionHandle: Bool.random(using: &self) ? u32() : nil))
        case 5: return .response(.getAppConfig(.ok, (0..<Int.random(in: 0...40, using: &self)).map { _ in appConfig() }))
        case 6: return .response(.getCapabilities(.ok, (0..<Int.random(in: 0...20, using: &self)).map { _ in UCICapability(id: byte(), value: bytes(0...8)) }))
        case 7: return .notification(.sessionStatus(session: session, state: UCISessionState(rawValue: byte()), reason: UCIReasonCode(rawValue: byte())))
        case 8, 9:
            let extended = Bool.random(using: &self)
            return .notification(
                .sessionInfo(
                    UCISessionInfo(
                        sequenceNumber: u32(), session: session, rcrIndicator: byte(), currentRangingInterval: u32(),
                        usesExtendedAddresses: extended, hybridPrimarySession: u32(),
                        measurements: .twoWay((0..<Int.random(in: 0...12, using: &self)).map { _ in measurement(extended: extended) }),
                        vendorData: bytes(0...10))))
        case 10:
            return .notification(
                .multicastListUpdate(
                    UCIMulticastListUpdate(
                        session: session, controlees: (0..<Int.random(in: 0...6, using: &self)).map { _ in
                            UCIControleeStatus(shortAddress: u16(), status: UCIMulticastUpdateStatus(rawValue: byte()))
                        })))
        case 11: return .notification(.vendor(UCIOpcode(gid: UCIGroupID(rawValue: pick([0x9, 0xA, 0xB, 0xE, 0xF])), oid: byte()), payload: bytes(0...600)))
        case 12: return .data(.send(UCIDataSend(session: session, destination: next(), sequenceNumber: u16(), data: bytes(0...2000))))
        case 13: return .data(.receive(UCIDataReceive(session: session, status: UCIDataReceiveStatus(rawValue: byte()), source: next(), sequenceNumber: u16(), data: bytes(0...2000))))
        case 14: return .response(.getDeviceInfo(.ok, UCIDeviceInfo(uciVersion: UCIVersion(rawValue: u16()), macVersion: UCIVersion(rawValue: u16()), phyVersion: UCIVersion(rawValue: u16()), testVersion: UCIVersion(rawValue: u16()), vendorInfo: bytes(0...40))))
        default: return .notification(.dataTransferStatus(UCIDataTransferStatus(session: session, sequenceNumber: u16(), status: UCIDataTransferStatusCode(rawValue: byte()), transmitCount: byte())))
        }
    }
}

@Suite("UCI properties")
struct PropertyTests {
    @Test("random messages round-trip through random segment sizes, byte-exact", arguments: [1, 2, 3, 4])
    func randomRoundTrip(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        var reassembler = UCIReassembler()
        for index in 0..<500 {
            if index % 25 == 0 { await Task.yield() }  // leave the 2-core test pool to others
            let message = random.message()
            let segmenter = UCISegmenter(
                maxControlPayloadSize: Int.random(in: 1...255, using: &random), maxDataPayloadSize: Int.random(in: 1...1024, using: &random))
            let packets = try message.packets(segmenter)
            var decoded: [UCIMessage] = []
            for packet in packets {
                if let raw = try reassembler.append(packetBytes: packet.bytes) { decoded.append(try UCIMessage(decoding: raw)) }
            }
            #expect(decoded == [message], "\(message.name)")
            #expect(try decoded.first?.packets(segmenter) == packets)
        }
    }

    @Test("random and mutated bytes never crash the decoders: they decode or throw UCIError")
    func fuzz() async throws {
        var random = SeededGenerator(seed: 0xF00D)
        var valid: [[UInt8]] = []
        for _ in 0..<200 { valid += try random.message().packets().map(\.bytes) }
        var decodedCount = 0, errorCount = 0
        var reassembler = UCIReassembler()
        for round in 0..<20_000 {
            if round % 200 == 0 { await Task.yield() }  // leave the 2-core test pool to others
            var packet: [UInt8]
            if round % 2 == 0 {
                packet = random.bytes(0...40)
                if packet.count >= 4, round % 4 == 0 { packet[3] = UInt8(packet.count - 4) }  // consistent length
            } else {
                packet = random.pick(valid)
                for _ in 0..<Int.random(in: 1...3, using: &random) where !packet.isEmpty {
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: packet[Int.random(in: 0..<packet.count, using: &random)] = random.byte()
                    case 1: packet.removeLast(Int.random(in: 0...packet.count, using: &random))
                    default: packet.append(random.byte())
                    }
                }
            }
            do {
                if let raw = try reassembler.append(packetBytes: packet) {
                    _ = try UCIMessage(decoding: raw, version: Bool.random(using: &random) ? .v1_1 : .v2_0)
                    if raw.opcode == .sessionInfo, raw.messageType == .notification {
                        let view = try UCISessionInfoView(payload: raw.payload)
                        view.forEachMeasurement { _ in }
                    }
                }
                decodedCount += 1
            } catch {
                #expect(!error.description.isEmpty)
                errorCount += 1
            }
        }
        #expect(decodedCount > 1000)
        #expect(errorCount > 1000)
    }
}
