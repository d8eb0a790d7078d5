import Ranging
import Testing

@Suite struct TraceParserTests {
    func parse(_ text: String) throws(TraceError) -> [TraceRecord] {
        var parser = TraceParser(source: "t.csv")
        var records: [TraceRecord] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if let record = try parser.parse(line: line, number: number) { records.append(record) }
        }
        try parser.finish()
        return records
    }

    func error(_ text: String) -> TraceError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesEveryColumn() throws {
        let records = try parse("""
            t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m
            0.0,1.5,-12.5,3,87,0,0,1.45
            0.1,,,,,,33,
            0.2,2.25,180,-90,0,1,0x1B,2

            """)
        #expect(records.count == 3)
        #expect(records[0] == TraceRecord(
            sample: RangeSample(timestamp: 0, distance: 1.5, azimuth: -12.5, elevation: 3, figureOfMerit: 87, isNonLineOfSight: false, status: 0),
            truth: 1.45))
        #expect(records[1] == TraceRecord(sample: RangeSample(timestamp: 0.1, status: 33), truth: nil))
        #expect(records[2].sample.status == RangeSample.statusNegativeDistance)
        #expect(records[2].sample.isNonLineOfSight == true)
        #expect(records[2].sample.azimuth == 180)
    }

    @Test func acceptsUnknownColumnsReorderedColumnsCommentsAndCRLF() throws {
        // Lines as a CRLF file yields them (a reader that splits on LF keeps the CR).
        let lines = ["\u{FEFF}# recorded by a test\r", "note,status,distance_m,t_s,anchor\r", "\r", "hello,0,3.5,1.25,A3\r", "# comment\r", "bye,,4,2,A5"]
        var parser = TraceParser(source: "t.csv")
        var records: [TraceRecord] = []
        for (i, line) in lines.enumerated() {
            if let record = try parser.parse(line: line, number: i + 1) { records.append(record) }
        }
        #expect(records.map(\.sample.timestamp) == [1.25, 2])
        #expect(records.map(\.sample.distance) == [3.5, 4])
        #expect(records.allSatisfy { $0.sample.azimuth == nil && $0.truth == nil && $0.sample.status == 0 })
    }

    @Test func badRowsNameTheFileLineAndColumn() {
        let header = "t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m\n"
        let cases: [(String, TraceError.Reason, String)] = [
            ("0,1,,,,0,0\n", .fieldCount(expected: 8, found: 7), "expected 8"),
            ("0,abc,,,,0,0,\n", .invalidValue(column: "distance_m", value: "abc", expected: "a distance in metres"), "distance_m"),
            ("0,1,,,101,0,0,\n", .invalidValue(column: "fom", value: "101", expected: "an integer figure of merit 0 ... 100"), "0 ... 100"),
            ("0,1,181,,,0,0,\n", .invalidValue(column: "azimuth_deg", value: "181", expected: "an azimuth in degrees, -180 ... 180"), "azimuth_deg"),
            ("0,1,,,,2,0,\n", .invalidValue(column: "nlos", value: "2", expected: "0 (line of sight) or 1 (non-line-of-sight)"), "nlos"),
            ("0,1,,,,0,256,\n", .invalidValue(column: "status", value: "256", expected: "a UCI status 0 ... 255 (decimal or 0x hex)"), "status"),
            ("0,1,,,,0,0,-1\n", .invalidValue(column: "truth_m", value: "-1", expected: "a distance ≥ 0 in metres"), "truth_m"),
            ("0,nan,,,,0,0,\n", .invalidValue(column: "distance_m", value: "nan", expected: "a distance in metres"), "'nan'"),
            (",1,,,,0,0,\n", .missingTimestamp, "t_s is empty"),
        ]
        for (row, reason, words) in cases {
            let error = error(header + "0,1,,,,0,0,\n" + row)
            #expect(error == TraceError(source: "t.csv", line: 3, reason: reason), "\(row)")
            #expect(error?.description.hasPrefix("t.csv:3: ") == true)
            #expect(error?.description.contains(words) == true, "\(error?.description ?? "")")
        }
    }

    @Test func timeMustNotGoBackwards() {
        let error = error("t_s,distance_m\n1.0,2\n1.0,2\n0.5,2\n")
        #expect(error == TraceError(source: "t.csv", line: 4, reason: .timeWentBackwards(previous: 1.0, found: 0.5)))
    }

    @Test func headerProblems() {
        #expect(error("") == TraceError(source: "t.csv", line: 1, reason: .missingHeader))
        #expect(error("# only a comment\n\n") == TraceError(source: "t.csv", line: 3, reason: .missingHeader))
        #expect(error("distance_m,status\n1,0") == TraceError(source: "t.csv", line: 1, reason: .missingColumn("t_s")))
        #expect(error("t_s,azimuth_deg\n1,0") == TraceError(source: "t.csv", line: 1, reason: .missingColumn("distance_m")))
        #expect(error("t_s,distance_m,t_s\n") == TraceError(source: "t.csv", line: 1, reason: .duplicateColumn("t_s")))
        #expect(TraceError(source: "a.csv", line: 1, reason: .missingHeader).description.contains("t_s,distance_m,azimuth_deg"))
    }

    @Test func writerRoundTrips() throws {
        let writer = TraceWriter()
        let samples = [
            TraceRecord(sample: RangeSample(timestamp: 0.1, distance: 1.0 / 3, azimuth: -179.99, elevation: 12, figureOfMerit: 100, isNonLineOfSight: true, status: 0), truth: 0.3),
            TraceRecord(sample: RangeSample(timestamp: 1732212345.125, status: 0x21), truth: nil),
            TraceRecord(sample: RangeSample(timestamp: 1732212346, distance: 1e-5, figureOfMerit: 0, isNonLineOfSight: false, status: 0x1B), truth: 1e-5),
        ]
        let text = ([writer.header] + samples.map { writer.line(for: $0) }).joined(separator: "\n")
        #expect(writer.header == "t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m")
        #expect(writer.line(for: samples[1]) == "1732212345.125,,,,,,33,")
        #expect(try parse(text) == samples)
        // With the optional RSSI column.
        let rssiWriter = TraceWriter(includesRSSI: true)
        let withRSSI = TraceRecord(sample: RangeSample(timestamp: 3, distance: 2, rssi: -71.5), truth: nil)
        #expect(try parse(rssiWriter.header + "\n" + rssiWriter.line(for: withRSSI)) == [withRSSI])
    }

    @Test(arguments: [
        ("data/hanyang/static/los_h100_2m.csv", 89), ("data/hanyang/static/nlos_h100_10m.csv", 89),
        ("data/hanyang/dynamic/los_A_case1_A5.csv", 2134), ("data/hanyang/dynamic/nlos_A_case1_A12.csv", 2401),
        ("data/lias/fast_a5_t0.csv", 13481), ("data/lias/mid_a5_t0.csv", 12908),
    ])
    func bundledTracesParse(path: String, rows: Int) throws {
        let records = try TraceFiles.records(path)
        #expect(records.count == rows)
        #expect(records.allSatisfy { $0.sample.isValid && $0.sample.distance != nil })
        #expect(records.filter { $0.truth != nil }.count >= rows - 2)
    }
}
