import Foundation
import NearbyTestSupport
import Testing
import UCI
import UWBDevice

/// `--uci-log` and `--record` from the command line: the capture is written (0600, readable by
/// tshark and our reader); a file that cannot grow (`ulimit -f`, /dev/full) is reported and the
/// command still does its job.
@Suite struct CaptureCommandTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-cli-capture-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func shell(_ script: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: ["NEARBY": PackagePaths.nearby.path])
    }

    @Test("uwb info --uci-log: every packet of the exchange, directions, mode 0600; tshark counts the same frames")
    func uwbInfo() async throws {
        let path = directory.appendingPathComponent("info.pcapng").path
        let result = try await ChildProcess.run(PackagePaths.nearby, ["uwb", "info", "--device", "sim", "--json", "--uci-log", path])
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let file = try PcapNGReader(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(file.linkTypes == [299])
        let packets = try file.packets.map { ($0.direction, try UCIPacket(bytes: $0.bytes)) }
        // CORE_DEVICE_RESET, GET_DEVICE_INFO, GET_CAPS_INFO out; READY, responses in.
        #expect(packets.filter { $0.0 == .outbound }.map(\.1.header.opcode) == [.coreDeviceReset, .coreGetDeviceInfo, .coreGetCapsInfo])
        #expect(packets.filter { $0.0 == .inbound }.contains { $0.1.header.opcode == .coreGetDeviceInfo && $0.1.header.messageType == .response })
        let rows = try await Tshark.fields(path, ["frame.number", "frame.p2p_dir"])
        #expect(rows.count == packets.count)
        #expect(rows.map { $0[1] } == packets.map { $0.0 == .outbound ? "0" : "1" })
    }

    @Test("a file-size limit: --uci-log reports it once and the command still succeeds")
    func fileSizeLimit() async throws {
        let path = directory.appendingPathComponent("limited.pcapng").path
        // 1 block of 512 bytes: the headers fit, the packets do not.
        let result = try await shell("ulimit -f 1; exec \"$NEARBY\" uwb info --device sim --json --uci-log '\(path)'")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"uci_version\""), "the command did its job")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("--uci-log") }
        #expect(warnings.count == 2, "the first failure, then the count at the end: \(warnings)")
        #expect(warnings.first?.contains("File too large") == true)
        #expect(warnings.last?.contains("packet(s) not recorded") == true)
        // What was written is a readable capture (no half record).
        let file = try PcapNGReader(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(file.linkTypes == [299])
    }

    @Test("demo --record /dev/full: reported, the run ends normally with every update")
    func recordToAFullDisk() async throws {
        let result = try await ChildProcess.run(
            PackagePaths.nearby, ["demo", "--scenario", "walk-in", "--speed", "20", "--json", "--record", "/dev/full"])
        #expect(result.status == 0, "\(result.stderr)")
        let updates = result.stdout.split(separator: "\n").filter { $0.contains("\"event\":\"update\"") }.count
        #expect(updates > 10)
        #expect(result.stderr.contains("warning: --record: cannot write the header of /dev/full: No space left on device"))
        #expect(result.stderr.contains("warning: --record: \(updates) of \(updates) sample(s) were not recorded"))
    }
}
