import Ranging
import Testing
import UCI

/// The verified wire examples of the UCI reference (§5), encoded and decoded byte-exact.
@Suite("UCI wire vectors")
struct WireVectorTests {
    /// The full SESSION_INFO_NTF of the reference: seq 7, session 0x01020304, 200 ms, MAC 0x0201,
    /// 150 cm, azimuth −30.0°, elevation +10.5°, FoM 100, slot 1, RSSI 0x90 (−72 dBm).
    static let sessionInfoPacket = bytes(
        "62 00 00 38 | 07 00 00 00 | 04 03 02 01 | 00 | c8 00 00 00 | 01 | 00 | 00 | 00 00 00 00 00 00 00 00 | 01 |"
            + "01 02 | 00 | 00 | 96 00 | 00 f1 | 64 | 40 05 | 64 | 00 00 | 00 | 00 00 | 00 | 01 | 90 |"
            + "00 00 00 00 00 00 00 00 00 00 00")

    static let sessionInfo = UCISessionInfo(
        sequenceNumber: 7, session: 0x0102_0304, currentRangingInterval: 200,
        measurements: .twoWay([
            UCITwoWayMeasurement(
                macAddress: .short(0x0201), status: .ok, nlos: 0, distance: 150,
                azimuth: UCIAngle(degrees: -30), azimuthFigureOfMerit: 100,
                elevation: UCIAngle(degrees: 10.5), elevationFigureOfMerit: 100,
                slotIndex: 1, rssi: 0x90)
        ]))

    static let vectors: [(name: String, message: UCIMessage, wire: String)] = [
        ("CORE_DEVICE_RESET_CMD", .command(.deviceReset()), "20 00 00 01 00"),
        ("SESSION_INIT_CMD", .command(.sessionInit(sessionID: 0x0102_0304, type: .ranging)), "21 00 00 05 04 03 02 01 00"),
        (
            "SESSION_SET_APP_CONFIG_CMD",
            .command(.setAppConfig(session: 1, configs: [.rangingDuration(milliseconds: 200), .deviceMACAddress(.short(0x0001))])),
            "21 03 00 0f 01 00 00 00 02 09 04 c8 00 00 00 06 02 01 00"
        ),
        ("SESSION_START_CMD", .command(.sessionStart(session: 1)), "22 00 00 04 01 00 00 00"),
        (
            "SESSION_STATUS_NTF", .notification(.sessionStatus(session: 1, state: .idle, reason: .stateChangeWithSessionManagementCommands)),
            "61 02 00 06 01 00 00 00 03 00"
        ),
    ]

    @Test("every reference vector encodes to its wire bytes", arguments: 0..<5)
    func encodes(index: Int) throws {
        let vector = Self.vectors[index]
        let packets = try vector.message.packets()
        #expect(packets.count == 1)
        #expect(hex(packets[0].bytes) == hex(bytes(vector.wire)), "\(vector.name)")
        #expect(vector.message.name == vector.name)
    }

    @Test("every reference vector decodes to its typed message", arguments: 0..<5)
    func decodes(index: Int) throws {
        let vector = Self.vectors[index]
        let message = try UCIMessage(packet: bytes(vector.wire))
        #expect(message == vector.message)
    }

    @Test("the reference SESSION_INFO_NTF encodes byte-exact")
    func sessionInfoEncodes() throws {
        let packets = try UCINotification.sessionInfo(Self.sessionInfo).packets()
        #expect(packets.count == 1)
        #expect(packets[0].bytes == Self.sessionInfoPacket)
        #expect(Self.sessionInfoPacket.count == 4 + 0x38)
    }

    @Test("the reference SESSION_INFO_NTF decodes to its values")
    func sessionInfoDecodes() throws {
        let message = try UCIMessage(packet: Self.sessionInfoPacket)
        guard case .notification(.sessionInfo(let info)) = message else {
            Issue.record("decoded as \(message)")
            return
        }
        #expect(info == Self.sessionInfo)
        #expect(info.sequenceNumber == 7)
        #expect(info.session == 0x0102_0304)
        #expect(info.currentRangingInterval == 200)
        #expect(info.measurementType == .twoWay)
        #expect(!info.usesExtendedAddresses)
        guard case .twoWay(let list) = info.measurements, let m = list.first, list.count == 1 else {
            Issue.record("measurements: \(info.measurements)")
            return
        }
        #expect(m.macAddress == .short(0x0201))
        #expect(m.status == .ok)
        #expect(m.distance == 150)
        #expect(m.distanceInMeters == 1.5)
        #expect(m.azimuth.degrees == -30.0)
        #expect(m.azimuth.rawValue == -3840)
        #expect(m.elevation.degrees == 10.5)
        #expect(m.azimuthFigureOfMerit == 100)
        #expect(m.elevationFigureOfMerit == 100)
        #expect(m.slotIndex == 1)
        #expect(m.rssi == 0x90)
        #expect(m.rssiInDBm == -72)
        #expect(m.isNonLineOfSight == false)
    }

    @Test("the reference SESSION_INFO_NTF through the allocation-free view gives the same RangeSample")
    func sessionInfoView() throws {
        let view = try UCISessionInfoView(packet: UCIPacket(bytes: Self.sessionInfoPacket))
        #expect(view.sequenceNumber == 7)
        #expect(view.session == 0x0102_0304)
        #expect(view.currentRangingInterval == 200)
        #expect(view.measurementCount == 1)
        #expect(view.vendorData.isEmpty)
        var samples: [UCIPeerRangeSample] = []
        view.forEachSample(timestamp: 12.5) { samples.append($0) }
        #expect(
            samples == [
                UCIPeerRangeSample(
                    session: 0x0102_0304, peer: .short(0x0201),
                    sample: RangeSample(
                        timestamp: 12.5, distance: 1.5, azimuth: -30, elevation: 10.5, figureOfMerit: 100,
                        isNonLineOfSight: false, rssi: -72, status: 0))
            ])
        #expect(Array(view.measurements) == [try #require(Self.sessionInfo.twoWayMeasurements.first)])
    }
}

extension UCISessionInfo {
    var twoWayMeasurements: [UCITwoWayMeasurement] {
        if case .twoWay(let list) = measurements { return list }
        return []
    }
}
