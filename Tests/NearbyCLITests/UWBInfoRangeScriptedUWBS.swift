import NearbyTestSupport
import Synchronization

/// A UWB subsystem scripted in wire bytes (UCI 1.1, pica's flow, written without the codec so
/// the CLI is checked against independent vectors): reset, device info, capabilities, session
/// init / app config / start / stop / deinit with their SESSION_STATUS_NTFs, and on START
/// `samples.count` SESSION_INFO_NTFs. Served by a `ScriptedUCIServer`.
final class ScriptedUWBS: Sendable {
    /// One measurement of a SESSION_INFO_NTF: distance in cm, angles in Q9.7 degrees.
    struct Sample: Sendable {
        var centimeters: UInt16
        var azimuth: Int16
        var elevation: Int16
        var status: UInt8 = 0x00
    }

    /// The SESSION_INFO_NTFs sent after SESSION_START.
    let samples: [Sample]
    /// The SET_APP_CONFIG response (default: OK).
    let appConfigResponse: [UInt8]
    private let sequence = Mutex<UInt32>(0)

    init(samples: [Sample] = ScriptedUWBS.threeSamples, appConfigResponse: [UInt8] = [0x41, 0x03, 0x00, 0x02, 0x00, 0x00]) {
        self.samples = samples
        self.appConfigResponse = appConfigResponse
    }

    /// 1.50 m @ -30°/+10.5°, 1.52 m @ -29.5°/+10°, then an RX timeout.
    static let threeSamples = [
        Sample(centimeters: 150, azimuth: -30 * 128, elevation: 1344),
        Sample(centimeters: 152, azimuth: -3776, elevation: 1280),
        Sample(centimeters: 0, azimuth: 0, elevation: 0, status: 0x21),
    ]

    static let reset: [UInt8] = [0x20, 0x00, 0x00, 0x01, 0x00]
    static let getDeviceInfo: [UInt8] = [0x20, 0x02, 0x00, 0x00]
    static let getCaps: [UInt8] = [0x20, 0x03, 0x00, 0x00]
    /// UCI 1.1, MAC 1.3, PHY 1.3, test 1.1, vendor bytes 51 6f.
    static let deviceInfo: [UInt8] = [0x40, 0x02, 0x00, 0x0C, 0x00, 0x01, 0x10, 0x01, 0x30, 0x01, 0x30, 0x01, 0x10, 0x02, 0x51, 0x6F]
    /// Channels 5 and 9 (1.1 type 0x0B), device roles responder + initiator (type 0x02).
    static let capabilities: [UInt8] = [0x40, 0x03, 0x00, 0x08, 0x00, 0x02, 0x0B, 0x01, 0x09, 0x02, 0x01, 0x03]

    /// The responder for a `ScriptedUCIServer`.
    var responder: ScriptedUCIServer.Responder {
        { [self] packet in respond(to: packet) }
    }

    private func status(_ session: [UInt8], _ state: UInt8) -> [UInt8] {
        [0x61, 0x02, 0x00, 0x06] + session + [state, 0x00]
    }

    func respond(to packet: [UInt8]) -> [[UInt8]] {
        let session = packet.count >= 8 ? Array(packet[4..<8]) : []
        switch Array(packet.prefix(2)) {
        case [0x20, 0x00]: return [[0x40, 0x00, 0x00, 0x01, 0x00], [0x60, 0x01, 0x00, 0x01, 0x01]]
        case [0x20, 0x02]: return [Self.deviceInfo]
        case [0x20, 0x03]: return [Self.capabilities]
        case [0x21, 0x00]: return [[0x41, 0x00, 0x00, 0x01, 0x00], status(session, 0x00)]
        case [0x21, 0x03]:
            return appConfigResponse == [0x41, 0x03, 0x00, 0x02, 0x00, 0x00] ? [appConfigResponse, status(session, 0x03)] : [appConfigResponse]
        case [0x22, 0x00]:
            return [[0x42, 0x00, 0x00, 0x01, 0x00], status(session, 0x02), [0x60, 0x01, 0x00, 0x01, 0x02]]
                + samples.map { rangeData(session, $0) }
        case [0x22, 0x01]: return [[0x42, 0x01, 0x00, 0x01, 0x00], status(session, 0x03), [0x60, 0x01, 0x00, 0x01, 0x01]]
        case [0x21, 0x01]: return [[0x41, 0x01, 0x00, 0x01, 0x00], status(session, 0x01)]
        default: return []
        }
    }

    /// SESSION_INFO_NTF (56-byte payload): one short-address measurement from peer 0x0002.
    private func rangeData(_ session: [UInt8], _ sample: Sample) -> [UInt8] {
        let seq = sequence.withLock { value -> UInt32 in
            value += 1
            return value
        }
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var payload = le32(seq) + session + [0x00] + le32(100) + [0x01, 0x00, 0x00] + Array(repeating: 0, count: 8) + [0x01]
        payload += [0x02, 0x00, sample.status, 0x00] + le16(sample.centimeters)
        payload += le16(UInt16(bitPattern: sample.azimuth)) + [100] + le16(UInt16(bitPattern: sample.elevation)) + [100]
        payload += [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x90] + Array(repeating: 0, count: 11)
        return [0x62, 0x00, 0x00, UInt8(payload.count)] + payload
    }
}
