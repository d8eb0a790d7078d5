import Ranging
import Testing
import UCI

@Suite("UCI SESSION_INFO_NTF")
struct SessionInfoTests {
    static func measurement(_ address: UCIMACAddress, distance: UInt16, status: UCIStatus = .ok) -> UCITwoWayMeasurement {
        UCITwoWayMeasurement(
            macAddress: address, status: status, nlos: 1, distance: distance,
            azimuth: UCIAngle(degrees: 45.25), azimuthFigureOfMerit: 90, elevation: UCIAngle(degrees: -12.5), elevationFigureOfMerit: 80,
            destinationAzimuth: UCIAngle(degrees: 3), destinationAzimuthFigureOfMerit: 70,
            destinationElevation: UCIAngle(degrees: -4), destinationElevationFigureOfMerit: 60, slotIndex: 3, rssi: 0x81)
    }

    @Test("extended addresses: 8-byte MAC, 5 reserved bytes, 31 bytes per measurement")
    func extendedAddresses() throws {
        let info = UCISessionInfo(
            sequenceNumber: 1, session: 2, currentRangingInterval: 100,
            measurements: .twoWay([Self.measurement(.extended(0x0807_0605_0403_0201), distance: 250)]))
        #expect(info.usesExtendedAddresses)
        let payload = try info.encodePayload()
        #expect(payload.count == 25 + 31)
        #expect(payload[15] == 1)
        #expect(Array(payload[25..<33]) == bytes("01 02 03 04 05 06 07 08"))
        #expect(Array(payload[33..<51]) == bytes("00 01 fa 00 a0 16 5a c0 f9 50 80 01 46 00 fe 3c 03 81"))
        #expect(Array(payload[51...]) == [0, 0, 0, 0, 0])
        let view = try UCISessionInfoView(payload: payload)
        #expect(view.usesExtendedAddresses)
        #expect(view.measurements.first?.macAddress == .extended(0x0807_0605_0403_0201))
        #expect(UCISessionInfo(view) == info)
        #expect(try UCISessionInfo(payload: payload[...]) == info)
    }

    @Test("status 0x1B gives a negative distance; a failed round keeps only its status")
    func negativeDistanceAndFailures() throws {
        let negative = Self.measurement(.short(0x0A0B), distance: 12, status: .okNegativeDistance)
        #expect(negative.distanceInMeters == -0.12)
        let sample = negative.rangeSample(timestamp: 3)
        #expect(sample.distance == -0.12)
        #expect(sample.isValid)
        #expect(sample.status == 0x1B)
        #expect(sample.azimuth == 45.25)
        #expect(sample.elevation == -12.5)
        #expect(sample.figureOfMerit == 90)
        #expect(sample.isNonLineOfSight == true)
        #expect(sample.rssi == -64.5)

        let timeout = Self.measurement(.short(0x0A0B), distance: 0, status: .rangingRXTimeout)
        #expect(timeout.rangeSample(timestamp: 4) == RangeSample(timestamp: 4, status: 0x21))

        let noAngles = negative.rangeSample(timestamp: 5, includeAzimuth: false, includeElevation: false)
        #expect(noAngles.azimuth == nil && noAngles.elevation == nil && noAngles.figureOfMerit == nil)
        let elevationOnly = negative.rangeSample(timestamp: 5, includeAzimuth: false)
        #expect(elevationOnly.figureOfMerit == 80)

        var unknown = negative
        unknown.nlos = 0xFF
        unknown.rssi = 0
        #expect(unknown.rangeSample(timestamp: 0).isNonLineOfSight == nil)
        #expect(unknown.rangeSample(timestamp: 0).rssi == nil)
    }

    @Test("eight measurements (a segmented notification) decode in order with vendor data after them")
    func eightMeasurements() throws {
        var list: [UCITwoWayMeasurement] = []
        for index in 1...8 {
            let address = UCIMACAddress.short(UInt16(index))
            list.append(Self.measurement(address, distance: UInt16(100 * index)))
        }
        let info = UCISessionInfo(
            sequenceNumber: 99, session: 0xA0B0_C0D0, currentRangingInterval: 50, hybridPrimarySession: 0x1234,
            measurements: .twoWay(list), vendorData: [0xDE, 0xAD])
        let packets = try UCINotification.sessionInfo(info).packets()
        #expect(packets.count == 2)
        var reassembler = UCIReassembler()
        _ = try reassembler.append(packets[0])
        let completed = try reassembler.append(packets[1])
        let raw = try #require(completed)
        let view = try UCISessionInfoView(payload: raw.payload)
        #expect(view.measurementCount == 8)
        let distances: [UInt16] = view.measurements.map { $0.distance }
        #expect(distances == [100, 200, 300, 400, 500, 600, 700, 800])
        #expect(Array(view.vendorData) == [0xDE, 0xAD])
        #expect(view.hybridPrimarySession == 0x1234)
        var peers: [UCIMACAddress] = []
        view.forEachSample(timestamp: 1) { peers.append($0.peer) }
        #expect(peers == (1...8).map { .short(UInt16($0)) })
        #expect(try UCIMessage(decoding: raw) == .notification(.sessionInfo(info)))
    }

