import Foundation
import NearbyTestSupport
import Testing

/// `nearby sim uwbs` as a child process, driven over TCP by raw sockets.
@Suite struct SimUWBSCommandTests {
    /// Bytes from hex text.
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter(\.isHexDigit))
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    /// SET_APP_CONFIG for handle 0x00010001: controller, initiator, unicast, DS-TWR, MAC 0x0001,
    /// DST 0x0002, time-scheduled, channel 9, preamble 10.
    static let configure = bytes(
        "21 03 00 22 01 00 01 00 09 00 01 01 11 01 01 03 01 00 01 01 02 06 02 01 00 07 02 02 00 22 01 01 04 01 09 14 01 0a")

    /// Starts the server on a port the system picks and returns it with that port.
    static func server(_ arguments: [String]) async throws -> (ChildProcess, Int) {
        let child = try ChildProcess(PackagePaths.nearby, ["sim", "uwbs", "--listen", "127.0.0.1:0"] + arguments)
        try await child.waitForOutput("listening on 127.0.0.1:")
        guard let range = child.stdout.range(of: #"listening on 127\.0\.0\.1:(\d+)"#, options: .regularExpression),
            let port = Int(child.stdout[range].split(separator: ":").last ?? "")
        else { throw ChildProcessError("no port in: \(child.stdout)") }
        return (child, port)
    }

    @Test func aHostRangesWithABuiltInPeerAndTheServerReportsIt() async throws {
        let (server, port) = try await Self.server([
            "--scenario", "stand", "--noise", "ideal", "--peer", "session=42,mac=0x0002,peer=0x0001,channel=9,preamble=10",
        ])
        defer { server.terminate() }
        #expect(server.stdout.contains("device 1: built-in peer, session 42: 0x0002 -> 0x0001, channel 9, preamble 10, controlee/responder, 200 ms"))
        #expect(server.stdout.contains("(UCI 2.0, scenario stand, seed 1, noise ideal, reset required)"))
        let socket = try RawUCISocket(port: port)
        #expect(try await socket.next() == Self.bytes("60 01 00 01 01"))
        socket.send(Self.bytes("20 00 00 01 00"))
        #expect(try await socket.next(2) == [Self.bytes("40 00 00 01 00"), Self.bytes("60 01 00 01 01")])
        socket.send(Self.bytes("21 00 00 05 2a 00 00 00 00"))
        #expect(try await socket.next(2) == [Self.bytes("41 00 00 05 00 01 00 01 00"), Self.bytes("61 02 00 06 01 00 01 00 00 00")])
        socket.send(Self.configure)
        #expect(try await socket.next(2) == [Self.bytes("41 03 00 02 00 00"), Self.bytes("61 02 00 06 01 00 01 00 03 00")])
        socket.send(Self.bytes("22 00 00 04 01 00 01 00"))
        #expect(
            try await socket.next(3)
                == [Self.bytes("42 00 00 01 00"), Self.bytes("61 02 00 06 01 00 01 00 02 00"), Self.bytes("60 01 00 01 02")])
        // SESSION_INFO_NTFs: handle, 200 ms, MAC 0x0002, status OK, 200 cm (stand at 2 m, no noise).
        for sequence in 0..<3 {
            let info = try await socket.next()
            #expect(Array(info[0..<4]) == [0x62, 0x00, 0x00, 0x38])
            #expect(Array(info[4..<8]) == [UInt8(sequence), 0, 0, 0])
            #expect(Array(info[8..<12]) == [0x01, 0x00, 0x01, 0x00])
            #expect(Array(info[13..<17]) == [0xC8, 0, 0, 0])
            #expect(Array(info[29..<35]) == [0x02, 0x00, 0x00, 0x00, 0xC8, 0x00])
        }
        try await server.waitForOutput("device 2: session 42 -> 0x0002: 2.00 m, azimuth 0.00°, elevation 5.74° (truth 2.00 m, 0.00°)")
        #expect(server.stdout.contains("device 2 attached: tcp 127.0.0.1:"))
        #expect(server.stdout.contains("device 2: session 42 ACTIVE"))
        #expect(server.stdout.contains("device 2 placed in the scene as host"))
        #expect(server.stdout.contains("device 1 placed in the scene as accessory-1"))

        // SIGUSR1: every connected UWBS fails.
        server.signal(SIGUSR1)
        _ = try await socket.read(until: { $0 == Self.bytes("60 01 00 01 ff") })
        try await server.waitForOutput("device 2: fault: device error")
        // SIGTERM: a clean stop.
        server.signal(SIGTERM)
        #expect(try await server.waitForExit(timeout: .seconds(30)) == 0)
        #expect(server.stdout.contains("device 2 detached: the server stopped"))
        #expect(server.stdout.hasSuffix("nearby sim uwbs: stopped\n"))
    }

    @Test func uci11WithoutResetAndASessionLimit() async throws {
        let (server, port) = try await Self.server(["--uci-version", "1.1", "--no-reset-required", "--max-sessions", "1"])
        defer { server.terminate() }
        let socket = try RawUCISocket(port: port)
        #expect(try await socket.next() == Self.bytes("60 01 00 01 01"))
        socket.send(Self.bytes("21 00 00 05 2a 00 00 00 00"))
        #expect(try await socket.next(2) == [Self.bytes("41 00 00 01 00"), Self.bytes("61 02 00 06 2a 00 00 00 00 00")])
        socket.send(Self.bytes("21 00 00 05 2b 00 00 00 00"))
        #expect(try await socket.next() == Self.bytes("41 00 00 01 14"))
        // SIGUSR2 drops the connection, like an unplug; the server keeps listening.
        server.signal(SIGUSR2)
        while (try? await socket.next(timeout: .seconds(10))) != nil {}
        #expect(socket.isClosed)
        let again = try RawUCISocket(port: port)
        #expect(try await again.next() == Self.bytes("60 01 00 01 01"))
        try await server.waitForOutput("dropping every connection (SIGUSR2)")
    }

    @Test(arguments: [
        (["--peer", "session=42,mac=zz,peer=1"], "--peer: invalid peer \"session=42,mac=zz,peer=1\": mac \"zz\" is not a MAC address"),
        (["--listen", "nowhere"], "--listen \"nowhere\" is not HOST:PORT"),
        (["--uci-version", "3"], "--uci-version \"3\" is not 1.1 or 2.0"),
        (["--scenario", "dance"], "--scenario: unknown scenario \"dance\"; available: demo, walk-in, stand, walk-out, random-walk"),
        (["--noise", "loud"], "--noise \"loud\" is not default, line-of-sight or ideal"),
        (["--channels", "5,7"], "supported channels 5, 7 must be a non-empty subset of the FiRa channels"),
        (["--packet-payload", "300"], "maximum packet payload 300 is out of range, expected 1 ... 255 bytes"),
    ])
    func badArgumentsAreExplained(arguments: [String], message: String) async throws {
        let run = try await ChildProcess.run(PackagePaths.nearby, ["sim", "uwbs"] + arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func aPortInUseIsAnError() async throws {
        let (server, port) = try await Self.server([])
        defer { server.terminate() }
        let run = try await ChildProcess.run(PackagePaths.nearby, ["sim", "uwbs", "--listen", "127.0.0.1:\(port)"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: cannot listen on 127.0.0.1:\(port): the address is in use"), "\(run.stderr)")
    }
}
