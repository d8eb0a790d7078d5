import Foundation
import NearbyTestSupport
import Testing

/// `nearby uwb raw` over TCP (a scripted UCI server) and over USB (umockdev emulator).
@Suite struct UWBRawCommandTests {
    static let getDeviceInfo: [UInt8] = [0x20, 0x02, 0x00, 0x00]
    static let deviceInfo: [UInt8] = [0x40, 0x02, 0x00, 0x0A, 0x00, 0x00, 0x02, 0x03, 0x01, 0x03, 0x01, 0x00, 0x01, 0x00]
    static let resetOK: [UInt8] = [0x40, 0x00, 0x00, 0x01, 0x00]
    static let ready: [UInt8] = [0x60, 0x01, 0x00, 0x01, 0x01]

    /// Answers GET_DEVICE_INFO (split in 2 writes) and RESET (+ READY, one write).
    static let responder: ScriptedUCIServer.Responder = { packet in
        switch Array(packet.prefix(2)) {
        case [0x20, 0x02]: [Array(deviceInfo[0..<5]), Array(deviceInfo[5...])]
        case [0x20, 0x00]: [resetOK + ready]
        default: []
        }
    }

    @Test func sendsEachPacketWaitsForItsResponseAndPrintsWhatComesBack() async throws {
        let server = try ScriptedUCIServer(responder: Self.responder)
        let run = try await ChildProcess.run(PackagePaths.nearby, [
            "uwb", "raw", "--device", "tcp:127.0.0.1:\(server.port)", "20020000", "20 00 00 01 00",
        ])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "> 20 02 00 00                           CMD gid 0x0 oid 0x2, 0 payload byte(s)",
            "< 40 02 00 0a 00 00 02 03 01 03 01 00 01 00  RSP gid 0x0 oid 0x2, 10 payload byte(s), status 0x0",
            "> 20 00 00 01 00                        CMD gid 0x0 oid 0x0, 1 payload byte(s)",
            "< 40 00 00 01 00                        RSP gid 0x0 oid 0x0, 1 payload byte(s), status 0x0",
            "< 60 01 00 01 01                        NTF gid 0x0 oid 0x1, 1 payload byte(s)",
        ])
        #expect(server.received == [Self.getDeviceInfo, [0x20, 0x00, 0x00, 0x01, 0x00]])
    }

    @Test func aMissingResponseFailsWithTheTimeout() async throws {
        let server = try ScriptedUCIServer { _ in [] }
        let run = try await ChildProcess.run(PackagePaths.nearby, [
            "uwb", "raw", "--device", "tcp:127.0.0.1:\(server.port)", "--timeout", "0.5", "20020000", "20000001 00",
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: tcp:127.0.0.1:\(server.port): the response to packet 1 (20 02 00 00) timed out after 500 ms"), "\(run.stderr)")
        // The second packet was not sent. (The server's thread may read the first after the CLI exited.)
        for _ in 0..<200 where server.received.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        #expect(server.received == [Self.getDeviceInfo])
    }

    @Test(arguments: [
        (["zz"], "packet 1 \"zz\" is not hex bytes"),
        (["200200"], "packet 1 has 3 byte(s); a UCI packet has a 4-byte header"),
        (["20020000", "20000001"], "packet 2 (20 00 00 01): its header announces 1 payload byte(s), so the packet must be 5 bytes, not 4"),
    ])
    func badPacketsAreRejectedBeforeAnythingIsSent(packets: [String], message: String) async throws {
        let run = try await ChildProcess.run(PackagePaths.nearby, ["uwb", "raw", "--device", "tcp:127.0.0.1:9"] + packets)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func aDevKitThatIsNotThereIsReported() async throws {
        let run = try await UMockdevEmulator.run(
            kit: .sr150, uciPort: nil, command: [PackagePaths.nearby.path, "uwb", "raw", "--device", "usb:1915:520f", "20020000"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: usb:1915:520f: no USB device 1915:520f is attached"), "\(run.stderr)")
        #expect(run.stderr.contains("Attached dev kits: usb:0403:6015@1.2 (NXP SR150 EVK)"))
    }

    @Test(arguments: [(UMockdevEmulator.Kit.dwm3001cdk, "usb:1915:520f"), (.sr150, "usb:0403:6015")])
    func talksToAnEmulatedDevKitOverUSB(kit: UMockdevEmulator.Kit, device: String) async throws {
        let server = try ScriptedUCIServer(responder: Self.responder)
        let run = try await UMockdevEmulator.run(
            kit: kit, uciPort: server.port, command: [PackagePaths.nearby.path, "uwb", "raw", "--device", device, "20020000"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("< 40 02 00 0a 00 00 02 03 01 03 01 00 01 00  RSP gid 0x0 oid 0x2, 10 payload byte(s), status 0x0"),
                "\(run.stdout)\n\(run.stderr)")
        #expect(server.received == [Self.getDeviceInfo])
    }
}
