import ArgumentParser
import NearbyTerminal
import Simulation
import UCI
import UWBDevice

/// `nearby uwb raw`: send UCI packets and print what comes back.
struct UWBRawCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raw",
        abstract: "Send raw UCI packets to a UWB subsystem and print every packet that comes back.",
        discussion: """
            Each PACKET is one whole UCI packet in hex (header + payload), e.g. 20020000 for \
            CORE_GET_DEVICE_INFO; spaces, ':' and a 0x prefix are allowed inside one argument. \
            After each command (MT 1) the response (MT 2) is awaited before the next packet is sent; \
            notifications are printed as they arrive. Exits with status 1 if a response does not come.
            """
    )

    @Option(name: .long, help: "The UWB subsystem: \(UWBDeviceTarget.forms).")
    var device: String

    @Option(name: .long, help: "Seconds to wait for each response.")
    var timeout: Double = 2

    @Option(name: .long, help: "Seconds to keep printing notifications after the last packet.")
    var listen: Double = 0.3

    @Argument(help: "UCI packets in hex, one per argument.")
    var packets: [String]

    @OptionGroup var uciLog: UCILogOptions

    func validate() throws {
        _ = try UWBClientSetup.spec(device)
        _ = try parsedPackets()
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be between 0 and 600 seconds, got \(timeout)") }
        guard listen >= 0, listen <= 3600 else { throw ValidationError("--listen must be between 0 and 3600 seconds, got \(listen)") }
    }

    /// Each argument as a typed packet (the header decoded once, here).
    private func parsedPackets() throws -> [UCIPacket] {
        guard !packets.isEmpty else { throw ValidationError("give at least one UCI packet in hex, e.g. 20020000") }
        return try packets.enumerated().map { index, text in
            do {
                return try UCIPacket(hex: text)
            } catch {
                throw ValidationError("packet \(index + 1) \(error)")
            }
        }
    }

    func run() async throws {
        let packets = try parsedPackets()
        guard case .device(let spec) = try UWBClientSetup.spec(device) else {
            Console.error("error: `nearby uwb raw` talks to a UCI transport; run the simulator as a server (`nearby sim uwbs --listen 127.0.0.1:7000`) and use --device tcp:127.0.0.1:7000")
            throw ExitCode(1)
        }
        let capture = try uciLog.open(interface: spec.description)
        defer { CaptureReport.finish("--uci-log", capture?.file) }
        let base = spec.makeTransport()
        let succeeded = await UCIRawExchange.run(
            packets, over: capture.map { base.capturing(to: $0) } ?? base, device: spec.description,
            responseTimeout: .milliseconds(Int(timeout * 1000)),
            listen: .milliseconds(Int(listen * 1000)), packet: { print($0) }, error: { Console.error("error: \($0)") })
        if !succeeded { throw ExitCode(1) }
    }
}
