import ArgumentParser
import Foundation
import NearbyTerminal
import Simulation

/// `nearby sim`: the built-in simulator.
struct SimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "The built-in simulator: virtual UWB subsystems in a simulated scene.",
        subcommands: [SimUWBSCommand.self]
    )
}

/// `nearby sim uwbs`: virtual UWB subsystems served over TCP.
struct SimUWBSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uwbs",
        abstract: "Serve virtual UWB subsystems (FiRa UCI over TCP, like pica) that range in a simulated scene.",
        discussion: """
            Every TCP connection is one virtual UWBS (raw UCI packets both ways, as google/pica \
            and --device tcp:HOST:PORT speak). Sessions of connected hosts and built-in peers \
            range when session ID, channel and preamble match, roles are opposite and each is in \
            the other's DST_MAC_ADDRESS list; distances and angles come from the scenario \
            (\(Scenario.names.joined(separator: ", "))) with the noise model.
            Signals: SIGUSR1 makes every connected UWBS fail (CORE_DEVICE_STATUS_NTF(ERROR)), \
            SIGUSR2 drops every connection (like an unplug), SIGINT/SIGTERM stop the server.
            """
    )

    @Option(name: .long, help: "Address and port to listen on (port 0: the system picks; the first line says which).")
    var listen = "127.0.0.1:7000"

    @Option(name: .long, help: "Motion scenario: \(Scenario.names.joined(separator: ", ")).")
    var scenario = "stand"

    @Option(name: .long, help: "Seed of the noise and of random walks.")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Noise model: default, line-of-sight or ideal.")
    var noise = "default"

    @Option(name: .customLong("uci-version"), help: "UCI version the devices speak: 1.1 or 2.0.")
    var uciVersion = "2.0"

    @Option(name: .customLong("max-sessions"), help: "Sessions per device (more answer MAX_SESSIONS).")
    var maxSessions = 5

    @Option(name: .long, help: "Channels the radio supports, comma-separated.")
    var channels = "5,9"

    @Option(name: .customLong("peer"), help: "A built-in peer, ACTIVE from the start (repeatable): \(VirtualPeer.syntax).")
    var peers: [String] = []

    @Flag(name: .customLong("auto-peers"), help: "Give every ACTIVE session a mirrored peer for each DST address nobody holds.")
    var autoPeers = false

    @Option(name: .long, help: "Simulated seconds per real second (0.01-1000).")
    var speed = 1.0

    @Option(name: .customLong("response-delay-ms"), help: "Delay before each command is processed, milliseconds.")
    var responseDelay = 0

    @Option(name: .customLong("packet-payload"), help: "Largest control packet payload the devices send (1-255); longer messages are segmented.")
    var packetPayload = 255

    @Flag(name: .customLong("no-reset-required"), help: "Accept commands right after power-up (default: CORE_DEVICE_RESET first, as pica).")
    var noResetRequired = false

    @Flag(name: .long, help: "Print every ranging round and device state change.")
    var verbose = false

    @Flag(name: .long, help: "Print every UCI packet.")
    var trace = false

    func validate() throws {
        _ = try settings()
    }

    private func settings() throws -> VirtualUWBSService.Settings {
        do {
            return try VirtualUWBSService.Settings(
                listen: listen, scenario: scenario, noise: noise, seed: seed, uciVersion: uciVersion, maximumSessions: maxSessions,
                channels: channels, peers: peers, automaticPeers: autoPeers, speed: speed, responseDelayMilliseconds: responseDelay,
                packetPayload: packetPayload, requiresReset: !noResetRequired, tracing: trace, verbose: verbose)
        } catch {
            throw ValidationError(error.setting != nil ? "--\(error)" : error.description)
        }
    }

    func run() async throws {
        let settings = try settings()
        let service = try await NearbyExit.onError { try await VirtualUWBSService.start(settings, log: Console.out) }
        Console.out(
            "nearby sim uwbs: listening on \(service.address) (UCI \(uciVersion), scenario \(settings.scenario.name), "
                + "seed \(seed), noise \(noise), \(settings.device.requiresReset ? "reset required" : "no reset required"))")
        await service.serveUntilSignal(report: Console.out)
        Console.out("nearby sim uwbs: stopped")
    }
}
