import FuzzSupport
import Ranging

/// The CSV trace reader (`nearby replay`, `nearby bench`): `TraceParser` over the lines of a file.
///
/// Input: the file's bytes (decoded as UTF-8 with repairs, cut at `\n`, as `LineReader` does).
/// Invariant: a parsed record written by `TraceWriter` and parsed again is the same record.
@main enum FuzzTraceCSV: FuzzTarget {
    static let seeds: [[UInt8]] = [
        "t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m\n0.0,4.02,,,,0,0,4.0\n0.143,4.0575,,,,0,0,4.0\n",
        "t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m,rssi_dbm\r\n0.0000,4.98,-12.5,3,87,1,0,4.7935,-71\r\n",
        "# comment\n\ndistance_m,t_s\n1.5,0\n1.6,0.1\n",
        "\u{FEFF}t_s,distance_m\n0,1\n0,2\n",
    ].map { Array($0.utf8) }

    static let writer = TraceWriter(includesRSSI: true)

    static func fuzz(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        var parser = TraceParser(source: "fuzz.csv")
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let record: TraceRecord?
            do {
                record = try parser.parse(line: line, number: number)
            } catch {
                FuzzCheck.require(!error.description.isEmpty, "an error without a message")
                return
            }
            guard let record else { continue }
            var again = TraceParser(source: "again.csv")
            _ = try? again.parse(line: writer.header, number: 1)
            let reread = try? again.parse(line: writer.line(for: record), number: 2)
            FuzzCheck.require(same(reread, record), "\(record) written as \(writer.line(for: record)) reads back as \(String(describing: reread))")
        }
        _ = try? parser.finish()
    }

    /// Equal, NaN fields included (a NaN is written as an empty field, which reads as unknown).
    static func same(_ a: TraceRecord?, _ b: TraceRecord) -> Bool {
        guard let a else { return false }
        return a == b || writer.line(for: a) == writer.line(for: b)
    }
}
