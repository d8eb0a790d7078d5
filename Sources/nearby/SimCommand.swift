import ArgumentParser
import Dispatch
import Foundation
import NearbyBase
import Simulation
import Synchronization
import UCI

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

    private struct Settings {
        var host: String
        var port: UInt16
        var scenario: Scenario
        var noise: NoiseModel
        var device: VirtualUWBSConfiguration
        var peers: [VirtualPeer]
    }

    func validate() throws {
        _ = try settings()
    }

    private func settings() throws -> Settings {
        guard let (host, port) = SimListenAddress.parse(listen) else {
            throw ValidationError("--listen \"\(listen)\" is not HOST:PORT (e.g. 127.0.0.1:7000, [::1]:7000; port 0 lets the system pick)")
        }
        let scenario: Scenario
        do {
            scenario = try Scenario.named(self.scenario)
        } catch {
            throw ValidationError("--scenario: \(error)")
        }
        let noise: NoiseModel
        switch self.noise.lowercased() {
        case "default": noise = .default
        case "line-of-sight", "los": noise = .lineOfSight
        case "ideal": noise = .ideal
        default: throw ValidationError("--noise \"\(self.noise)\" is not default, line-of-sight or ideal")
        }
        let version: UCIVersion
        switch uciVersion {
        case "1.1": version = .v1_1
        case "2.0", "2": version = .v2_0
        default: throw ValidationError("--uci-version \"\(uciVersion)\" is not 1.1 or 2.0")
        }
        let channelList = channels.split(separator: ",").map { UInt8($0.trimmingCharacters(in: .whitespaces)) }
        guard !channelList.isEmpty, channelList.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--channels \"\(channels)\" is not a comma-separated list of channel numbers, e.g. 5,9")
        }
        guard (0...60_000).contains(responseDelay) else {
            throw ValidationError("--response-delay-ms \(responseDelay) is out of range, expected 0 ... 60000")
        }
        guard (0.01...1000).contains(speed) else {
            throw ValidationError("--speed \(speed) is out of range, expected 0.01 ... 1000")
        }
        let device = VirtualUWBSConfiguration(
            uciVersion: version, maximumSessions: maxSessions, requiresReset: !noResetRequired,
            supportedChannels: channelList.compactMap { $0 }, maximumPacketPayload: packetPayload,
            responseDelay: .milliseconds(responseDelay))
        do {
            try device.validate()
        } catch {
            throw ValidationError(error.description)
        }
        var parsedPeers: [VirtualPeer] = []
        for text in peers {
            do {
                parsedPeers.append(try VirtualPeer(parsing: text))
            } catch {
                throw ValidationError("--peer: \(error)")
            }
        }
        return Settings(host: host, port: port, scenario: scenario, noise: noise, device: device, peers: parsedPeers)
    }

    func run() async throws {
        let settings = try settings()
        let world: VirtualUWBSWorld
        let server: VirtualUWBSServer
        do {
            world = try VirtualUWBSWorld(
                scenario: settings.scenario, noise: settings.noise, seed: seed, clock: .realTime(speed: speed),
                automaticPeers: autoPeers)
        } catch {
            SimConsole.error("error: \(error)")
            throw ExitCode(1)
        }
        let events = world.events(bufferingNewest: 65_536)
        await world.setTracing(trace)
        let printer = SimEventPrinter(verbose: verbose)
        let printing = Task {
            for await event in events { printer.print(event) }
        }
        do {
            for peer in settings.peers {
                let id = try await world.addPeer(peer)
                SimConsole.line("\(id): built-in peer, \(peer)")
            }
            server = try VirtualUWBSServer(world: world, host: settings.host, port: settings.port, configuration: settings.device)
        } catch {
            SimConsole.error("error: \(error)")
            await world.shutdown()
            throw ExitCode(1)
        }
        SimConsole.line(
            "nearby sim uwbs: listening on \(server.address) (UCI \(uciVersion), scenario \(settings.scenario.name), "
                + "seed \(seed), noise \(noise), \(settings.device.requiresReset ? "reset required" : "no reset required"))")

        let (stop, stopContinuation) = AsyncStream<Int32>.makeStream()
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM, SIGUSR1, SIGUSR2] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stopContinuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        for await number in stop {
            if number == SIGUSR1 {
                for id in server.connectedDevices {
                    try? await world.inject(.deviceError, into: id)
                }
                continue
            }
            if number == SIGUSR2 {
                SimConsole.line("dropping every connection (SIGUSR2)")
                await server.dropConnections()
                continue
            }
            break
        }
        for source in sources { source.cancel() }
        await server.stop()
        await world.shutdown()
        await printing.value
        SimConsole.line("nearby sim uwbs: stopped")
    }
}

