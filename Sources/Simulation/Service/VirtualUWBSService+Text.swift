import Foundation
import UCI

extension VirtualUWBSService.Settings {
    /// Settings from text, as `nearby sim uwbs` takes them: `listen` is `HOST:PORT` or
    /// `[IPv6]:PORT`; `scenario` a name of ``Scenario/names``; `noise` `default`,
    /// `line-of-sight` or `ideal`; `uciVersion` `1.1` or `2.0`; `channels` comma-separated
    /// channel numbers; `peers` in ``VirtualPeer/syntax``. Checked in that order, then the
    /// response delay (0 ... 60000 ms), the speed (0.01 ... 1000) and the device configuration.
    /// - Throws: ``VirtualUWBSSettingsError`` naming the first setting that is wrong.
    public init(
        listen: String, scenario: String, noise: String, seed: UInt64, uciVersion: String, maximumSessions: Int, channels: String,
        peers: [String], automaticPeers: Bool, speed: Double, responseDelayMilliseconds: Int, packetPayload: Int, requiresReset: Bool,
        tracing: Bool, verbose: Bool
    ) throws(VirtualUWBSSettingsError) {
        typealias Failure = VirtualUWBSSettingsError
        guard let (host, port) = VirtualUWBSServer.listenAddress(parsing: listen) else {
            throw Failure("listen", "\"\(listen)\" is not HOST:PORT (e.g. 127.0.0.1:7000, [::1]:7000; port 0 lets the system pick)")
        }
        let namedScenario: Scenario
        do {
            namedScenario = try Scenario.named(scenario)
        } catch {
            throw Failure("scenario", "\(error)", colon: true)
        }
        guard let noiseModel = NoiseModel(named: noise) else { throw Failure("noise", "\"\(noise)\" is not default, line-of-sight or ideal") }
        let version: UCIVersion
        switch uciVersion {
        case "1.1": version = .v1_1
        case "2.0", "2": version = .v2_0
        default: throw Failure("uci-version", "\"\(uciVersion)\" is not 1.1 or 2.0")
        }
        let channelList = channels.split(separator: ",").map { UInt8($0.trimmingCharacters(in: .whitespaces)) }
        guard !channelList.isEmpty, channelList.allSatisfy({ $0 != nil }) else {
            throw Failure("channels", "\"\(channels)\" is not a comma-separated list of channel numbers, e.g. 5,9")
        }
        guard (0...60_000).contains(responseDelayMilliseconds) else {
            throw Failure("response-delay-ms", "\(responseDelayMilliseconds) is out of range, expected 0 ... 60000")
        }
        guard (0.01...1000).contains(speed) else { throw Failure("speed", "\(speed) is out of range, expected 0.01 ... 1000") }
        let device = VirtualUWBSConfiguration(
            uciVersion: version, maximumSessions: maximumSessions, requiresReset: requiresReset,
            supportedChannels: channelList.compactMap { $0 }, maximumPacketPayload: packetPayload,
            responseDelay: .milliseconds(responseDelayMilliseconds))
        do {
            try device.validate()
        } catch {
            throw Failure(nil, error.description)
        }
        var parsedPeers: [VirtualPeer] = []
        for text in peers {
            do {
                parsedPeers.append(try VirtualPeer(parsing: text))
            } catch {
                throw Failure("peer", "\(error)", colon: true)
            }
        }
        self.init(
            host: host, port: port, scenario: namedScenario, noise: noiseModel, seed: seed, speed: speed, automaticPeers: automaticPeers,
            device: device, peers: parsedPeers, tracing: tracing, verbose: verbose)
    }
}

/// A setting of ``VirtualUWBSService/Settings`` given as text is wrong. The description starts
/// with the setting's name (`noise "loud" is not default, line-of-sight or ideal`); a command
/// line puts `--` in front of it.
public struct VirtualUWBSSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting, named as on the command line (`listen`, `scenario`, `noise`, `uci-version`,
    /// `channels`, `response-delay-ms`, `speed`, `peer`); `nil` for the device configuration as
    /// a whole (sessions, packet payload).
    public var setting: String?
    /// What is wrong and what is expected.
    public var message: String
    private var colon: Bool

    /// An error about `setting`.
    public init(_ setting: String?, _ message: String, colon: Bool = false) {
        self.setting = setting
        self.message = message
        self.colon = colon
    }

    /// `setting message` (or `setting: message`), or the message alone.
    public var description: String { setting.map { $0 + (colon ? ": " : " ") + message } ?? message }
}
