import Foundation
import Simulation
import Synchronization
import Testing
import UCI

/// `nearby sim uwbs` as library calls: settings from text, the event log, the service.
@Suite struct ServiceTests {
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        @Sendable func add(_ line: String) { lines.withLock { $0.append(line) } }
    }

    @Test func listenAddressesAndNoiseNames() {
        #expect(VirtualUWBSServer.listenAddress(parsing: "127.0.0.1:7000")! == ("127.0.0.1", 7000))
        #expect(VirtualUWBSServer.listenAddress(parsing: "[::1]:0")! == ("::1", 0))
        for bad in ["7000", "::1:7000", ":7000", "host:", "host:70000", "[::1]7000"] {
            #expect(VirtualUWBSServer.listenAddress(parsing: bad) == nil, "\(bad)")
        }
        #expect(NoiseModel(named: "LOS") == .lineOfSight && NoiseModel(named: "ideal") == .ideal && NoiseModel(named: "loud") == nil)
    }

    func settings(
        listen: String = "127.0.0.1:0", scenario: String = "stand", noise: String = "default", uciVersion: String = "2.0",
        channels: String = "5,9", peers: [String] = [], speed: Double = 1, delay: Int = 0, sessions: Int = 5
    ) throws(VirtualUWBSSettingsError) -> VirtualUWBSService.Settings {
        try VirtualUWBSService.Settings(
            listen: listen, scenario: scenario, noise: noise, seed: 1, uciVersion: uciVersion, maximumSessions: sessions, channels: channels,
            peers: peers, automaticPeers: false, speed: speed, responseDelayMilliseconds: delay, packetPayload: 255, requiresReset: true,
            tracing: false, verbose: false)
    }

    @Test func settingsFromTextNameTheWrongSetting() throws {
        let good = try settings(uciVersion: "1.1", channels: " 5, 9 ,12")
        #expect(good.host == "127.0.0.1" && good.port == 0 && good.device.uciVersion == .v1_1 && good.device.supportedChannels == [5, 9, 12])
        func message(_ make: () throws(VirtualUWBSSettingsError) -> VirtualUWBSService.Settings) -> String {
            do {
                _ = try make()
                return ""
            } catch {
                return error.description
            }
        }
        #expect(message { () throws(VirtualUWBSSettingsError) in try settings(listen: "7000") }
            == "listen \"7000\" is not HOST:PORT (e.g. 127.0.0.1:7000, [::1]:7000; port 0 lets the system pick)")
        #expect(message { () throws(VirtualUWBSSettingsError) in try settings(scenario: "dance") }.hasPrefix("scenario: "))
        #expect(message { () throws(VirtualUWBSSettingsError) in try settings(noise: "loud") } == "noise \"loud\" is not default, line-of-sight or ideal")
        #expect(message { () throws(VirtualUWBSSettingsError) in try settings(uciVersion: "3") } == "uci-version \"3\" is not 1.1 or 2.0")
        #expect(message { () throws(VirtualUWBSSettingsError) in try settings(channels: "5,x") }
            == "channels \"5,x\" is not a comma-separated list of channel numbers, e.g. 5,9")
        #expect(message { () throws(VirtualUWBSSettingsError) in try settings(delay: 60_001) } == "response-delay-ms 60001 is out of range, expected 0 ... 60000")
        #expect(message { () throws(VirtualUWBSSettingsError) in try settings(speed: 0) } == "speed 0.0 is out of range, expected 0.01 ... 1000")
        #expect(message { () throws(VirtualUWBSSettingsError) in try settings(peers: ["session=1"]) }.hasPrefix("peer: "))
        do {
            _ = try settings(sessions: 0)
            Issue.record("0 sessions accepted")
        } catch {
            #expect(error.setting == nil)
        }
    }

    @Test func theLogThrottlesRangingLinesPerPeerUnlessVerbose() {
        let lines = Lines()
        let log = VirtualUWBSEventLog(verbose: false, write: lines.add)
        let device = VirtualUWBSDeviceID(rawValue: 1)
        log.log(.deviceAttached(device, name: "tcp 127.0.0.1:5555", isPeer: false))
        log.log(.deviceState(device, .ready))
        func round(_ time: Double, _ distance: Double?) -> VirtualUWBSEvent {
            let measurement = distance.map {
                SimulatedMeasurement(
                    time: time, truth: RelativeGeometry(distance: 2, azimuth: 0, elevation: 0), isNonLineOfSightTruth: false, isOutlier: false,
                    status: 0, distance: $0, azimuth: -0.001, elevation: nil, azimuthFigureOfMerit: nil, elevationFigureOfMerit: nil,
                    reportedNonLineOfSight: true, rssi: nil)
            }
            return .round(VirtualRangingRound(
                device: device, sessionID: 42, peerAddress: .short(2), peerDevice: nil, worldTime: time, sceneTime: time, measurement: measurement))
        }
        log.log(round(0, 2.004))
        log.log(round(1, 2.1))  // within 5 s, same validity: not printed
        log.log(round(2, nil))  // validity changed: printed
        log.log(round(6, 2))
        #expect(lines.all == [
            "device 1 attached: tcp 127.0.0.1:5555",
            "device 1: session 42 -> 0x0002: 2.00 m, azimuth 0.00°, NLoS (truth 2.00 m, 0.00°)",
            "device 1: session 42 -> 0x0002: RX timeout (no device answers)",
            "device 1: session 42 -> 0x0002: 2.00 m, azimuth 0.00°, NLoS (truth 2.00 m, 0.00°)",
        ])
        let verbose = Lines()
        let chatty = VirtualUWBSEventLog(verbose: true, write: verbose.add)
        chatty.log(.deviceState(device, .ready))
        chatty.log(round(0, 2))
        chatty.log(round(0.2, 2))
        #expect(verbose.all.count == 3)
    }

    @Test func theServiceAddsPeersListensAndStops() async throws {
        let lines = Lines()
        let service = try await VirtualUWBSService.start(
            try settings(peers: ["session=1,mac=0x0002,peer=0x0001"]), log: lines.add)
        #expect(service.address.hasPrefix("127.0.0.1:") && service.server.port != 0)
        await service.failConnectedDevices()
        await service.dropConnections()
        await service.stop()
        #expect(lines.all.contains { $0.contains(": built-in peer, ") })
        #expect(lines.all.contains { $0.contains("attached") })
    }

    @Test func aPortInUseIsReportedAndNothingKeepsRunning() async throws {
        let first = try await VirtualUWBSService.start(try settings(), log: { _ in })
        await #expect(throws: VirtualUWBSError.self) {
            _ = try await VirtualUWBSService.start(try settings(listen: first.address), log: { _ in })
        }
        await first.stop()
    }
}