/// `HOST:PORT` and `[IPv6]:PORT`.
enum SimListenAddress {
    static func parse(_ text: String) -> (String, UInt16)? {
        let host: String
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            guard !host.contains(":") else { return nil }
        }
        guard !host.isEmpty, let port = UInt16(portText) else { return nil }
        return (host, port)
    }
}

/// Writes lines unbuffered, so a reader of a pipe (a test, a log) sees them at once.
enum SimConsole {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// Turns world events into lines: lifecycle always; per peer, a ranging line when ranging
/// starts or fails and then every 5 s (every round with `verbose`).
final class SimEventPrinter: Sendable {
    private let verbose: Bool
    private let lastPrinted = Mutex<[String: (time: Double, valid: Bool)]>([:])
    private let peers = Mutex<Set<VirtualUWBSDeviceID>>([])

    init(verbose: Bool) {
        self.verbose = verbose
    }

    func print(_ event: VirtualUWBSEvent) {
        switch event {
        case .deviceAttached(let id, let name, let isPeer):
            if isPeer { _ = peers.withLock { $0.insert(id) } }
            SimConsole.line("\(id) attached: \(name)")
        case .deviceDetached(let id, let reason):
            SimConsole.line("\(id) detached: \(reason)")
        case .devicePlaced(let id, let place):
            SimConsole.line("\(id) placed in the scene as \(place)")
        case .deviceState(let id, let state):
            if verbose { SimConsole.line("\(id): \(state)") }
        case .session(let id, let change):
            SimConsole.line("\(id): \(change)")
        case .round(let round):
            printRound(round)
        case .cannotRange(let id, let sessionID, let peer, let peerDevice, let reason):
            SimConsole.line("\(id): session \(sessionID) cannot range with \(peer) (\(peerDevice)): \(reason)")
        case .fault(let id, let fault):
            SimConsole.line("\(id): fault: \(fault)")
        case .problem(let id, let problem):
            SimConsole.line("\(id): \(problem)")
        case .packet(let id, let direction, let packet):
            SimConsole.line("\(id) \(direction == .toDevice ? ">" : "<") \(Hex.bytes(packet.bytes))")
        }
    }

    private func printRound(_ round: VirtualRangingRound) {
        guard verbose || !peers.withLock({ $0.contains(round.device) }) else { return }
        let valid = round.measurement?.isValid ?? false
        let key = "\(round.device)|\(round.sessionID)|\(round.peerAddress)"
        let due = lastPrinted.withLock { printed -> Bool in
            if !verbose, let last = printed[key], last.valid == valid, round.worldTime - last.time < 5 { return false }
            printed[key] = (round.worldTime, valid)
            return true
        }
        guard due else { return }
        var line = "\(round.device): session \(round.sessionID) -> \(round.peerAddress): "
        guard let measurement = round.measurement else {
            SimConsole.line(line + "RX timeout (no device answers)")
            return
        }
        guard let distance = measurement.distance, measurement.isValid else {
            SimConsole.line(line + "RX timeout (dropout), truth \(Self.format(measurement.truth.distance)) m")
            return
        }
        line += "\(Self.format(distance)) m"
        if let azimuth = measurement.azimuth { line += ", azimuth \(Self.format(azimuth))°" }
        if let elevation = measurement.elevation { line += ", elevation \(Self.format(elevation))°" }
        if measurement.reportedNonLineOfSight == true { line += ", NLoS" }
        line += " (truth \(Self.format(measurement.truth.distance)) m, \(Self.format(measurement.truth.azimuth))°)"
        SimConsole.line(line)
    }

    /// Two decimals, without a "-0.00".
    private static func format(_ value: Double) -> String {
        String(format: "%.2f", abs(value) < 0.005 ? 0 : value)
    }
}
