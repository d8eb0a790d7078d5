import NearbyBase
import UCI

/// Seed inputs for the UCI targets: the wire vectors of the UCI tests (FiRa UCI reference
/// examples) and one message of each kind the client handles, encoded by the codec.
public enum UCISeeds {
    /// Wire vectors (hex), as in Tests/UCITests/WireVectorTests.swift.
    static let wireVectors = [
        "20 00 00 01 00",  // CORE_DEVICE_RESET_CMD
        "21 00 00 05 04 03 02 01 00",  // SESSION_INIT_CMD
        "21 03 00 0f 01 00 00 00 02 09 04 c8 00 00 00 06 02 01 00",  // SESSION_SET_APP_CONFIG_CMD
        "22 00 00 04 01 00 00 00",  // SESSION_START_CMD
        "61 02 00 06 01 00 00 00 03 00",  // SESSION_STATUS_NTF
        // SESSION_INFO_NTF: seq 7, session 0x01020304, 200 ms, MAC 0x0201, 150 cm, -30.0°, +10.5°.
        "62 00 00 38 07 00 00 00 04 03 02 01 00 c8 00 00 00 01 00 00 00 00 00 00 00 00 00 00 01"
            + " 01 02 00 00 96 00 00 f1 64 40 05 64 00 00 00 00 00 00 01 90 00 00 00 00 00 00 00 00 00 00 00",
        "60 01 00 01 01",  // CORE_DEVICE_STATUS_NTF(READY)
        "60 01 00 01 ff",  // CORE_DEVICE_STATUS_NTF(ERROR)
    ]

    /// Messages of every kind the host receives, encoded by the codec.
    static var messages: [UCIMessage] {
        let measurement = UCITwoWayMeasurement(
            macAddress: .extended(0x1122_3344_5566_7788), status: .ok, nlos: 1, distance: 250,
            azimuth: UCIAngle(degrees: 12.5), azimuthFigureOfMerit: 90, elevation: UCIAngle(degrees: -4),
            elevationFigureOfMerit: 80, slotIndex: 2, rssi: 0xA0)
        return [
            .response(.getDeviceInfo(.ok, UCIDeviceInfo(uciVersion: .v2_0, macVersion: .v2_0, phyVersion: .v2_0, testVersion: .v1_1, vendorInfo: [1, 2, 3]))),
            .response(.getCapabilities(.ok, [UCICapability(id: 0x00, value: [0x01]), UCICapability(id: 0xE3, value: [0x05, 0x06])])),
            .response(.sessionInit(.ok, sessionHandle: 0x0A0B_0C0D)),
            .response(.getAppConfig(.ok, [.rangingDuration(milliseconds: 100), .channelNumber(9), .staticSTSIV([1, 2, 3, 4, 5, 6])])),
            .notification(.sessionStatus(session: 7, state: .active, reason: .stateChangeWithSessionManagementCommands)),
            .notification(
                .sessionInfo(
                    UCISessionInfo(
                        sequenceNumber: 9, session: 7, currentRangingInterval: 10, usesExtendedAddresses: true,
                        measurements: .twoWay([measurement, measurement]), vendorData: [0xAA]))),
            .notification(.multicastListUpdate(UCIMulticastListUpdate(session: 7, controlees: [UCIControleeStatus(shortAddress: 2, status: .ok)]))),
            .notification(.dataTransferStatus(UCIDataTransferStatus(session: 7, sequenceNumber: 1, status: .ok, transmitCount: 1))),
            .data(.receive(UCIDataReceive(session: 7, status: UCIDataReceiveStatus(rawValue: 0), source: 0x0201, sequenceNumber: 3, data: [1, 2, 3, 4]))),
        ]
    }

    /// Whole packets, each a seed of its own.
    public static var packets: [[UInt8]] {
        var result = wireVectors.map { (try? Hex.parse($0)) ?? [] }
        for message in messages {
            result += ((try? message.packets()) ?? []).map(\.bytes)
        }
        // A message in segments (control payload 8 bytes per packet).
        result.append(((try? messages[3].packets(UCISegmenter(maxControlPayloadSize: 8))) ?? []).flatMap(\.bytes))
        return result
    }

    /// A stream of every packet, in one seed.
    public static var stream: [UInt8] { packets.flatMap { $0 } }
}