    @Test("a truncated notification or a wrong N is a typed error, never a crash")
    func truncated() throws {
        let good = try UCISessionInfo(
            sequenceNumber: 1, session: 1, currentRangingInterval: 200,
            measurements: .twoWay([Self.measurement(.short(1), distance: 1), Self.measurement(.short(2), distance: 2)])
        ).encodePayload()
        for length in [0, 10, 24] {
            do {
                _ = try UCISessionInfoView(payload: Array(good.prefix(length)))
                Issue.record("\(length) bytes decoded")
            } catch {
                #expect(error.code == .truncated)
                #expect(error.description == "SESSION_INFO_NTF: payload of \(length) bytes, shorter than the 25-byte header")
            }
        }
        do {
            _ = try UCISessionInfoView(payload: Array(good.dropLast(1)))
            Issue.record("a truncated measurement decoded")
        } catch {
            #expect(
                error.description == "SESSION_INFO_NTF: field \"measurements\": N = 2 measurements of 31 bytes need 62 bytes after "
                    + "the 25-byte header, but only 61 are left (the notification is truncated or N is wrong)")
        }
        var wrongN = good
        wrongN[24] = 200
        #expect(throws: UCIError.self) { try UCINotification(opcode: .sessionInfo, payload: wrongN) }
        var badIndicator = good
        badIndicator[15] = 7
        #expect(throws: UCIError.self) { try UCISessionInfoView(payload: badIndicator) }
        // Every prefix of a valid notification fails cleanly.
        for length in 0..<good.count {
            #expect(throws: UCIError.self) { try UCINotification(opcode: .sessionInfo, payload: Array(good.prefix(length))) }
        }
    }

    @Test("a packet that is not a whole SESSION_INFO_NTF is refused by the view")
    func viewOfOtherPacket() throws {
        #expect(throws: UCIError.self) { try UCISessionInfoView(packet: UCIPacket(bytes: bytes("61 02 00 06 01 00 00 00 03 00"))) }
        #expect(throws: UCIError.self) { try UCISessionInfoView(packet: UCIPacket(bytes: bytes("72 00 00 01 00"))) }
        // A segment of a SESSION_INFO_NTF (PBF set) needs reassembling first.
        let segment = WireVectorTests.sessionInfoPacket
        #expect(throws: UCIError.self) { try UCISessionInfoView(packet: UCIPacket(bytes: [segment[0] | 0x10] + segment.dropFirst())) }
        // A truncated packet never becomes a packet.
        #expect(throws: UCIError.self) { try UCISessionInfoView(packet: UCIPacket(bytes: segment.dropLast(1).map { $0 })) }
    }

    @Test("UL-TDoA keeps N and its bytes raw; OWR-AoA is typed")
    func otherMeasurementTypes() throws {
        // Header with measurement type 0 (one-way, UL-TDoA), short addresses, N = 1, then bytes.
        let ul = bytes("07 00 00 00 01 00 00 00 00 c8 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01")
            + bytes("aa bb 00 00 01 01 00 03 04 60 05 06 50")
        let raw = try UCINotification(opcode: .sessionInfo, payload: ul)
        guard case .sessionInfo(let rawInfo) = raw, case .raw(let count, let rest) = rawInfo.measurements else {
            Issue.record("\(raw)")
            return
        }
        #expect(rawInfo.measurementType == .oneWay && count == 1)
        #expect(rest == bytes("aa bb 00 00 01 01 00 03 04 60 05 06 50"))
        #expect(try raw.encodePayload() == ul)
        // The same measurement bytes as OWR-AoA (measurement type 3, AOSP's test vector): typed.
        var owr = ul
        owr[13] = 0x03
        let notification = try UCINotification(opcode: .sessionInfo, payload: owr)
        guard case .sessionInfo(let info) = notification, case .owrAoA(let list) = info.measurements else {
            Issue.record("\(notification)")
            return
        }
        #expect(info.measurementType == .owrAoA && list.count == 1 && list[0].macAddress == .short(0xBBAA))
        #expect(try notification.encodePayload() == owr)
        do {
            _ = try UCISessionInfoView(payload: owr)
            Issue.record("the TWR view accepted OWR-AoA")
        } catch {
            #expect(error.code == .unexpectedMessage)
        }
    }

    @Test("a measurement's address must match the announced address size")
    func mixedAddresses() throws {
        let info = UCISessionInfo(
            sequenceNumber: 1, session: 1, currentRangingInterval: 1, usesExtendedAddresses: false,
            measurements: .twoWay([Self.measurement(.extended(1), distance: 1)]))
        #expect(throws: UCIError.self) { try info.encodePayload() }
    }
}
