import Foundation
import NearbyTestSupport
import Testing

/// `nearby uci decode`, run as a real process.
@Suite("nearby uci decode")
struct UCIDecodeCommandTests {
    static let sessionInfo =
        "62 00 00 38 07 00 00 00 04 03 02 01 00 c8 00 00 00 01 00 00 00 00 00 00 00 00 00 00 01 "
        + "01 02 00 00 96 00 00 f1 64 40 05 64 00 00 00 00 00 00 01 90 00 00 00 00 00 00 00 00 00 00 00"

    func decode(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(PackagePaths.nearby, ["uci", "decode"] + arguments, timeout: .seconds(60))
    }

    @Test("the reference SESSION_INFO_NTF prints readable fields with units")
    func readable() async throws {
        let result = try await decode([Self.sessionInfo])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "SESSION_INFO_NTF (NTF 2/00, 56-byte payload)")
        for expected in [
            "  sequence number: 7", "  session: 0x01020304", "  current ranging interval: 200 ms", "  measurement type: TWO_WAY (0x01)",
            "      mac address: 0x0201", "      status: OK (0x00)", "      distance: 1.5 m", "      azimuth: -30°", "      azimuth fom: 100",
            "      elevation: 10.5°", "      slot index: 1", "      rssi: -72 dBm",
        ] {
            #expect(lines.contains(expected), "missing \"\(expected)\" in\n\(result.stdout)")
        }
    }

    /// OWR-AoA (google/pica's `ShortMacOwrAoaSessionInfoNtf` vector, wire header) is shown typed.
    @Test("an OWR-AoA SESSION_INFO_NTF prints its typed measurement")
    func owrAoA() async throws {
        let result = try await decode([
            "62 00 00 26 00 02 03 04 05 06 07 08 00 0a 01 01 01 03 00 00 00 00 00 00 00 00 00 00 01 "
                + "aa bb 00 00 01 01 00 03 04 60 05 06 50",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for expected in ["  measurement type: OWR_AOA (0x03)", "      mac address: 0xBBAA", "      frame sequence number: 1", "      block index: 1", "      azimuth fom: 96"] {
            #expect(lines.contains(expected), "missing \"\(expected)\" in\n\(result.stdout)")
        }
    }

    @Test("--json prints one JSON object per message with units in the keys")
    func json() async throws {
        let result = try await decode(["--json", Self.sessionInfo, "21:03:00:0f:01:00:00:00:02:09:04:c8:00:00:00:06:02:01:00"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects[0]["message"] as? String == "SESSION_INFO_NTF")
        #expect(objects[0]["opcode"] as? String == "2/00")
        #expect(objects[0]["session"] as? Int == 0x0102_0304)
        #expect(objects[0]["current_ranging_interval_ms"] as? Int == 200)
        let measurement = try #require((objects[0]["measurements"] as? [[String: Any]])?.first)
        #expect(measurement["distance_m"] as? Double == 1.5)
        #expect(measurement["azimuth_deg"] as? Double == -30)
        #expect(measurement["elevation_deg"] as? Double == 10.5)
        #expect(measurement["rssi_dbm"] as? Double == -72)
        #expect(measurement["status"] as? String == "OK")
        #expect(objects[1]["message"] as? String == "SESSION_SET_APP_CONFIG_CMD")
        let parameters = try #require(objects[1]["parameters"] as? [String: Any])
        #expect(parameters["ranging_duration_ms"] as? Int == 200)
        #expect(parameters["device_mac_address"] as? Int == 1)
    }

    @Test("segments given in order are reassembled; several packets may share an argument")
    func segmented() async throws {
        // SET_APP_CONFIG split into two segments (PBF set on the first), then two packets in one argument.
        let result = try await decode([
            "31 03 00 09 01 00 00 00 02 09 04 c8 00", "21 03 00 06 00 00 06 02 01 00",
            "0x60 0x01 0x00 0x01 0x01 | 41 00 00 01 00",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("SESSION_SET_APP_CONFIG_CMD (CMD 1/03, 15-byte payload from 2 packets)"))
        #expect(result.stdout.contains("    ranging duration: 200 ms"))
        #expect(result.stdout.contains("CORE_DEVICE_STATUS_NTF (NTF 0/01, 1-byte payload)\n  device state: DEVICE_STATE_READY (0x01)"))
        #expect(result.stdout.contains("SESSION_INIT_RSP (RSP 1/00, 1-byte payload)\n  status: OK (0x00)"))
    }

    @Test("bad hex and bad packets are reported, the rest still decode, and the exit code is 1")
    func errors() async throws {
        let result = try await decode([
            "zz 01", "20 00 00 01 00", "62 00 00 38 07", "61 02 00 05 01 00 00 00 03", "6e 01 00 02 01 02", "21 0",
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("CORE_DEVICE_RESET_CMD (CMD 0/00, 1-byte payload)\n  reset config: 0"))
        #expect(result.stdout.contains("VENDOR_NTF (NTF E/01, 2-byte payload), not interpreted: kept raw"))
        let errors = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            errors == [
                "error: argument 1: \"z\" at position 1 is not a hex digit (expected pairs like \"62 00 00 38\")",
                "error: argument 3: SESSION_INFO_NTF: the header announces a 56-byte payload, but only 1 byte follows (the packet is truncated)",
                "error: argument 4: SESSION_STATUS_NTF: field \"reason code\": needs 1 byte at offset 5, but only 0 are left (the payload has 5 bytes)",
                "  raw: SESSION_STATUS_NTF (NTF 1/02, 5 bytes): 01 00 00 00 03",
                "error: argument 6: 3 hex digits: an odd count cannot form whole bytes (a digit is missing or extra)",
            ], "\(result.stderr)")
    }

    @Test("a segmented message whose last segment never comes is reported")
    func incomplete() async throws {
        let result = try await decode(["72 00 00 02 07 00"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("error: SESSION_INFO_NTF: incomplete, 1 segment (2 bytes) received but not the last one (PBF = 0)"))
    }

    @Test("without arguments, packets are read from standard input, one per line")
    func standardInput() async throws {
        let shell = URL(fileURLWithPath: "/bin/sh")
        let command = "printf '20 02 00 00\\n\\n40 00 00 01 00\\n' | '\(PackagePaths.nearby.path)' uci decode --json"
        let result = try await ChildProcess.run(shell, ["-c", command], timeout: .seconds(60))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n") == [
                #"{"message":"CORE_GET_DEVICE_INFO_CMD","message_type":"CMD","opcode":"0/02","payload_length":0,"packets":1}"#,
                #"{"message":"CORE_DEVICE_RESET_RSP","message_type":"RSP","opcode":"0/00","payload_length":1,"packets":1,"status":"OK"}"#,
            ])
    }

    @Test("--uci-version picks the multicast layout when the bytes fit both, and rejects other values")
    func version() async throws {
        let ambiguous = "61 07 00 14 01 00 00 00 05 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
        let v1 = try await decode(["--uci-version", "1.1", ambiguous])
        #expect(v1.stdout.contains("remaining list size: 5"))
        let v2 = try await decode(["--uci-version", "2.0", ambiguous])
        #expect(!v2.stdout.contains("remaining list size"))
        #expect(v2.stdout.contains("controlees: 5 items"))
        let bad = try await decode(["--uci-version", "3", ambiguous])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--uci-version must be 1.1 or 2.0, not \"3\""))
    }
}
